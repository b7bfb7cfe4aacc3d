//! `skillcal perft`: legal move tree leaf counts (bulk-counted at the last ply).

use super::error::EngineError;
use std::time::Instant;

use shakmaty::{Chess, Position};

use super::position::{uci_string, Game};

/// What `skillcal perft` counts (filled by `src/cli/engine.rs`).
#[derive(Clone, Debug, Default)]
pub struct PerftOptions {
    /// Depth in plies.
    pub depth: u32,
    /// Start position (default: the standard start position).
    pub fen: Option<String>,
    /// Print the count below each root move.
    pub divide: bool,
}

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

pub fn run(args: &PerftOptions) -> Result<(), EngineError> {
    let game = match &args.fen {
        Some(fen) => Game::from_fen(fen)?,
        None => Game::default(),
    };
    let start = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for m in game.root.legal_moves() {
            let mut child = game.root.clone();
            child.play_unchecked(m);
            let n = perft(&child, args.depth - 1);
            println!("{}: {n}", uci_string(m));
            total += n;
        }
        total
    } else {
        perft(&game.root, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    println!("Nodes searched: {total}");
    Ok(())
}
