//! Pawn structure, mobility, king safety and piece bonuses for one side (bitboard arithmetic).

use shakmaty::{attacks, Bitboard, Board, Color, Square};

use super::tapered::S;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

const DOUBLED: S = S(-10, -22);
const ISOLATED: S = S(-8, -12);
/// Passed pawn bonus by rank from the pawn's own side (on top of PeSTO's pawn table).
const PASSED: [S; 8] = [
    S(0, 0),
    S(0, 6),
    S(2, 10),
    S(6, 18),
    S(16, 32),
    S(30, 56),
    S(50, 90),
    S(0, 0),
];
/// Per rank step of an advanced passer: enemy king far from / own king near the stop square.
const PASSER_THEIR_KING: i32 = 5;
const PASSER_OUR_KING: i32 = 2;

const BISHOP_PAIR: S = S(28, 48);
const ROOK_OPEN: S = S(24, 8);
const ROOK_SEMI_OPEN: S = S(11, 6);
/// Mobility per reachable square, centred on a typical count so it does not shift material.
const MOB_KNIGHT: (S, i32) = (S(4, 4), 4);
const MOB_BISHOP: (S, i32) = (S(4, 5), 6);
const MOB_ROOK: (S, i32) = (S(2, 4), 7);
const MOB_QUEEN: (S, i32) = (S(1, 2), 13);
/// King-attack units per attacked square of the enemy king's zone.
const UNITS_KNIGHT: i32 = 2;
const UNITS_BISHOP: i32 = 2;
const UNITS_ROOK: i32 = 3;
const UNITS_QUEEN: i32 = 5;
const KING_ATTACK_CAP: i32 = 500;
const SHIELD_PAWN: i32 = 9;
const OPEN_KING_FILE: i32 = 14;

#[inline]
fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | (b << 32)
}

#[inline]
fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | (b >> 32)
}

/// Squares attacked by `color`'s pawns `p`.
#[inline]
fn pawn_attacks(color: Color, p: u64) -> u64 {
    match color {
        Color::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    }
}

#[inline]
fn east(b: u64) -> u64 {
    (b << 1) & !FILE_A
}

#[inline]
fn west(b: u64) -> u64 {
    (b >> 1) & !FILE_H
}

/// Pawn structure, White minus Black: doubled, isolated and passed pawns, computed with
/// fills so that only passed pawns need a loop.
#[inline(always)]
pub fn pawns(board: &Board) -> S {
    let all = board.pawns();
    let w = (all & board.white()).0;
    let b = (all & board.black()).0;
    let mut s = S(0, 0);

    // Squares ahead of each side's pawns (exclusive), towards their promotion rank.
    let w_ahead = north_fill(w << 8);
    let b_ahead = south_fill(b >> 8);

    // A pawn with an own pawn behind it on the same file.
    let doubled = (w & w_ahead).count_ones() as i32 - (b & b_ahead).count_ones() as i32;
    s += DOUBLED * doubled;

    let w_files = north_fill(w) | south_fill(w);
    let b_files = north_fill(b) | south_fill(b);
    let isolated = (w & !(east(w_files) | west(w_files))).count_ones() as i32
        - (b & !(east(b_files) | west(b_files))).count_ones() as i32;
    s += ISOLATED * isolated;

    // Passed: no enemy pawn ahead on its own or an adjacent file, no own pawn ahead of it.
    let w_passers = w & !(b_ahead | east(b_ahead) | west(b_ahead)) & !south_fill(w >> 8);
    let b_passers = b & !(w_ahead | east(w_ahead) | west(w_ahead)) & !north_fill(b << 8);
    if w_passers | b_passers != 0 {
        let wk = board.king_of(Color::White);
        let bk = board.king_of(Color::Black);
        for sq in Bitboard(w_passers) {
            s += passer(Color::White, sq, wk, bk);
        }
        for sq in Bitboard(b_passers) {
            s -= passer(Color::Black, sq, bk, wk);
        }
    }
    s
}

/// Bonus of `color`'s passed pawn on `sq`; advanced ones gain in the endgame when the enemy
/// king is far from the square in front of the pawn and the own king near it.
#[inline]
fn passer(color: Color, sq: Square, our_king: Option<Square>, their_king: Option<Square>) -> S {
    let rank = match color {
        Color::White => sq.rank().to_usize(),
        Color::Black => 7 - sq.rank().to_usize(),
    };
    let mut s = PASSED[rank];
    if rank >= 3 {
        let step = if color == Color::White { 8 } else { -8 };
        if let (Some(stop), Some(ok), Some(tk)) = (sq.offset(step), our_king, their_king) {
            let prox = PASSER_THEIR_KING * tk.distance(stop) as i32
                - PASSER_OUR_KING * ok.distance(stop) as i32;
            s += S(0, (rank as i32 - 2) * prox);
        }
    }
    s
}

/// Mobility, attacks on the enemy king, pawn shield, bishop pair and rook files of `color`.
#[inline(always)]
pub fn pieces(board: &Board, color: Color) -> S {
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let our_pawns = board.pawns() & ours;
    let their_pawns = board.pawns() & !ours;
    let area = !(our_pawns | (board.kings() & ours)).0 & !pawn_attacks(!color, their_pawns.0);
    let zone = match board.king_of(!color) {
        Some(k) => (attacks::king_attacks(k) | Bitboard::from(k)).0,
        None => 0,
    };
    let mut s = S(0, 0);
    let mut attackers = 0;
    let mut units = 0;
    let mut mobility = |a: Bitboard, (weight, centre): (S, i32), unit: i32| {
        s += weight * ((a.0 & area).count_ones() as i32 - centre);
        let hits = a.0 & zone;
        if hits != 0 {
            attackers += 1;
            units += unit * hits.count_ones() as i32;
        }
    };

    for sq in board.knights() & ours {
        mobility(attacks::knight_attacks(sq), MOB_KNIGHT, UNITS_KNIGHT);
    }
    let bishops = board.bishops() & ours;
    for sq in bishops {
        mobility(
            attacks::bishop_attacks(sq, occupied),
            MOB_BISHOP,
            UNITS_BISHOP,
        );
    }
    let rooks = board.rooks() & ours;
    for sq in rooks {
        mobility(attacks::rook_attacks(sq, occupied), MOB_ROOK, UNITS_ROOK);
    }
    let queens = board.queens() & ours;
    for sq in queens {
        mobility(attacks::queen_attacks(sq, occupied), MOB_QUEEN, UNITS_QUEEN);
    }

    // A lone attacker, or an attack without the queen, rarely breaks through.
    if attackers >= 2 && queens.any() {
        s += S((units * units / 8).min(KING_ATTACK_CAP), 0);
    }
    if bishops.more_than_one() {
        s += BISHOP_PAIR;
    }
    for sq in rooks {
        let file = FILE_A << sq.file().to_u32();
        if board.pawns().0 & file == 0 {
            s += ROOK_OPEN;
        } else if our_pawns.0 & file == 0 {
            s += ROOK_SEMI_OPEN;
        }
    }
    if let Some(k) = board.king_of(color) {
        s += shield(color, k, our_pawns.0);
    }
    s
}

/// Middlegame bonus for own pawns in front of the king, penalty for pawnless files beside it.
#[inline(always)]
fn shield(color: Color, king: Square, our_pawns: u64) -> S {
    let f = king.file().to_u32();
    let neighbour_files = (0x7u64 << f >> 1) & 0xff;
    // The king's file and its neighbours, on the two ranks in front of the king.
    let near = FILE_A * neighbour_files;
    let r = king.rank().to_u32();
    let ahead = match color {
        Color::White if r < 7 => (0xffffu64 << (8 * (r + 1))) & near,
        Color::Black if r >= 2 => (0xffffu64 << (8 * (r - 2))) & near,
        Color::Black if r == 1 => 0xff & near,
        _ => 0,
    };
    let shield = (our_pawns & ahead).count_ones().min(3) as i32;
    let own_files = (north_fill(our_pawns) | south_fill(our_pawns)) & 0xff;
    let open = (neighbour_files & !own_files).count_ones() as i32;
    S(SHIELD_PAWN * shield - OPEN_KING_FILE * open, 0)
}
