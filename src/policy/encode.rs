//! The 112 input planes of lc0's classical format, for the last position of a game with the
//! positions before it:
//! - planes `13 i .. 13 i + 12` for the position `i` plies back (i = 0..8): the side to move's
//!   pawns, knights, bishops, rooks, queens, king, then the opponent's, then a plane of ones if
//!   that position occurred before (a repetition); every board seen from the side to move now
//!   (ranks mirrored when black is to move);
//! - before the game's first position: nothing when it is the standard start position, else
//!   that first position again (a FEN's history is unknown: lc0's `fen_only` fill), with a
//!   double push its en passant square shows taken back;
//! - 104-107: we can castle queenside, kingside, they can queenside, kingside (planes of ones);
//! - 108 ones when black is to move; 109 the half-move clock as it is (not scaled); 110 zero;
//!   111 ones.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Piece, Position, Role, Square};

use super::moves::oriented;

/// Positions of history the planes hold.
pub const HISTORY: usize = 8;
const PER_POSITION: usize = 13;
const AUX: usize = HISTORY * PER_POSITION;

/// Scratch reused between positions (no allocation once grown to a game's length).
#[derive(Default)]
pub struct Encoder {
    keys: Vec<u64>,
    reps: Vec<u32>,
}

impl Encoder {
    /// Writes the planes of `game`'s last position into `out`: plane `p` at
    /// `out[p * stride .. p * stride + 64]`, square a1 = 0 .. h8 = 63 after orientation.
    /// `game` holds the game's positions oldest first and must not be empty.
    pub fn encode(&mut self, game: &[Chess], out: &mut [f32], stride: usize) {
        let now = game.last().expect("a game has a position");
        let us = now.turn();
        for p in 0..112 {
            out[p * stride..p * stride + 64].fill(0.0);
        }
        self.repetitions(game);
        let n = game.len();
        let first_is_start = is_start(&game[0]);
        for i in 0..HISTORY {
            let base = i * PER_POSITION;
            if i < n {
                let k = n - 1 - i;
                put_board(&game[k], us, base, out, stride);
                if self.reps[k] >= 1 {
                    fill(out, base + 12, stride, 1.0);
                }
            } else if first_is_start {
                break;
            } else {
                put_board(&game[0], us, base, out, stride);
                undo_double_push(&game[0], us, base, out, stride);
            }
        }
        let them = !us;
        let castles = now.castles();
        for (j, (color, side)) in [
            (us, CastlingSide::QueenSide),
            (us, CastlingSide::KingSide),
            (them, CastlingSide::QueenSide),
            (them, CastlingSide::KingSide),
        ]
        .into_iter()
        .enumerate()
        {
            if castles.has(color, side) {
                fill(out, AUX + j, stride, 1.0);
            }
        }
        if us == Color::Black {
            fill(out, AUX + 4, stride, 1.0);
        }
        fill(out, AUX + 5, stride, now.halfmoves() as f32);
        fill(out, AUX + 7, stride, 1.0);
    }

    /// How often each position occurred before, counted as lc0 does: the same position with
    /// the same side to move, searched back while the half-move clock allows one.
    fn repetitions(&mut self, game: &[Chess]) {
        self.keys.clear();
        self.reps.clear();
        for (i, pos) in game.iter().enumerate() {
            let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0;
            self.keys.push(key);
            let mut reps = 0;
            if pos.halfmoves() >= 4 {
                let mut j = i as isize - 4;
                while j >= 0 {
                    let ju = j as usize;
                    if self.keys[ju] == key {
                        reps = 1 + self.reps[ju];
                        break;
                    }
                    if game[ju].halfmoves() < 2 {
                        break;
                    }
                    j -= 2;
                }
            }
            self.reps.push(reps);
        }
    }
}

fn fill(out: &mut [f32], plane: usize, stride: usize, v: f32) {
    out[plane * stride..plane * stride + 64].fill(v);
}

/// The standard start position, white to move (lc0 leaves the history before it empty).
fn is_start(pos: &Chess) -> bool {
    let start = Chess::default();
    pos.board() == start.board()
        && pos.turn() == Color::White
        && pos.castles().castling_rights() == start.castles().castling_rights()
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// The twelve piece planes of `pos` from `us`'s side.
fn put_board(pos: &Chess, us: Color, base: usize, out: &mut [f32], stride: usize) {
    let board = pos.board();
    for (side, color) in [us, !us].into_iter().enumerate() {
        for (r, &role) in ROLES.iter().enumerate() {
            let plane = base + side * 6 + r;
            for sq in board.by_piece(Piece { color, role }) {
                out[plane * stride + oriented(sq, us)] = 1.0;
            }
        }
    }
}

/// In a copy of a FEN's position standing for the unknown history, the double push that its
/// en passant square shows is taken back.
fn undo_double_push(pos: &Chess, us: Color, base: usize, out: &mut [f32], stride: usize) {
    let Some(ep) = pos.ep_square(EnPassantMode::Always) else {
        return;
    };
    let mover = !pos.turn();
    let (now_rank, before_rank) = match mover {
        Color::White => (3, 1),
        Color::Black => (4, 6),
    };
    let file = ep.file();
    let now = Square::from_coords(file, shakmaty::Rank::new(now_rank));
    let before = Square::from_coords(file, shakmaty::Rank::new(before_rank));
    let plane = base + if mover == us { 0 } else { 6 };
    out[plane * stride + oriented(now, us)] = 0.0;
    out[plane * stride + oriented(before, us)] = 1.0;
}
