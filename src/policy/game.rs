//! A game's positions from a FEN (or the start position) and UCI moves, as the encoder wants
//! them: oldest first, the last the one to evaluate.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use super::error::PolicyError;

/// Plays `moves` from `fen` (None: the start position), checking each for legality.
pub fn positions(fen: Option<&str>, moves: &[String]) -> Result<Vec<Chess>, PolicyError> {
    let start = match fen {
        None => Chess::default(),
        Some(text) => {
            let bad = |reason: String| PolicyError::Fen {
                fen: text.to_string(),
                reason,
            };
            let parsed: Fen = text.trim().parse().map_err(|e| bad(format!("{e}")))?;
            parsed
                .into_position(CastlingMode::Standard)
                .map_err(|e| bad(format!("{e}")))?
        }
    };
    let mut game = vec![start];
    for (i, text) in moves.iter().enumerate() {
        let bad = |reason: String| PolicyError::Move {
            text: text.clone(),
            ply: i + 1,
            reason,
        };
        let pos = game.last().expect("never empty");
        let uci: UciMove = text.parse().map_err(|e| bad(format!("{e}")))?;
        let m = uci.to_move(pos).map_err(|e| bad(format!("{e}")))?;
        let next = pos.clone().play(m).map_err(|e| bad(format!("{e}")))?;
        game.push(next);
    }
    Ok(game)
}
