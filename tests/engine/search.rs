//! Search behaviour: forced mates (also through TT hits), draws, the seed-002 root at
//! ScoreInaccuracy 0, MultiPV, node limits, determinism.

use skillcal::engine::Weakening;
use skillcal::engine::{uci_string, Game};
use skillcal::engine::{Bound, UciScore};
use skillcal::engine::{Control, Engine, SearchParams, SearchResult};
use skillcal::strength::{move_seed, root_errors as errors_of, Settings};

/// The Errors the UCI engine draws for `game` with engine seed `seed` (see `strength::seed`).
fn root_errors(seed: u64, game: &Game, si: u32) -> Vec<i32> {
    use shakmaty::Position;
    let ms = move_seed(seed, game.root_key, game.history.len() as u32);
    errors_of(ms, game.root.legal_moves().len(), si)
}

fn search(engine: &mut Engine, fen: &str, params: &SearchParams) -> SearchResult {
    let game = Game::from_fen(fen).unwrap();
    engine.search(&game, params, &Control::default(), &mut |_| {})
}

fn depth(d: u32) -> SearchParams {
    let mut p = SearchParams::default();
    p.limits.depth = Some(d);
    p
}

// Mates checked with Stockfish 15.1 (`go depth 14`).
const MATES: &[(&str, i32, &str)] = &[
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
        "d5f6",
    ),
    (
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
        2,
        "g2g1",
    ),
    (
        "1r6/4b2k/1q1pNrpp/p2Pp3/4P3/1P1R3Q/5PPP/5RK1 w - - 0 1",
        2,
        "h3h6",
    ),
    (
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        3,
        "f8c5",
    ),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6"),
];

#[test]
fn finds_mates_and_reports_them_also_after_tt_hits() {
    for &(fen, n, mv) in MATES {
        let mut engine = Engine::new(16);
        for round in 0..2 {
            // The second round starts from the first round's table: mate scores come from hits.
            let r = search(&mut engine, fen, &depth(2 * n as u32 + 2));
            assert_eq!(
                UciScore::from_score(r.score),
                UciScore::Mate(n),
                "{fen} round {round}"
            );
            assert_eq!(uci_string(r.best.unwrap()), mv, "{fen} round {round}");
        }
        // And once more one ply deeper on the same table.
        let r = search(&mut engine, fen, &depth(2 * n as u32 + 3));
        assert_eq!(
            UciScore::from_score(r.score),
            UciScore::Mate(n),
            "{fen} deeper"
        );
    }
}

#[test]
fn mated_side_reports_negative_mate() {
    // After 1. Nf6+ gxf6 2. Bxf7# Black is mated: after Nf6+ Black to move is mated in 1.
    let mut engine = Engine::new(16);
    let r = search(
        &mut engine,
        "r2qkb1r/pp2np1p/3p1p2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 0 2",
        &depth(4),
    );
    assert_eq!(UciScore::from_score(r.score), UciScore::Mate(1));
    let r = search(
        &mut engine,
        "r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1",
        &depth(5),
    );
    assert_eq!(UciScore::from_score(r.score), UciScore::Mate(-1));
}

#[test]
fn insufficient_material_scores_zero() {
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/2N5/3K4/8/8 b - - 0 1",
        "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1", // bishops on the same colour
    ] {
        let mut engine = Engine::new(4);
        let r = search(&mut engine, fen, &depth(8));
        assert_eq!(r.score, 0, "{fen}");
    }
}

#[test]
fn stalemate_and_checkmate_roots() {
    let mut engine = Engine::new(4);
    let r = search(&mut engine, "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", &depth(5));
    assert!(r.best.is_none());
    assert_eq!(r.score, 0);
    let r = search(&mut engine, "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1", &depth(5));
    assert!(r.best.is_none());
    assert!(r.score < -20_000);
}

#[test]
fn repetition_of_a_game_position_is_a_draw() {
    // White (a rook down) has one legal move, Kg1, which repeats the game's first position.
    let mut game = Game::from_fen("r3k3/8/8/8/8/7p/7P/6K1 b - - 0 1").unwrap();
    for m in ["a8b8", "g1h1", "b8a8"] {
        game.push_uci(m).unwrap();
    }
    let mut engine = Engine::new(4);
    let r = engine.search(&game, &depth(6), &Control::default(), &mut |_| {});
    assert_eq!(uci_string(r.best.unwrap()), "h1g1");
    assert_eq!(r.score, 0);
    // Without the history the same position is simply lost.
    let fresh = Game::new(game.root.clone());
    let r = Engine::new(4).search(&fresh, &depth(6), &Control::default(), &mut |_| {});
    assert!(r.score < -300, "score {}", r.score);
}

#[test]
fn zero_inaccuracy_is_full_strength_node_for_node() {
    let fen = "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16";
    let game = Game::from_fen(fen).unwrap();
    let full = search(&mut Engine::new(16), fen, &depth(8));
    // the weakened side as the UCI loop plays it: the spec's settings through Weakening
    let eff = Settings::from_spec("ScoreInaccuracy=0")
        .unwrap()
        .effective();
    let mut p = depth(8);
    let w = Weakening::prepare(&eff, 12345, &game, &mut p);
    let mut si0 = search(&mut Engine::new(16), fen, &p);
    assert!(w.apply(&mut si0).is_none());
    assert_eq!(full.nodes, si0.nodes);
    assert_eq!(full.best, si0.best);
    assert_eq!(full.score, si0.score);
}

#[test]
fn inaccuracy_errors_change_the_choice_and_are_reproducible() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let game = Game::from_fen(fen).unwrap();
    let a = root_errors(7, &game, 200);
    assert_eq!(a, root_errors(7, &game, 200));
    assert_ne!(a, root_errors(8, &game, 200));
    assert!(a.iter().all(|e| e.abs() <= 200));
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 1..8u64 {
        let mut p = depth(5);
        p.score_inaccuracy = 200;
        p.errors = root_errors(seed, &game, 200);
        let r1 = search(&mut Engine::new(8), fen, &p);
        let r2 = search(&mut Engine::new(8), fen, &p);
        assert_eq!(r1.best, r2.best);
        assert_eq!(r1.nodes, r2.nodes);
        // The best move's score includes its Error.
        let c = &r1.candidates[0];
        assert_eq!(c.mv, r1.best.unwrap());
        assert_eq!(c.bound, Bound::Exact);
        firsts.insert(uci_string(r1.best.unwrap()));
    }
    assert!(
        firsts.len() > 1,
        "large errors should vary the choice: {firsts:?}"
    );
}

#[test]
fn an_error_that_flips_the_choice_is_honoured() {
    // Only one move keeps the queen; a huge error on another move (and zero elsewhere) must make
    // the root prefer that move, exactly as the Score Inaccuracy algorithm's step 6 says.
    let fen = "4k3/pp6/8/3q4/8/8/3R1PP1/4K3 w - - 0 1"; // Rxd5 wins the queen
    let game = Game::from_fen(fen).unwrap();
    let legal: Vec<_> = {
        use shakmaty::Position;
        game.root.legal_moves().into_iter().collect()
    };
    let target = legal.iter().position(|m| uci_string(*m) == "e1f1").unwrap();
    let mut errors = vec![0; legal.len()];
    errors[target] = 3000;
    let mut p = depth(6);
    p.score_inaccuracy = 3000;
    p.errors = errors;
    let r = search(&mut Engine::new(8), fen, &p);
    assert_eq!(uci_string(r.best.unwrap()), "e1f1");
    let r = search(&mut Engine::new(8), fen, &depth(6));
    assert_eq!(uci_string(r.best.unwrap()), "d2d5");
}

#[test]
fn multipv_gives_exact_sorted_lines() {
    let fen = "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15";
    let mut p = depth(7);
    p.multipv = 4;
    let r = search(&mut Engine::new(16), fen, &p);
    assert!(r.candidates.len() >= 4);
    for w in r.candidates[..4].windows(2) {
        assert!(w[0].score >= w[1].score);
    }
    for c in &r.candidates[..4] {
        assert_eq!(c.bound, Bound::Exact);
        assert!(!c.pv.is_empty());
    }
    for c in &r.candidates[4..] {
        assert!(c.score <= r.candidates[3].score);
    }
    assert_eq!(r.best, Some(r.candidates[0].mv));
}

#[test]
fn node_limit_is_honoured() {
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    for limit in [5_000u64, 40_000] {
        let mut p = SearchParams::default();
        p.limits.nodes = Some(limit);
        let r = search(&mut Engine::new(16), fen, &p);
        assert!(r.nodes <= limit + 1, "{} > {limit}", r.nodes);
        assert!(r.nodes >= limit * 9 / 10, "{} stopped early", r.nodes);
        assert!(r.best.is_some());
        // Deterministic: the same limit gives the same move.
        let r2 = search(&mut Engine::new(16), fen, &p);
        assert_eq!(r.best, r2.best);
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let game = Game::from_fen(fen).unwrap();
    let mut p = depth(5);
    p.limits.searchmoves = vec![skillcal::engine::parse_uci_move(&game.root, "a2a3").unwrap()];
    let r = search(&mut Engine::new(4), fen, &p);
    assert_eq!(uci_string(r.best.unwrap()), "a2a3");
}
