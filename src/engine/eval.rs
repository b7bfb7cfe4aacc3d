//! Static evaluation. (Placeholder material count until the evaluation lands.)

use shakmaty::{Chess, Color, Position, Role};

use super::score::MAX_EVAL;

/// Centipawns from the side to move's point of view, saturated at `±MAX_EVAL`.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let value = |c: Color| -> i32 {
        [
            (Role::Pawn, 100),
            (Role::Knight, 320),
            (Role::Bishop, 330),
            (Role::Rook, 500),
            (Role::Queen, 950),
        ]
        .iter()
        .map(|&(r, v)| v * (board.by_piece(r.of(c)).count() as i32))
        .sum()
    };
    let white = value(Color::White) - value(Color::Black);
    let stm = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    stm.clamp(-MAX_EVAL, MAX_EVAL)
}
