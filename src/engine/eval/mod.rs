//! Static evaluation: tapered middlegame/endgame score in centipawns.
//!
//! Terms: material and piece-square tables (PeSTO, see `pst.rs`), pawn structure (passed,
//! isolated, doubled), mobility, king attackers and pawn shield, bishop pair, rooks on open
//! files, tempo, mop-up of a lone king, and scaling of drawish endgames. Everything is computed
//! from scratch from bitboards (the search copies positions, so there is nothing to update
//! incrementally); `cargo run --release --example eval_speed` prints the cost per call.

pub mod endgame;
mod pst;
mod tapered;
mod terms;

pub use tapered::S;

use shakmaty::{Board, Chess, Color, Position};

use crate::score::MAX_EVAL;
use crate::strength::eval_noise;

/// Game phase of a full set of pieces (knight/bishop 1, rook 2, queen 4).
pub const MAX_PHASE: i32 = 24;

/// Bonus for the side to move: it can improve before the opponent does.
const TEMPO: i32 = 12;

/// Centipawns from the side to move's point of view, saturated at `±MAX_EVAL`.
///
/// Dead draws (neither side can mate) score exactly 0.
pub fn evaluate(pos: &Chess) -> i32 {
    if is_dead_draw(pos) {
        return 0;
    }
    let white = evaluate_white(pos.board());
    let stm = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    (stm + TEMPO).clamp(-MAX_EVAL, MAX_EVAL)
}

/// Neither side can mate: only kings and minor pieces, and too few of them.
#[inline]
pub fn is_dead_draw(pos: &Chess) -> bool {
    let board = pos.board();
    (board.pawns() | board.rooks_and_queens()).is_empty() && pos.is_insufficient_material()
}

/// Evaluations remembered by position key: quiescence evaluates largely the same leaves again in
/// every iteration of iterative deepening. An entry holds the key's upper 48 bits above the
/// evaluation; with the lower 16 bits as the index, a hit matches the whole key, so it is as
/// reliable as a transposition-table hit.
pub struct EvalHash {
    entries: Vec<u64>,
    /// `EvalNoise` (cp; 0 = none) and its seed (`strength::eval_noise_seed`): the cached value
    /// already holds the noise, so it costs one hash per evaluation actually computed.
    noise_sigma: i32,
    noise_seed: u64,
}

const EVAL_HASH_SIZE: usize = 1 << 16;
const EVAL_BITS: u64 = 0xffff;
const _: () = assert!(EVAL_HASH_SIZE as u64 - 1 == EVAL_BITS && MAX_EVAL <= i16::MAX as i32);

impl Default for EvalHash {
    fn default() -> Self {
        EvalHash {
            entries: vec![0; EVAL_HASH_SIZE],
            noise_sigma: 0,
            noise_seed: 0,
        }
    }
}

impl EvalHash {
    /// A cache whose evaluations carry the noise of `strength::eval_noise` (docs/strength.md).
    pub fn with_noise(sigma: i32, seed: u64) -> EvalHash {
        EvalHash {
            noise_sigma: sigma,
            noise_seed: seed,
            ..EvalHash::default()
        }
    }

    /// `evaluate(pos)` plus the noise of `key`, where `key` is the Zobrist key of `pos`.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, key: u64) -> i32 {
        let entry = &mut self.entries[key as usize & (EVAL_HASH_SIZE - 1)];
        let tag = key & !EVAL_BITS;
        // An all-zero entry is empty (or a zero evaluation of such a key: recomputed).
        if *entry & !EVAL_BITS == tag && *entry != 0 {
            return i32::from(*entry as u16 as i16);
        }
        let mut v = evaluate(pos);
        // A dead draw stays exactly 0: no noise makes it look won or lost.
        if self.noise_sigma != 0 && !is_dead_draw(pos) {
            v = (v + eval_noise(key, self.noise_seed, self.noise_sigma)).clamp(-MAX_EVAL, MAX_EVAL);
        }
        *entry = tag | u64::from(v as i16 as u16);
        v
    }
}

/// Game phase from `MAX_PHASE` (all pieces on) down to 0 (pawns and kings only).
#[inline]
pub fn phase(board: &Board) -> i32 {
    let minors = (board.knights() | board.bishops()).count() as i32;
    let rooks = board.rooks().count() as i32;
    let queens = board.queens().count() as i32;
    (minors + 2 * rooks + 4 * queens).min(MAX_PHASE)
}

/// The evaluation from White's point of view, without tempo and saturation.
pub fn evaluate_white(board: &Board) -> i32 {
    // The evaluation counts bits a few dozen times; the default x86-64 target has no popcnt
    // instruction, so use a copy compiled with it where the CPU has one (about 30% faster).
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports popcnt, checked just above.
        return unsafe { evaluate_white_popcnt(board) };
    }
    evaluate_white_inline(board)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_white_popcnt(board: &Board) -> i32 {
    evaluate_white_inline(board)
}

#[inline(always)]
fn evaluate_white_inline(board: &Board) -> i32 {
    let mut s = S(0, 0);
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let ours = board.by_color(color);
        let mut side = S(0, 0);
        for (ri, bb) in [
            board.pawns(),
            board.knights(),
            board.bishops(),
            board.rooks(),
            board.queens(),
            board.kings(),
        ]
        .into_iter()
        .enumerate()
        {
            for sq in bb & ours {
                side += pst::PST[ci][ri][sq.to_usize()];
            }
        }
        if ci == 0 {
            s += side;
        } else {
            s -= side;
        }
    }
    s += terms::pawns(board);
    s += terms::pieces(board, Color::White) - terms::pieces(board, Color::Black);

    let phase = phase(board);
    let mut v = (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE;
    v += endgame::mop_up(board);
    v * endgame::scale(board, v) / endgame::SCALE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::{play, Game};

    /// Every position of a small tree, evaluated twice through the cache (miss, then hit).
    #[test]
    fn cache_returns_the_evaluation() {
        fn walk(cache: &mut EvalHash, pos: &Chess, key: u64, depth: u32) {
            assert_eq!(cache.evaluate(pos, key), evaluate(pos));
            assert_eq!(cache.evaluate(pos, key), evaluate(pos));
            if depth > 0 {
                for m in pos.legal_moves() {
                    let (next, k) = play(pos, key, m);
                    walk(cache, &next, k, depth - 1);
                }
            }
        }
        let g =
            Game::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        walk(&mut EvalHash::default(), &g.root, g.root_key, 2);
    }
}
