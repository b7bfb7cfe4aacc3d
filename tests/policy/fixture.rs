//! The embedded Maia nets against lc0 itself: reference outputs of lc0's BLAS backend
//! (`scripts/research/maia-reference.py`: `go nodes 1`, PolicyTemperature 1, VerboseMoveStats) for
//! positions of human games at various plies, each with its game's moves as history, for three
//! nets. lc0 (as scripts/build-lc0.sh builds it, its printing made more precise) gives each
//! move's policy to 1e-6 after storing it in 16 bits (relative error up to 2^-12) and the raw
//! win / draw / loss to 1e-6: the tolerances (1e-3) hold those roundings several times over.

use std::io::Read;

use skillcal::policy::{game, Evaluator, Net};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/maia-fixture");

fn rows(name: &str) -> Vec<csv::StringRecord> {
    let path = format!("{DIR}/{name}");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap();
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect()
}

fn check_net(band: u32) -> usize {
    let positions = rows("positions.csv.gz");
    let reference = rows(&format!("maia-{band}.csv.gz"));
    assert_eq!(positions.len(), reference.len());
    let mut eval = Evaluator::new(Net::maia(band).unwrap(), 1);
    let mut failures = Vec::new();
    let (mut worst_p, mut worst_wdl) = (0f32, 0f32);
    for (pos, want) in positions.iter().zip(&reference) {
        let id = &pos[0];
        assert_eq!(id, &want[0]);
        let moves: Vec<String> = pos[1].split_whitespace().map(str::to_string).collect();
        let history = game::positions(None, &moves).unwrap();
        let e = eval.evaluate(&history);
        let got: Vec<(String, f32)> = e
            .sorted(1.0)
            .into_iter()
            .map(|(m, p)| (m.to_uci(shakmaty::CastlingMode::Standard).to_string(), p))
            .collect();
        let lc0: Vec<(String, f32)> = want[4]
            .split_whitespace()
            .map(|pair| {
                let (m, p) = pair.split_once(':').unwrap();
                (m.to_string(), p.parse().unwrap())
            })
            .collect();
        let mut why = Vec::new();
        if got.len() != lc0.len() {
            why.push(format!("{} legal moves, lc0 {}", got.len(), lc0.len()));
        }
        for (m, p) in &lc0 {
            if let Some((_, q)) = got.iter().find(|(g, _)| g == m) {
                worst_p = worst_p.max((q - p).abs());
            }
            match got.iter().find(|(g, _)| g == m) {
                Some((_, q)) if (q - p).abs() <= 1e-3 => {}
                Some((_, q)) => why.push(format!("{m} {q:.5} vs lc0 {p:.4}")),
                None => why.push(format!("{m} missing")),
            }
        }
        if lc0.len() >= 2 && lc0[0].1 - lc0[1].1 > 0.002 && got[0].0 != lc0[0].0 {
            why.push(format!("top move {} vs lc0 {}", got[0].0, lc0[0].0));
        }
        for (i, name) in ["w", "d", "l"].iter().enumerate() {
            let w: f32 = want[i + 1].parse().unwrap();
            worst_wdl = worst_wdl.max((e.wdl[i] - w).abs());
            if (e.wdl[i] - w).abs() > 1e-3 {
                why.push(format!("{name} {:.5} vs lc0 {w}", e.wdl[i]));
            }
        }
        if !why.is_empty() {
            failures.push(format!(
                "position {id} ({} plies): {}",
                moves.len(),
                why.join("; ")
            ));
        }
    }
    // `--nocapture` shows how close the nets come
    eprintln!(
        "maia-{band}: largest difference from lc0: policy {worst_p:.2e}, wdl {worst_wdl:.2e}"
    );
    assert!(
        failures.is_empty(),
        "maia-{band}: {} of {} positions differ from lc0:\n{}",
        failures.len(),
        positions.len(),
        failures.join("\n")
    );
    positions.len()
}

#[test]
fn maia_1100_agrees_with_lc0() {
    assert!(check_net(1100) >= 500);
}

#[test]
fn maia_1500_agrees_with_lc0() {
    assert!(check_net(1500) >= 500);
}

#[test]
fn maia_1900_agrees_with_lc0() {
    assert!(check_net(1900) >= 500);
}
