//! Material drops (a centipawn loss of 300 or more) against Lichess's blunders, on one game whose
//! evaluations are set by hand: judge_game, the figures by state, and the analysis.md table.
//!
//! Scores are the side to move's, capped at +-1000; wc(cp) = 2 / (1 + exp(-0.00368208 cp)) - 1.
//! White's four moves:
//!
//! | ply | state (wc before) | cp before -> after | loss | wc drop | Lichess | drop |
//! |---|---|---|---|---|---|---|
//! | 0 | equal (0) | 0 -> -250 | 250 | 0.430 | blunder | no |
//! | 2 | losing (-0.802) | -600 -> -1000 | 400 | 0.149 | inaccuracy | yes |
//! | 4 | winning (0.930) | 900 -> 600 | 300 | 0.128 | inaccuracy | yes (at the threshold) |
//! | 6 | equal (0.018) | 10 -> -289 | 299 | 0.505 | blunder | no (one short) |
//!
//! Black's three: 250 -> 600 (state other, a gain), 1000 -> -900 (winning, loss 1900: blunder
//! and drop), -600 -> -10 (losing, a gain).

use std::collections::HashMap;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use skillcal::analysis::Eval;
use skillcal::analysis::{bootstrap, counts, figures, Sample, COUNTS, FIGURES};
use skillcal::analysis::{group_figures, page, AnalyseOptions, AnalyseResult};
use skillcal::analysis::{judge_game, State, DROP_CP};
use skillcal::analysis::{position_key, GameMoves, PlayedMove};
use skillcal::analysis::{Judgement, Score};

const MOVES: [&str; 7] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3"];
/// The side to move's score before each move and after the last.
const SCORES: [i32; 8] = [0, 250, -600, 1000, 900, -600, 10, 289];

fn game() -> (GameMoves, HashMap<String, Eval>) {
    let mut pos = Chess::default();
    let mut positions = vec![pos.clone()];
    let mut moves = Vec::new();
    for uci in MOVES {
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        positions.push(pos.clone());
        moves.push(PlayedMove {
            uci: uci.to_string(),
            san: String::new(),
            clock: None,
            book: false,
        });
    }
    let evals = positions
        .iter()
        .zip(SCORES)
        .map(|(p, cp)| {
            let e = Eval {
                score: Score::Cp(cp),
                best: String::new(),
                depth: 1,
            };
            (position_key(p), e)
        })
        .collect();
    let g = GameMoves {
        id: "hand#1".into(),
        white: "white".into(),
        black: "black".into(),
        white_elo: None,
        black_elo: None,
        white_settings: String::new(),
        black_settings: String::new(),
        positions,
        moves,
        ply_offset: 0,
    };
    (g, evals)
}

fn figure(f: &[Option<f64>], name: &str) -> Option<f64> {
    f[FIGURES.iter().position(|n| *n == name).unwrap()]
}

fn count(c: &[usize], name: &str) -> usize {
    c[COUNTS.iter().position(|n| *n == name).unwrap()]
}

/// The game's moves by one player, as one sample.
fn sample(player: &str) -> Sample {
    let (g, evals) = game();
    let (moves, _, _) = judge_game(&g, &evals).unwrap();
    Sample {
        moves: moves.into_iter().filter(|m| m.player == player).collect(),
        game_accuracy: Vec::new(),
    }
}

#[test]
fn a_drop_is_a_loss_of_300_cp_whatever_the_winning_chances() {
    assert_eq!(DROP_CP, 300);
    let w = sample("white");
    let got: Vec<(i32, State, Judgement, bool)> = w
        .moves
        .iter()
        .map(|m| (m.loss, m.state, m.judgement, m.is_material_drop()))
        .collect();
    assert_eq!(
        got,
        [
            (250, State::Equal, Judgement::Blunder, false),
            (400, State::Losing, Judgement::Inaccuracy, true),
            (300, State::Winning, Judgement::Inaccuracy, true),
            (299, State::Equal, Judgement::Blunder, false),
        ]
    );

    let c = counts(&[&w]);
    assert_eq!((count(&c, "moves"), count(&c, "blunders")), (4, 2));
    assert_eq!(count(&c, "drops"), 2);
    assert_eq!(
        (
            count(&c, "moves_winning"),
            count(&c, "moves_equal"),
            count(&c, "moves_losing")
        ),
        (1, 2, 1)
    );
    let f = figures(&[&w]);
    // Lichess: both equal-state moves blunder, the losing one does not.
    assert_eq!(figure(&f, "blunder_rate"), Some(0.5));
    assert_eq!(figure(&f, "blunder_rate_equal"), Some(1.0));
    assert_eq!(figure(&f, "blunder_rate_losing"), Some(0.0));
    assert_eq!(figure(&f, "blunder_rate_winning"), Some(0.0));
    // Drops: the other way round.
    assert_eq!(figure(&f, "drop_rate"), Some(0.5));
    assert_eq!(figure(&f, "drop_rate_equal"), Some(0.0));
    assert_eq!(figure(&f, "drop_rate_losing"), Some(1.0));
    assert_eq!(figure(&f, "drop_rate_winning"), Some(1.0));
    assert_eq!(figure(&f, "top1"), Some(0.0), "top1 stays last");

    let b = sample("black");
    assert_eq!(b.moves.len(), 3);
    let f = figures(&[&b]);
    assert!((figure(&f, "drop_rate").unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(figure(&f, "drop_rate_winning"), Some(1.0));
    assert_eq!(figure(&f, "drop_rate_losing"), Some(0.0));
    assert_eq!(figure(&f, "drop_rate_equal"), None, "no equal-state move");
    assert_eq!(figure(&f, "blunder_rate_winning"), Some(1.0));

    // Bootstrap over games: the game with its drops, and one with none (White's first move
    // alone). A resample holds one of them twice (drop rate 0, or 2 in 4 moves: 0.5) or both
    // (0.4), each extreme in about a quarter of the draws, so the 95% interval is [0, 0.5].
    let quiet = Sample {
        moves: vec![w.moves[0].clone()],
        game_accuracy: Vec::new(),
    };
    let est = bootstrap(&[w.clone(), quiet], 200, 1, figures);
    let k = FIGURES.iter().position(|n| *n == "drop_rate").unwrap();
    let e = est[k];
    assert_eq!(e.value, Some(0.4), "2 drops in 5 moves");
    assert_eq!((e.lower, e.upper), (Some(0.0), Some(0.5)));
}

#[test]
fn analysis_md_shows_drops_by_state() {
    let mut o = AnalyseOptions::new(Vec::new(), std::env::temp_dir()).unwrap();
    o.bootstrap = 0;
    let players = ["black", "white"]
        .map(|p| group_figures(p.into(), String::new(), &[sample(p)], &o))
        .to_vec();
    let r = AnalyseResult {
        games: 1,
        moves: 7,
        players,
        ..AnalyseResult::default()
    };
    let md = page(&o, &r).to_markdown();
    assert!(
        md.contains("| player | drops | % of moves | winning | about equal | losing | losing / equal drops | losing / equal blunders |"),
        "{md}"
    );
    // White: drops 2 of 4; winning 1/1, equal 0/2, losing 1/1; drop ratio undefined (equal 0),
    // blunder ratio 0 / 1.
    assert!(
        md.contains("| white | 2 | 50.0 | 100.0 | 0.0 | 100.0 | - | 0.00 |"),
        "{md}"
    );
    assert!(
        md.contains("| black | 1 | 33.3 | 100.0 | - | 0.0 | - | - |"),
        "{md}"
    );
    // The existing tables keep their Lichess columns.
    assert!(md.contains("| player | winning | about equal | losing | opening |"));
}
