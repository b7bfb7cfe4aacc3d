//! Endgame knowledge shared by the evaluation and the recognizers: driving a lone king to
//! the edge or to the right corner, and scaling down endgames the stronger side cannot win.

use shakmaty::{Bitboard, Board, Color, Square};

/// `scale` returns a factor out of this.
pub const SCALE_NORMAL: i32 = 16;

/// Centipawns per step the lone king is pushed towards its target (edge/corner).
const MOP_UP_EDGE: i32 = 40;
/// Centipawns per step the strong king comes closer to the lone king.
const MOP_UP_KINGS: i32 = 10;

/// Manhattan distance from `sq` to the nearest corner (0..=6); 6 minus it is the distance
/// from the centre, so it also measures how far a king is from the edge.
#[inline]
pub fn corner_distance(sq: Square) -> i32 {
    let f = sq.file().to_u32() as i32;
    let r = sq.rank().to_u32() as i32;
    f.min(7 - f) + r.min(7 - r)
}

/// Manhattan distance from `sq` to the nearer corner of the bishop's colour (0..=7): KBNK
/// mates only there.
#[inline]
pub fn bishop_corner_distance(sq: Square, dark_bishop: bool) -> i32 {
    let f = sq.file().to_u32() as i32;
    let r = sq.rank().to_u32() as i32;
    if dark_bishop {
        // a1 and h8
        (f + r).min(14 - f - r)
    } else {
        // a8 and h1
        (f + 7 - r).min(7 - f + r)
    }
}

/// Whether `color`'s pieces (pawns aside) can force mate against a bare king.
#[inline]
pub fn has_mating_force(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    if (board.rooks_and_queens() & ours).any() {
        return true;
    }
    let bishops = board.bishops() & ours;
    let knights = board.knights() & ours;
    let both_colours =
        (bishops & Bitboard::DARK_SQUARES).any() && (bishops & Bitboard::LIGHT_SQUARES).any();
    both_colours || (bishops.any() && knights.any())
}

/// Steps from the lone king's square to the nearest edge (0..=3).
#[inline]
fn edge_distance(sq: Square) -> i32 {
    let f = sq.file().to_u32() as i32;
    let r = sq.rank().to_u32() as i32;
    f.min(7 - f).min(r).min(7 - r)
}

/// How far the lone king has been driven towards the squares where it gets mated (higher is
/// better for the strong side, never negative).
///
/// - In general: `7 - corner_distance` (7 in a corner, 1 in the centre).
/// - KBNK: `10 - (bishop_corner_distance + edge_distance)` (0..=10). Distance to the bishop's
///   corner alone leaves the centre as good as a wrong corner, and the search, seeing no gain
///   for many plies, wanders until the fifty-move rule. Adding the distance to the edge makes
///   the usual plan pay at every step: drive the king to an edge, then along it to the
///   bishop's corner (from a wrong corner the sum falls by one per step along the edge).
#[inline]
pub fn lone_king_progress(board: &Board, strong: Color, lone_king: Square) -> i32 {
    let ours = board.by_color(strong);
    let bishops = board.bishops() & ours;
    let only_bishop_and_knight =
        bishops.count() == 1 && (board.knights() & ours).count() == 1 && ours.count() == 3;
    match bishops.first() {
        Some(b) if only_bishop_and_knight => {
            let dark = Bitboard::DARK_SQUARES.contains(b);
            10 - bishop_corner_distance(lone_king, dark) - edge_distance(lone_king)
        }
        _ => 7 - corner_distance(lone_king),
    }
}

/// White-relative bonus for driving a bare king to the edge (KBNK: to the bishop's corner)
/// and bringing the strong king close, when the other side can force mate.
#[inline(always)]
pub fn mop_up(board: &Board) -> i32 {
    // Only the king left: one bit set (the king is always there).
    let white_bare = !board.white().more_than_one();
    let black_bare = !board.black().more_than_one();
    if white_bare == black_bare {
        return 0;
    }
    let strong = if black_bare {
        Color::White
    } else {
        Color::Black
    };
    if !has_mating_force(board, strong) {
        return 0;
    }
    let (Some(lone), Some(king)) = (board.king_of(!strong), board.king_of(strong)) else {
        return 0;
    };
    let drive = lone_king_progress(board, strong, lone);
    let close = 7 - king.distance(lone) as i32;
    let bonus = MOP_UP_EDGE * drive + MOP_UP_KINGS * close;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

/// Non-pawn material in pawn units (minor 3, rook 5, queen 9).
#[inline]
fn non_pawn_material(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    3 * ((board.knights() | board.bishops()) & ours).count() as i32
        + 5 * (board.rooks() & ours).count() as i32
        + 9 * (board.queens() & ours).count() as i32
}

/// Factor (out of `SCALE_NORMAL`) for a white-relative evaluation `v`: small when the side
/// ahead has no pawns and too little extra material to mate, half with opposite bishops.
#[inline(always)]
pub fn scale(board: &Board, v: i32) -> i32 {
    if v == 0 {
        return SCALE_NORMAL;
    }
    let strong = if v > 0 { Color::White } else { Color::Black };
    let pawns = board.pawns();
    if (pawns & board.by_color(strong)).is_empty() {
        let ours = non_pawn_material(board, strong);
        let theirs = non_pawn_material(board, !strong);
        if ours <= 3 {
            // A minor piece or less cannot win without pawns.
            return 1;
        }
        let strong_knights = (board.knights() & board.by_color(strong)).count();
        if ours == 6 && strong_knights == 2 && (pawns & board.by_color(!strong)).is_empty() {
            // Two knights cannot force mate.
            return 1;
        }
        if ours - theirs <= 2 {
            // e.g. rook against minor, rook and minor against rook
            return 4;
        }
    }
    let bishops = board.bishops();
    if (board.knights() | board.rooks_and_queens()).is_empty()
        && (bishops & board.white()).count() == 1
        && (bishops & board.black()).count() == 1
        && (bishops & Bitboard::DARK_SQUARES).count() == 1
    {
        return SCALE_NORMAL / 2;
    }
    SCALE_NORMAL
}
