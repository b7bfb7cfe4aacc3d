//! Move-matching by a Maia network evaluated in-process (`crate::policy`), as the built-in
//! engine plays it under `Style=maia` at one node, without a UCI round trip a position. One
//! evaluation of a position serves every setting of the same net: at `PolicyTemperature` 0
//! (or unset) the engine plays the policy's top move, a match when it is the human's; above 0
//! it samples from the softmax at that temperature, and the matching figure is the expectation
//! of that draw, the policy's probability of the human's move: exact and seedless.

use indicatif::ProgressBar;

use super::items::Item;
use crate::analysis::error::{AnalysisError, Result};
use crate::policy::{Evaluation, Evaluator, Net, MAIA_BANDS};

/// Positions sent through the network at once.
const BATCH: usize = 8;

/// One Maia setting: the net's band and the temperature (0: the top move).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaiaSetting {
    pub net: u32,
    pub temperature: f64,
}

/// The Maia setting of a `builtin` spec's options, or None when it is not `Style=maia`. Options
/// the in-process evaluation cannot honour are refused by name.
pub fn maia_setting(spec: &str, options: &[(String, String)]) -> Result<Option<MaiaSetting>> {
    let get = |name: &str| {
        options
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    if !get("Style").is_some_and(|s| s.eq_ignore_ascii_case("maia")) {
        return Ok(None);
    }
    let bad = |m: String| AnalysisError::Usage(format!("--match-engine {spec}: {m}"));
    for (k, _) in options {
        let known = ["Style", "MaiaNet", "PolicyTemperature", "RandomSeed"];
        if !known.iter().any(|n| n.eq_ignore_ascii_case(k)) {
            return Err(bad(format!(
                "{k}: Style=maia is matched in-process from the network's policy, which takes \
                 only MaiaNet and PolicyTemperature (RandomSeed too, which the exact \
                 expectation does not need)"
            )));
        }
    }
    let net = match get("MaiaNet") {
        None => 1100,
        Some(v) => v
            .parse::<u32>()
            .ok()
            .filter(|b| MAIA_BANDS.contains(b))
            .ok_or_else(|| bad(format!("MaiaNet `{v}` is not one of {MAIA_BANDS:?}")))?,
    };
    let temperature = match get("PolicyTemperature") {
        None => 0.0,
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|t| (0.0..=10.0).contains(t))
            .ok_or_else(|| {
                bad(format!(
                    "PolicyTemperature `{v}` is not a number from 0 to 10"
                ))
            })?,
    };
    Ok(Some(MaiaSetting { net, temperature }))
}

/// The network's name as the record keeps it (`embedded maia-1100`).
pub fn net_name(net: u32) -> Result<String> {
    Ok(load(net)?.name.clone())
}

fn load(net: u32) -> Result<std::sync::Arc<Net>> {
    Net::maia(net).map_err(|e| AnalysisError::Other(format!("Maia net {net}: {e}")))
}

/// A setting's score of one evaluation: 1 or 0 for the top move, else the probability of the
/// human's move at the temperature.
fn score(e: &Evaluation, played: &shakmaty::Move, temperature: f64, probs: &mut Vec<f32>) -> f64 {
    if temperature == 0.0 {
        return f64::from(u8::from(e.best().as_ref() == Some(played)));
    }
    e.probabilities_into(temperature as f32, probs);
    e.moves
        .iter()
        .position(|m| m == played)
        .map_or(0.0, |i| f64::from(probs[i]))
}

/// Each temperature's score per item (`temperatures[s]` gives the row `s`), with `threads`
/// evaluators of the net at once; `bar` advances by one an item.
pub fn match_items(
    net: u32,
    temperatures: &[f64],
    items: &[&Item],
    threads: usize,
    bar: &ProgressBar,
) -> Result<Vec<Vec<f64>>> {
    let net = load(net)?;
    let part = items.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Option<Vec<Vec<f64>>>> = std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(part)
            .map(|chunk| {
                let net = net.clone();
                s.spawn(move || {
                    let mut eval = Evaluator::new(net, BATCH);
                    let mut out = vec![Evaluation::default(); BATCH];
                    let mut probs = Vec::new();
                    let mut scores = vec![Vec::with_capacity(chunk.len()); temperatures.len()];
                    for batch in chunk.chunks(BATCH) {
                        let games: Vec<&[shakmaty::Chess]> =
                            batch.iter().map(|it| it.history.as_slice()).collect();
                        eval.evaluate_batch(&games, &mut out[..batch.len()]);
                        for (it, e) in batch.iter().zip(&out) {
                            for (s, &t) in temperatures.iter().enumerate() {
                                scores[s].push(score(e, &it.played, t, &mut probs));
                            }
                        }
                        bar.inc(batch.len() as u64);
                    }
                    scores
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    });
    let mut out = vec![Vec::with_capacity(items.len()); temperatures.len()];
    for p in parts {
        let p = p.ok_or_else(|| AnalysisError::Other("a policy worker panicked".into()))?;
        for (s, scores) in p.into_iter().enumerate() {
            out[s].extend(scores);
        }
    }
    Ok(out)
}
