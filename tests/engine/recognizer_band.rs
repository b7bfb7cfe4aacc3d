//! Recognized wins (KBNK, KBBK, ...) lie inside the heuristic range (the Chess Programming Wiki's
//! Score page, the recognizer-score scheme), so the engine never gives material away to reach
//! one: scored above every evaluation, they would make it trade its queen for a rook to reach
//! KBNK.

use shakmaty::Chess;
use skillcal::engine::evaluate;
use skillcal::engine::recognize;
use skillcal::engine::Bound;
use skillcal::engine::Weakening;
use skillcal::engine::{uci_string, Game};
use skillcal::engine::{Control, Engine, SearchParams};
use skillcal::score::{KNOWN_WIN, MAX_EVAL};
use skillcal::strength::Settings;

/// White: K, Q, B, N; Black: K and a rook defended by its king, attacking the queen.
/// Qxd5+ Kxd5 reaches KBNK (a recognized win); every other queen move keeps Q+B+N against R.
const QUEEN_FOR_ROOK: &str = "8/8/4k3/3r4/3Q4/8/8/1NB3K1 w - - 0 1";

#[test]
fn the_engine_keeps_its_queen_rather_than_trade_into_kbnk() {
    let game = Game::from_fen(QUEEN_FOR_ROOK).unwrap();
    for depth in 1..=7 {
        let mut p = SearchParams::default();
        p.limits.depth = Some(depth);
        let r = Engine::new(16).search(&game, &p, &Control::default(), &mut |_| {});
        let best = uci_string(r.best.unwrap());
        assert_ne!(
            best, "d4d5",
            "depth {depth}: gave the queen for the rook to reach KBNK (score {})",
            r.score
        );
        assert!(r.score > 700, "depth {depth}: score {}", r.score);
    }
}

fn pos(fen: &str) -> Chess {
    Game::from_fen(fen).unwrap().root
}

#[test]
fn recognized_wins_lie_in_the_heuristic_range_below_an_extra_queen() {
    for fen in [
        "8/8/8/3k4/8/8/8/1NB1K3 w - - 0 1",   // KBNK, centre
        "7k/8/5K2/8/8/8/8/1NB5 w - - 0 1",    // KBNK, right corner, kings close
        "k7/8/1K6/8/8/8/8/2B2B2 w - - 0 1",   // KBBK, corner
        "7k/8/6K1/8/8/8/8/6R1 w - - 0 1",     // KRK
        "8/8/8/3k4/8/8/8/QQQ1K1Q1 w - - 0 1", // much material: still within MAX_EVAL
    ] {
        let r = recognize(&pos(fen)).expect(fen);
        assert_eq!(r.bound, Bound::Lower, "{fen}");
        assert!(
            (KNOWN_WIN..=MAX_EVAL).contains(&r.score),
            "{fen}: {}",
            r.score
        );
    }
    // KBNK and KBBK, however far the lone king is driven, stay below an extra queen in an
    // otherwise equal position.
    let queen_up = evaluate(&pos("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1"));
    for fen in [
        "7k/8/5K2/8/8/8/8/1NB5 w - - 0 1",
        "k7/8/1K6/8/8/8/8/2B2B2 w - - 0 1",
    ] {
        let r = recognize(&pos(fen)).unwrap();
        assert!(r.eval < queen_up, "{fen}: {} against {queen_up}", r.eval);
    }
}

/// A recognized win at the root is played at full strength: no Errors, no noise, whatever the
/// WinGuard (recognized scores may now lie below it).
#[test]
fn a_recognized_win_at_the_root_is_not_weakened() {
    let game = Game::from_fen("8/8/8/3k4/8/8/8/1NB1K3 w - - 0 1").unwrap();
    let mut s = Settings::default();
    s.set_option("ScoreInaccuracy", "500").unwrap();
    s.set_option("MultiPV", "4").unwrap();
    s.set_option("NoiseModel", "gaussian").unwrap();
    s.set_option("NoiseSigma", "500").unwrap();
    let mut p = SearchParams::default();
    let w = Weakening::prepare(&s.effective(), 7, &game, &mut p);
    assert_eq!(p.score_inaccuracy, 0);
    assert!(p.errors.iter().all(|&e| e == 0));
    assert_eq!(w.noise, skillcal::strength::Noise::None);
    // Not a recognized win (the rook is still there): weakened as usual.
    let other = Game::from_fen(QUEEN_FOR_ROOK).unwrap();
    let mut p = SearchParams::default();
    let w = Weakening::prepare(&s.effective(), 7, &other, &mut p);
    assert_eq!(p.score_inaccuracy, 500);
    assert!(p.errors.iter().any(|&e| e != 0));
    assert_ne!(w.noise, skillcal::strength::Noise::None);
}
