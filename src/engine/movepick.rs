//! Move ordering: TT move, captures by SEE / MVV-LVA, killers, history; static exchange
//! evaluation.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::position::encode;

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

/// Killer moves and the butterfly history, kept across iterations of one search.
pub struct Heuristics {
    pub killers: Vec<[u16; 2]>,
    /// Indexed by `[color][from][to]`.
    pub history: Vec<i32>,
}

pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: vec![[0; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
        }
    }
}

#[inline]
fn hidx(color: Color, m: Move) -> usize {
    let from = m.from().map_or(0, |s| s as usize);
    (color as usize) * 4096 + from * 64 + m.to() as usize
}

impl Heuristics {
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.fill(0);
    }

    /// Forget killers (they belong to plies of the previous search) and age history.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    #[inline]
    pub fn history(&self, color: Color, m: Move) -> i32 {
        self.history[hidx(color, m)]
    }

    /// Rewards the quiet move that caused a cutoff and penalises the quiets tried before it.
    pub fn update_quiet(
        &mut self,
        color: Color,
        ply: usize,
        best: Move,
        tried: &[Move],
        depth: i32,
    ) {
        let code = encode(best);
        let k = &mut self.killers[ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        let bonus = (depth * depth).min(400) * 4;
        let mut apply = |m: Move, delta: i32| {
            let h = &mut self.history[hidx(color, m)];
            // Gravity: the closer to the bound, the smaller the step.
            *h += delta - *h * delta.abs() / HISTORY_MAX;
        };
        apply(best, bonus);
        for &m in tried {
            if m != best {
                apply(m, -bonus);
            }
        }
    }
}

#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// Orders `moves` in place: best-first by a score computed once per move.
pub struct Picker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const BAD_CAPTURE: i32 = -(1 << 24);

impl Picker {
    #[inline(always)]
    pub fn new(
        pos: &Chess,
        moves: MoveList,
        tt_move: u16,
        heur: &Heuristics,
        ply: usize,
    ) -> Picker {
        let mut scores = [0i32; 256];
        let killers = heur.killers[ply];
        let turn = pos.turn();
        for (i, &m) in moves.iter().enumerate() {
            let code = encode(m);
            scores[i] = if code == tt_move {
                TT_SCORE
            } else if m.is_capture() || m.promotion().is_some() {
                capture_score(pos, m)
            } else if code == killers[0] {
                KILLER + 1
            } else if code == killers[1] {
                KILLER
            } else {
                heur.history(turn, m)
            };
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Captures and promotions only, for quiescence; losing captures are dropped.
    #[inline(always)]
    pub fn noisy(pos: &Chess, mut moves: MoveList) -> Picker {
        moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        let mut scores = [0i32; 256];
        let mut keep = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            let s = capture_score(pos, m);
            if s > 0 {
                moves[keep] = m;
                scores[keep] = s;
                keep += 1;
            }
        }
        moves.truncate(keep);
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next move and its ordering score (selection sort: most nodes cut off early).
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

/// Good captures (SEE >= 0) above killers by MVV-LVA, losing ones below all quiets.
#[inline]
fn capture_score(pos: &Chess, m: Move) -> i32 {
    let victim = m.capture().map_or(0, see_value);
    let promo = m.promotion().map_or(0, |p| see_value(p) - 100);
    let mover = see_value(m.role());
    let mvv_lva = (victim + promo) * 16 - mover / 10;
    if m.promotion().is_some_and(|p| p != Role::Queen) {
        return BAD_CAPTURE + mvv_lva - 1_000_000;
    }
    let good = victim + promo >= mover || see(pos, m) >= 0;
    if good {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

/// True if the side to move has a piece other than pawns and king (null move is unsafe
/// in pawn endings because of zugzwang).
#[inline]
pub fn has_non_pawn_material(pos: &Chess) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    let minors_majors: Bitboard = b.knights() | b.bishops() | b.rooks() | b.queens();
    (ours & minors_majors).any()
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
