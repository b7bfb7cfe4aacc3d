//! Won elementary endgames are converted: the engine plays both sides at a fixed node budget and
//! mates within 50 moves, from positions where the lone king starts in the centre or runs to the
//! wrong corner (KBNK) and with the bishops apart (KBBK).

use shakmaty::{KnownOutcome, Outcome, Position};
use skillcal::engine::Game;
use skillcal::engine::{Control, Engine, SearchParams};

const NODES_PER_MOVE: u64 = 200_000;

/// Plays both sides from `fen` until the game ends; returns the moves played and the outcome.
fn self_play(fen: &str, max_plies: usize) -> (usize, Outcome) {
    let mut game = Game::from_fen(fen).unwrap();
    let mut engine = Engine::new(16);
    for ply in 0..max_plies {
        if game.root.is_game_over() {
            return (ply, game.root.outcome());
        }
        let mut params = SearchParams::default();
        params.limits.nodes = Some(NODES_PER_MOVE);
        let r = engine.search(&game, &params, &Control::default(), &mut |_| {});
        game.push(r.best.expect("a legal move"));
    }
    (max_plies, game.root.outcome())
}

fn assert_mates(fen: &str) {
    let winner = Game::from_fen(fen).unwrap().root.turn();
    // the stronger side is to move in every position below
    let (plies, outcome) = self_play(fen, 100);
    assert_eq!(
        outcome,
        Outcome::Known(KnownOutcome::Decisive { winner }),
        "{fen}: no mate within 50 moves ({plies} plies)"
    );
    eprintln!("{fen}: mate after {plies} plies");
}

#[test]
fn kbnk_is_mated_within_fifty_moves() {
    // lone king in the centre; dark-squared bishop (mates in a1 or h8)
    assert_mates("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
    // lone king in a wrong (dark) corner for the light-squared bishop on f1
    assert_mates("8/8/8/8/8/2K5/3N4/k4B2 w - - 0 1");
    // lone king in a wrong (light) corner for the dark-squared bishop on c1
    assert_mates("k7/8/2K5/8/8/8/8/2B2N2 w - - 0 1");
}

#[test]
fn kbbk_is_mated_within_fifty_moves() {
    assert_mates("8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1");
    assert_mates("8/8/8/8/8/8/8/k1K1BB2 w - - 0 1");
}
