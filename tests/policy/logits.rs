//! The forward pass against its own earlier outputs: `logits-<band>.csv.gz` holds every legal
//! move's raw logit and the win / draw / loss of the fixture's 520 positions as the im2col pass
//! (one sgemm per convolution) computed them. A faster pass (Winograd, another kernel, another
//! instruction set) must stay within 1e-4 of each and keep the top move on 99.9% of positions.
//! Regenerate only when the network's function is meant to change:
//! `cargo test --release --test policy write_logits -- --ignored`.

use std::io::{Read, Write};

use skillcal::policy::{game, Evaluation, Evaluator, Net};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/maia-fixture");
const BANDS: [u32; 3] = [1100, 1500, 1900];

fn read_gz(path: &str) -> String {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    text
}

/// The fixture's positions, each its game's positions up to it.
fn histories() -> Vec<(String, Vec<shakmaty::Chess>)> {
    let text = read_gz(&format!("{DIR}/positions.csv.gz"));
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| {
            let r = r.unwrap();
            let moves: Vec<String> = r[1].split_whitespace().map(str::to_string).collect();
            (r[0].to_string(), game::positions(None, &moves).unwrap())
        })
        .collect()
}

/// All positions evaluated at `batch` at a time.
fn evaluate(band: u32, batch: usize, games: &[&[shakmaty::Chess]]) -> Vec<Evaluation> {
    let mut eval = Evaluator::new(Net::maia(band).unwrap(), batch);
    let mut out = vec![Evaluation::default(); games.len()];
    eval.evaluate_batch(games, &mut out);
    out
}

fn uci(m: &shakmaty::Move) -> String {
    m.to_uci(shakmaty::CastlingMode::Standard).to_string()
}

#[test]
#[ignore = "writes the reference; run only when the network's function is meant to change"]
fn write_logits() {
    let positions = histories();
    let games: Vec<&[shakmaty::Chess]> = positions.iter().map(|(_, g)| g.as_slice()).collect();
    for band in BANDS {
        let mut text = String::from("id,w,d,l,logits\n");
        for ((id, _), e) in positions.iter().zip(evaluate(band, 1, &games)) {
            let logits: Vec<String> = e
                .moves
                .iter()
                .zip(&e.logits)
                .map(|(m, l)| format!("{}:{l}", uci(m)))
                .collect();
            let [w, d, l] = e.wdl;
            text += &format!("{id},{w},{d},{l},{}\n", logits.join(" "));
        }
        let path = format!("{DIR}/logits-{band}.csv.gz");
        let file = std::fs::File::create(&path).unwrap();
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap();
    }
}

/// Compares the pass at `batch` with the stored logits; returns the largest difference.
fn check(band: u32, batch: usize) -> f32 {
    let positions = histories();
    let games: Vec<&[shakmaty::Chess]> = positions.iter().map(|(_, g)| g.as_slice()).collect();
    let got = evaluate(band, batch, &games);
    let text = read_gz(&format!("{DIR}/logits-{band}.csv.gz"));
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(
        rows.len(),
        positions.len(),
        "logits-{band}: one row a position"
    );
    let (mut worst, mut top_differs) = (0f32, 0);
    let mut failures = Vec::new();
    for ((row, (id, _)), e) in rows.iter().zip(&positions).zip(&got) {
        assert_eq!(&row[0], id);
        let want: Vec<(&str, f32)> = row[4]
            .split_whitespace()
            .map(|p| {
                let (m, l) = p.split_once(':').unwrap();
                (m, l.parse().unwrap())
            })
            .collect();
        let moves: Vec<String> = e.moves.iter().map(uci).collect();
        assert_eq!(
            moves,
            want.iter().map(|(m, _)| m.to_string()).collect::<Vec<_>>(),
            "position {id}: the legal moves"
        );
        let mut diff = 0f32;
        for ((_, w), g) in want.iter().zip(&e.logits) {
            diff = diff.max((w - g).abs());
        }
        for (i, g) in e.wdl.iter().enumerate() {
            diff = diff.max((row[i + 1].parse::<f32>().unwrap() - g).abs());
        }
        worst = worst.max(diff);
        if diff > 1e-4 {
            failures.push(format!("position {id}: differs by {diff:.2e}"));
        }
        let top = |ls: &mut dyn Iterator<Item = f32>| {
            ls.enumerate()
                .fold(
                    (0, f32::NEG_INFINITY),
                    |b, (i, l)| if l > b.1 { (i, l) } else { b },
                )
                .0
        };
        if !want.is_empty()
            && top(&mut want.iter().map(|w| w.1)) != top(&mut e.logits.iter().copied())
        {
            top_differs += 1;
        }
    }
    eprintln!(
        "maia-{band} batch {batch}: largest difference {worst:.2e}, top move differs on {top_differs} of {}",
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "maia-{band} batch {batch}:\n{}",
        failures.join("\n")
    );
    // at least 99.9% of positions keep their top move: none of 520
    assert_eq!(
        top_differs, 0,
        "maia-{band} batch {batch}: top moves changed"
    );
    worst
}

#[test]
fn maia_1100_keeps_its_logits_at_batch_1_and_64() {
    check(1100, 1);
    check(1100, 64);
}

#[test]
fn maia_1500_keeps_its_logits_at_batch_7() {
    check(1500, 7);
}

#[test]
fn maia_1900_keeps_its_logits_at_batch_1() {
    check(1900, 1);
}
