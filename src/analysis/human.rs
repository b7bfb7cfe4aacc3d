//! Human comparison: the same figures per rating band of the mover (`WhiteElo` / `BlackElo`),
//! and move-matching: on positions from humans of band B, how often an engine at
//! `UCI_Elo` = B's middle plays the human's move. Following Maia's test protocol
//! (McIlroy-Young et al., KDD 2020), the first plies and moves made in time trouble are skipped.

use std::collections::{BTreeMap, HashMap};

use shakmaty::Color;

use super::cache::EvalCache;
use super::engine::Eval;
use super::error::{AnalysisError, Result};
use super::games::{full_fen, position_key, GameMoves};
use super::moves::judge_game;
use super::pool::evaluate_all;
use super::stats::{bootstrap, Sample};
use super::{AnalyseOptions, MatchRow};

/// A rating band `[low, low + width)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Band {
    pub low: u32,
    pub width: u32,
}

impl Band {
    pub fn of(elo: u32, width: u32) -> Band {
        Band {
            low: elo / width * width,
            width,
        }
    }

    /// `1500-1599`.
    pub fn label(&self) -> String {
        format!("{}-{}", self.low, self.low + self.width - 1)
    }

    /// The band's middle, the `UCI_Elo` the engine is given (1550 for 1500-1599).
    pub fn middle(&self) -> u32 {
        self.low + self.width / 2
    }
}

fn elo_of(g: &GameMoves, c: Color) -> Option<u32> {
    match c {
        Color::White => g.white_elo,
        Color::Black => g.black_elo,
    }
}

/// Per band, one sample per game (`evals`: each game's answers by key): the moves of that
/// game's players in the band, and their game accuracies.
pub fn band_samples(
    games: &[GameMoves],
    evals: &[HashMap<String, Eval>],
    width: u32,
) -> Result<BTreeMap<Band, Vec<Sample>>> {
    let mut out: BTreeMap<Band, Vec<Sample>> = BTreeMap::new();
    for (g, evals) in games.iter().zip(evals) {
        let (moves, wa, ba) = judge_game(g, evals)
            .ok_or_else(|| AnalysisError::Other("an evaluation is missing".into()))?;
        let mut per: BTreeMap<Band, Sample> = BTreeMap::new();
        for m in moves {
            if let Some(elo) = elo_of(g, m.color) {
                per.entry(Band::of(elo, width)).or_default().moves.push(m);
            }
        }
        for (c, acc) in [(Color::White, wa), (Color::Black, ba)] {
            if let (Some(elo), Some(a)) = (elo_of(g, c), acc) {
                if let Some(s) = per.get_mut(&Band::of(elo, width)) {
                    s.game_accuracy.push(a);
                }
            }
        }
        for (b, s) in per {
            out.entry(b).or_default().push(s);
        }
    }
    Ok(out)
}

/// One position for move-matching: key, FEN, the human's move.
struct Probe {
    key: String,
    fen: String,
    played: String,
}

/// Move-matching rows (band x engine) and how many positions the engines searched.
pub fn move_matching(
    games: &[GameMoves],
    opts: &AnalyseOptions,
    cache: &mut EvalCache,
) -> Result<(Vec<MatchRow>, usize)> {
    // Per band: per game, the probes of that band's players.
    let mut by_band: BTreeMap<Band, Vec<Vec<Probe>>> = BTreeMap::new();
    for g in games {
        let mut per: BTreeMap<Band, Vec<Probe>> = BTreeMap::new();
        for (k, mv) in g.moves.iter().enumerate() {
            let pos = &g.positions[k];
            let Some(elo) = elo_of(g, g.mover(k).0) else {
                continue;
            };
            if g.ply_offset + k < opts.match_min_ply
                || mv.clock.is_some_and(|c| c < opts.match_min_clock)
            {
                continue;
            }
            per.entry(Band::of(elo, opts.band))
                .or_default()
                .push(Probe {
                    key: position_key(pos),
                    fen: full_fen(pos),
                    played: mv.uci.clone(),
                });
        }
        for (b, probes) in per {
            by_band.entry(b).or_default().push(probes);
        }
    }
    let mut rows = Vec::new();
    let mut searched = 0;
    for (band, per_game) in &by_band {
        let positions: BTreeMap<String, String> = per_game
            .iter()
            .flatten()
            .map(|p| (p.key.clone(), p.fen.clone()))
            .collect();
        for base in &opts.match_engines {
            let elo = band.middle().to_string();
            let cfg = base
                .with_option("UCI_LimitStrength", "true")
                .with_option("UCI_Elo", &elo);
            let label = format!("UCI_Elo {elo}");
            let done = evaluate_all(
                &cfg,
                &positions,
                opts.concurrency,
                cache,
                &label,
                opts.quiet,
            )?;
            searched += done.engine_evaluations;
            // Per game: (positions, matches).
            let tallies: Vec<(usize, usize)> = per_game
                .iter()
                .map(|probes| {
                    let hits = probes
                        .iter()
                        .filter(|p| done.evals.get(&p.key).is_some_and(|e| e.best == p.played))
                        .count();
                    (probes.len(), hits)
                })
                .collect();
            let positions_n: usize = tallies.iter().map(|t| t.0).sum();
            let matches: usize = tallies.iter().map(|t| t.1).sum();
            let [rate] = bootstrap(&tallies, opts.bootstrap, opts.seed, |g| {
                let n: usize = g.iter().map(|t| t.0).sum();
                let m: usize = g.iter().map(|t| t.1).sum();
                [(n > 0).then(|| m as f64 / n as f64)]
            });
            rows.push(MatchRow {
                band: band.label(),
                // the program's file name, not its path: the committed CSV reads the same on
                // every machine (the cache key keeps the path)
                engine: format!(
                    "{} {}",
                    base.program
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    base.args.join(" ")
                )
                .trim()
                .to_string(),
                setting: cfg
                    .options
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(";"),
                games: per_game.len(),
                positions: positions_n,
                matches,
                rate,
            });
        }
    }
    Ok((rows, searched))
}
