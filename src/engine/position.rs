//! Positions with incremental Zobrist keys, and a game (root position plus the keys of the
//! positions before it) for repetition detection.
//!
//! Keys are shakmaty's stable `Zobrist64` values with `EnPassantMode::Legal`, so the key after
//! a move equals `zobrist_hash(EnPassantMode::Legal)` of the new position; the incremental update
//! only avoids recomputing the board part.

use super::error::EngineError;
use shakmaty::{
    fen::Fen,
    uci::UciMove,
    zobrist::{Zobrist64, ZobristValue},
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square,
};

/// Full Zobrist key of `pos`.
pub fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

#[inline]
fn piece_key(sq: Square, color: Color, role: Role) -> u64 {
    Zobrist64::zobrist_for_piece(sq, Piece { color, role }).0
}

/// Key of `after` (= `before` with `m` played), from the key of `before`.
#[inline]
pub fn key_after(before: &Chess, key: u64, m: Move, after: &Chess) -> u64 {
    let us = before.turn();
    let mut k = key ^ Zobrist64::zobrist_for_white_turn().0;
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= piece_key(from, us, role);
            k ^= piece_key(to, us, promotion.unwrap_or(role));
            if let Some(c) = capture {
                k ^= piece_key(to, !us, c);
            }
        }
        Move::EnPassant { from, to } => {
            k ^= piece_key(from, us, Role::Pawn);
            k ^= piece_key(to, us, Role::Pawn);
            k ^= piece_key(Square::from_coords(to.file(), from.rank()), !us, Role::Pawn);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            let rank = king.rank();
            k ^= piece_key(king, us, Role::King);
            k ^= piece_key(
                Square::from_coords(side.king_to_file(), rank),
                us,
                Role::King,
            );
            k ^= piece_key(rook, us, Role::Rook);
            k ^= piece_key(
                Square::from_coords(side.rook_to_file(), rank),
                us,
                Role::Rook,
            );
        }
        Move::Put { .. } => unreachable!("no drops in standard chess"),
    }
    let (cb, ca) = (before.castles(), after.castles());
    if cb.castling_rights() != ca.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if cb.has(color, side) != ca.has(color, side) {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    if let Some(sq) = before.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    if let Some(sq) = after.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    k
}

/// Plays `m` on a copy of `pos`, returning the new position and its key.
#[inline]
pub fn play(pos: &Chess, key: u64, m: Move) -> (Chess, u64) {
    let mut next = pos.clone();
    next.play_unchecked(m);
    let k = key_after(pos, key, m, &next);
    (next, k)
}

/// A position to search from, with the keys of the game positions before it (oldest first), so
/// the search sees repetitions of positions played before the root.
#[derive(Clone, Debug)]
pub struct Game {
    pub root: Chess,
    pub root_key: u64,
    /// Keys of earlier positions of the game, oldest first (the root's key not included).
    pub history: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Chess::default())
    }
}

impl Game {
    pub fn new(root: Chess) -> Game {
        let root_key = key_of(&root);
        Game {
            root,
            root_key,
            history: Vec::new(),
        }
    }

    /// Parses a FEN as a GUI's `position fen` may send it: castling rights without their king
    /// and rook, and an en passant square no double push made, are dropped (as Stockfish and
    /// python-chess do) and named in the second value; anything else illegal is an error.
    pub fn from_fen_lenient(fen: &str) -> Result<(Game, Option<String>), EngineError> {
        let parsed = parse_fen(fen)?;
        match parsed.into_position::<Chess>(CastlingMode::Standard) {
            Ok(pos) => Ok((Game::new(pos), None)),
            Err(e) => {
                let why = e.to_string();
                // each step removes its kind from the error; what is left is fatal
                let e = match e.ignore_invalid_castling_rights() {
                    Ok(pos) => return Ok((Game::new(pos), Some(why))),
                    Err(e) => e,
                };
                let pos =
                    e.ignore_invalid_ep_square()
                        .map_err(|e| EngineError::IllegalPosition {
                            fen: fen.to_string(),
                            reason: e.to_string(),
                        })?;
                Ok((Game::new(pos), Some(why)))
            }
        }
    }

    /// Parses a FEN (standard chess, legal position).
    pub fn from_fen(fen: &str) -> Result<Game, EngineError> {
        let parsed = parse_fen(fen)?;
        let pos: Chess = parsed.into_position(CastlingMode::Standard).map_err(|e| {
            EngineError::IllegalPosition {
                fen: fen.to_string(),
                reason: e.to_string(),
            }
        })?;
        Ok(Game::new(pos))
    }

    /// Plays a legal move, keeping the history.
    pub fn push(&mut self, m: Move) {
        let (next, key) = play(&self.root, self.root_key, m);
        self.history.push(self.root_key);
        self.root = next;
        self.root_key = key;
    }

    /// Plays a move given in UCI notation (`e2e4`, `e7e8q`, `e1g1`), checking legality.
    pub fn push_uci(&mut self, text: &str) -> Result<(), EngineError> {
        let m = parse_uci_move(&self.root, text)?;
        self.push(m);
        Ok(())
    }
}

/// A FEN's fields, before any legality check.
fn parse_fen(fen: &str) -> Result<Fen, EngineError> {
    fen.trim()
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| EngineError::InvalidFen {
            fen: fen.to_string(),
            reason: e.to_string(),
        })
}

/// Parses a UCI move and checks that it is legal in `pos`.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Result<Move, EngineError> {
    let uci: UciMove =
        text.parse().map_err(
            |e: shakmaty::uci::ParseUciMoveError| EngineError::InvalidMove {
                text: text.to_string(),
                reason: e.to_string(),
            },
        )?;
    uci.to_move(pos).map_err(|e| EngineError::IllegalMove {
        text: text.to_string(),
        reason: e.to_string(),
    })
}

/// A move in UCI notation (`e1g1` for castling, as UCI GUIs expect).
pub fn uci_string(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Compact 16-bit move code for the transposition table: from, to, promotion role.
/// Unique among the legal moves of a position (castling is king square to rook square).
#[inline(always)]
pub fn encode(m: Move) -> u16 {
    encode_squares(m.from().unwrap_or(Square::A1), m.to(), m.promotion())
}

/// `encode` of a move given by its squares and promotion.
#[inline(always)]
pub fn encode_squares(from: Square, to: Square, promotion: Option<Role>) -> u16 {
    let promo = promotion.map_or(0, |r| r as u16);
    1 | ((from as u16) << 1) | ((to as u16) << 7) | (promo << 13)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(pos: &Chess, key: u64, depth: u32) {
        assert_eq!(
            key,
            key_of(pos),
            "{}",
            Fen::from_position(pos, EnPassantMode::Legal)
        );
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let (next, k) = play(pos, key, m);
            walk(&next, k, depth - 1);
        }
    }

    #[test]
    fn incremental_keys_match_full_hash() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let g = Game::from_fen(fen).unwrap();
            walk(&g.root, g.root_key, 3);
        }
    }

    #[test]
    fn move_codes_unique() {
        let g = Game::from_fen("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1")
            .unwrap();
        let codes: Vec<u16> = g.root.legal_moves().into_iter().map(encode).collect();
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len());
    }
}
