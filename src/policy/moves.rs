//! Where a move's logit sits in the convolutional policy: plane `p` (of 73) at the move's
//! from-square, index `p * 64 + from`, both squares seen from the side to move (ranks
//! mirrored for black), as lc0 lays out its output. The layout is generated here from the
//! move's geometry:
//! - planes 0-55: a slide of 1-7 squares in one of eight directions, `direction * 7 +
//!   distance - 1`, directions clockwise from north (N, NE, E, SE, S, SW, W, NW); castling is
//!   the king's slide onto its own rook (e1h1, e1a1); a knight promotion is the pawn's slide;
//! - planes 56-63: the eight knight jumps, clockwise from (+1 file, +2 ranks);
//! - planes 64-72: promotions to rook, bishop or queen, `64 + 3 * (file step + 1) + piece`
//!   with the piece 0 rook, 1 bishop, 2 queen.

use shakmaty::{Color, Move, Role, Square};

/// Directions of the sliding planes, clockwise from north, as (file step, rank step).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The knight jumps, clockwise from (+1, +2).
const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A square seen from `turn`'s side: ranks mirrored for black.
#[inline]
pub fn oriented(sq: Square, turn: Color) -> usize {
    match turn {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

/// The index of `m` (legal for `turn` to move) in the 73 x 64 policy.
pub fn policy_index(m: &Move, turn: Color) -> usize {
    let (from, to) = match *m {
        Move::Castle { king, rook } => (king, rook),
        _ => (m.from().unwrap_or(m.to()), m.to()),
    };
    let (f, t) = (oriented(from, turn), oriented(to, turn));
    let df = (t % 8) as i32 - (f % 8) as i32;
    let dr = (t / 8) as i32 - (f / 8) as i32;
    let plane = match m.promotion() {
        Some(Role::Rook) => 64 + 3 * (df + 1) as usize,
        Some(Role::Bishop) => 65 + 3 * (df + 1) as usize,
        Some(Role::Queen) => 66 + 3 * (df + 1) as usize,
        _ => {
            if let Some(j) = KNIGHT_JUMPS.iter().position(|&d| d == (df, dr)) {
                56 + j
            } else {
                let dist = df.abs().max(dr.abs());
                let dir = (df.signum(), dr.signum());
                let d = DIRECTIONS
                    .iter()
                    .position(|&x| x == dir)
                    .expect("a legal move that is no knight jump is a slide");
                d * 7 + dist as usize - 1
            }
        }
    };
    plane * 64 + f
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn indices_are_distinct_in_positions() {
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PpPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let mut idx: Vec<usize> = pos
                .legal_moves()
                .iter()
                .map(|m| policy_index(m, pos.turn()))
                .collect();
            let n = idx.len();
            assert!(idx.iter().all(|&i| i < 73 * 64));
            idx.sort_unstable();
            idx.dedup();
            assert_eq!(idx.len(), n, "{fen}");
        }
    }
}
