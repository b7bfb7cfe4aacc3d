//! The weakening knobs through real searches (the path the UCI loop takes: `Weakening::prepare`,
//! the search, `Weakening::apply`), seeded: the full-strength move's share falls as each knob
//! rises, forced mates are played whatever the knobs, and `UCI_LimitStrength` over pipes picks
//! and reports the interpolated table row and honours its node limit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use skillcal::engine::Weakening;
use skillcal::engine::{uci_string, Game};
use skillcal::engine::{Control, Engine, SearchParams, SearchResult};
use skillcal::strength::Settings;

/// Quiet middlegame positions with several playable moves.
const POSITIONS: &[&str] = &[
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
];

const SEEDS: u64 = 60;

fn settings(spec: &str) -> Settings {
    Settings::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// One weakened search as the engine plays it: returns the move played.
fn play(game: &Game, eff: &Settings, seed: u64, depth: u32) -> (String, SearchResult) {
    let mut params = SearchParams::default();
    params.limits.depth = Some(depth);
    let w = Weakening::prepare(eff, seed, game, &mut params);
    let mut r = Engine::new(4).search(game, &params, &Control::default(), &mut |_| {});
    w.apply(&mut r);
    (uci_string(r.best.unwrap()), r)
}

/// Share of searches (positions x seeds) that play the full-strength move: that of a plain
/// search, which no setting touches (the default settings through `play` would hide a
/// weakening they applied).
fn best_share(spec: &str, depth: u32) -> f64 {
    let eff = settings(spec).effective();
    let mut same = 0;
    let mut total = 0;
    for fen in POSITIONS {
        let game = Game::from_fen(fen).unwrap();
        let mut plain = SearchParams::default();
        plain.limits.depth = Some(depth);
        let r = Engine::new(4).search(&game, &plain, &Control::default(), &mut |_| {});
        let full = uci_string(r.best.unwrap());
        if eff.score_inaccuracy == 0 {
            // Only the choice among the MultiPV lines is random: search once, choose per seed.
            let mut params = SearchParams::default();
            params.limits.depth = Some(depth);
            Weakening::prepare(&eff, 1, &game, &mut params);
            let r = Engine::new(4).search(&game, &params, &Control::default(), &mut |_| {});
            for seed in 1..=SEEDS {
                let w = Weakening::prepare(&eff, seed, &game, &mut SearchParams::default());
                let mut r = r.clone();
                w.apply(&mut r);
                same += usize::from(uci_string(r.best.unwrap()) == full);
                total += 1;
            }
        } else {
            for seed in 1..=SEEDS {
                let (mv, _) = play(&game, &eff, seed, depth);
                same += usize::from(mv == full);
                total += 1;
            }
        }
    }
    same as f64 / total as f64
}

/// Shares along a rising knob: non-increasing within sampling noise, and clearly lower at the
/// end than at the start.
fn assert_falls(label: &str, specs: &[&str], depth: u32) {
    let shares: Vec<f64> = specs.iter().map(|s| best_share(s, depth)).collect();
    eprintln!("{label}: {specs:?} -> {shares:?}");
    // n = 180 per point: 0.08 is about two standard errors of a share near one half
    for w in shares.windows(2) {
        assert!(w[1] <= w[0] + 0.08, "{label}: share rose {shares:?}");
    }
    assert!(
        shares[0] - shares[shares.len() - 1] >= 0.3,
        "{label}: share did not fall enough {shares:?}"
    );
}

#[test]
fn best_move_share_falls_as_score_inaccuracy_rises() {
    let specs = [
        "ScoreInaccuracy=0",
        "ScoreInaccuracy=30",
        "ScoreInaccuracy=100",
        "ScoreInaccuracy=400",
    ];
    assert_falls("ScoreInaccuracy", &specs, 5);
    assert_eq!(best_share(specs[0], 5), 1.0);
}

#[test]
fn best_move_share_falls_as_gaussian_sigma_rises() {
    let specs = [
        "MultiPV=4,NoiseModel=gaussian,NoiseSigma=0",
        "MultiPV=4,NoiseModel=gaussian,NoiseSigma=20",
        "MultiPV=4,NoiseModel=gaussian,NoiseSigma=80",
        "MultiPV=4,NoiseModel=gaussian,NoiseSigma=300",
    ];
    assert_falls("NoiseSigma", &specs, 6);
    assert_eq!(best_share(specs[0], 6), 1.0);
}

#[test]
fn best_move_share_falls_as_uniform_width_rises() {
    let specs = [
        "MultiPV=4,NoiseModel=uniform,NoiseUniform=10",
        "MultiPV=4,NoiseModel=uniform,NoiseUniform=60",
        "MultiPV=4,NoiseModel=uniform,NoiseUniform=400",
    ];
    assert_falls("NoiseUniform", &specs, 6);
}

#[test]
fn best_move_share_falls_as_gbm_drift_and_diffusion_rise() {
    assert_falls(
        "NoiseDrift",
        &[
            "MultiPV=4,NoiseModel=gbm,NoiseDiffusion=0.1,NoiseDrift=0",
            "MultiPV=4,NoiseModel=gbm,NoiseDiffusion=0.1,NoiseDrift=2",
            "MultiPV=4,NoiseModel=gbm,NoiseDiffusion=0.1,NoiseDrift=6",
        ],
        6,
    );
    assert_falls(
        "NoiseDiffusion",
        &[
            "MultiPV=4,NoiseModel=gbm,NoiseDrift=0,NoiseDiffusion=0.02",
            "MultiPV=4,NoiseModel=gbm,NoiseDrift=0,NoiseDiffusion=0.2",
            "MultiPV=4,NoiseModel=gbm,NoiseDrift=0,NoiseDiffusion=2",
        ],
        6,
    );
}

#[test]
fn same_seed_same_moves() {
    let eff = settings("ScoreInaccuracy=150,MultiPV=3,NoiseModel=gaussian,NoiseSigma=100");
    let game = Game::from_fen(POSITIONS[0]).unwrap();
    let moves = |seed| -> Vec<String> { (0..2).map(|_| play(&game, &eff, seed, 5).0).collect() };
    for seed in 1..10 {
        let a = moves(seed);
        assert_eq!(a[0], a[1], "seed {seed}");
    }
    let all: std::collections::BTreeSet<String> = (1..30).map(|s| moves(s)[0].clone()).collect();
    assert!(all.len() > 1, "the seed changes nothing: {all:?}");
}

// Mate in 2 (checked with Stockfish 15.1): 1. Nf6+ and mate next move.
const MATE_IN_2: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";

#[test]
fn mate_in_two_is_played_every_time_at_si_300_and_sigma_300() {
    let game = Game::from_fen(MATE_IN_2).unwrap();
    for spec in [
        "ScoreInaccuracy=300",
        "MultiPV=4,NoiseModel=gaussian,NoiseSigma=300",
        "ScoreInaccuracy=300,MultiPV=4,NoiseModel=gaussian,NoiseSigma=300",
    ] {
        let eff = settings(spec).effective();
        for seed in 1..=100 {
            let (mv, r) = play(&game, &eff, seed, 6);
            assert_eq!(mv, "d5f6", "{spec} seed {seed}");
            assert!(r.score >= skillcal::score::MATE_BOUND, "{spec}");
        }
    }
}

const SKILLCAL: &str = env!("CARGO_BIN_EXE_skillcal");

/// A UCI session over pipes: sends every line, returns all output up to `bestmove`.
fn uci_session(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(SKILLCAL)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        out.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    out
}

#[test]
fn limit_strength_picks_the_interpolated_row_reports_it_and_obeys_it() {
    let dir = std::env::temp_dir().join(format!("skillcal-strength-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(
        &table,
        "# test table\nelo,ScoreInaccuracy,LimitNodes\n1000,200,1000\n2000,0,16000\n",
    )
    .unwrap();
    let out = uci_session(&[
        "uci".into(),
        format!("setoption name StrengthTable value {}", table.display()),
        "setoption name UCI_LimitStrength value true".into(),
        "setoption name UCI_Elo value 1500".into(),
        "setoption name RandomSeed value 5".into(),
        "position startpos moves e2e4 e7e5".into(),
        "go wtime 60000 btime 60000".into(),
    ]);
    // halfway: ScoreInaccuracy linear (100), LimitNodes log-linear (sqrt(1000 * 16000) = 4000)
    let info = out
        .iter()
        .rfind(|l| l.starts_with("info string UCI_Elo 1500"))
        .unwrap_or_else(|| panic!("no settings reported: {out:?}"));
    assert!(info.contains("ScoreInaccuracy=100"), "{info}");
    assert!(info.contains("LimitNodes=4000"), "{info}");
    // LimitNodes ends the search: the total at bestmove is within one node-check interval (1024)
    let nodes: u64 = out
        .iter()
        .rfind(|l| l.starts_with("info nodes"))
        .and_then(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let i = t.iter().position(|&w| w == "nodes")?;
            t.get(i + 1)?.parse().ok()
        })
        .expect("an info line with nodes");
    assert!(nodes <= 4000 + 1024, "{nodes} nodes");
    assert!(out.last().unwrap().starts_with("bestmove "));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_weakening_options_are_reported_and_ignored() {
    let out = uci_session(&[
        "uci".into(),
        "setoption name NoiseModel value brownian".into(),
        "setoption name StrengthTable value /nonexistent/table.csv".into(),
        "setoption name LimitNodes value 300".into(),
        "position startpos".into(),
        "go depth 30".into(),
    ]);
    assert!(out
        .iter()
        .any(|l| l.starts_with("info string option NoiseModel: bad value 'brownian'")));
    assert!(out
        .iter()
        .any(|l| l.starts_with("info string option StrengthTable") && l.contains("nonexistent")));
    // the valid option took effect: the node limit ends a depth-30 search at once, within one
    // node-check interval (1024)
    let nodes: u64 = out
        .iter()
        .rfind(|l| l.starts_with("info nodes"))
        .and_then(|l| l.split_whitespace().nth(2)?.parse().ok())
        .unwrap_or_else(|| panic!("an info line with nodes: {out:?}"));
    assert!(nodes <= 300 + 1024, "{nodes} nodes");
    assert!(out.last().unwrap().starts_with("bestmove "));
}
