//! Static exchange evaluation: what a capture sequence on one square wins or loses, with the
//! piece values move ordering uses (not the evaluation's).

use shakmaty::{Chess, Move, Position, Role};

/// Piece values for ordering and SEE (not the evaluation's values).
#[inline]
pub const fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Material the side to move gains by `m` followed by the best sequence of recaptures on the
/// target square (pins ignored).
pub fn see(pos: &Chess, m: Move) -> i32 {
    let board = pos.board();
    let (from, to, captured, mover, promo) = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => (from, to, capture, role, promotion),
        Move::EnPassant { from, to } => (from, to, Some(Role::Pawn), Role::Pawn, None),
        _ => return 0,
    };
    let mut occ = board.occupied();
    if let Move::EnPassant { from, to } = m {
        occ.discard(shakmaty::Square::from_coords(to.file(), from.rank()));
    }
    let mut gain = [0i32; 34];
    gain[0] = captured.map_or(0, see_value) + promo.map_or(0, |p| see_value(p) - 100);
    let mut attacker_value = see_value(promo.unwrap_or(mover));
    let mut side = pos.turn();
    let mut from_sq = from;
    let mut d = 0;
    loop {
        d += 1;
        gain[d] = attacker_value - gain[d - 1];
        if d >= 32 {
            break;
        }
        occ.discard(from_sq);
        side = !side;
        let attackers = board.attacks_to(to, side, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        let mut next = None;
        for role in ROLES {
            let bb = attackers & board.by_role(role);
            if let Some(sq) = bb.first() {
                next = Some((sq, role));
                break;
            }
        }
        let Some((sq, role)) = next else { break };
        if role == Role::King {
            let defenders = board.attacks_to(to, !side, occ) & occ;
            if defenders.any() {
                break;
            }
        }
        from_sq = sq;
        attacker_value = see_value(role);
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::{parse_uci_move, Game};

    fn see_of(fen: &str, mv: &str) -> i32 {
        let g = Game::from_fen(fen).unwrap();
        let m = parse_uci_move(&g.root, mv).unwrap();
        see(&g.root, m)
    }

    #[test]
    fn see_basic_exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by a pawn: loses the knight for a pawn.
        assert_eq!(
            see_of("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"),
            100 - 320
        );
        // Pawn takes a defended knight: wins knight for pawn.
        assert_eq!(
            see_of("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"),
            320 - 100
        );
    }
}
