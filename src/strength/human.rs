//! `Style=human`: moves people play, at a strength set by one knob, `HumanStrength` (0..1000),
//! the family's calibration path. A fixed schedule maps it to the Maia net, the policy
//! temperature and, in its upper half, a policy-guided search (docs/strength.md):
//!
//! - 0..=500, the policy half: the Maia net of the band `1100 + 100 * floor(9h / 500)` (1900
//!   from 445 up) plays a move drawn from its policy at temperature `1.5 (1 - h/500)`, so from
//!   the weakest band sampled hot up to Maia-1900's top move at 500. Both a stronger band and a
//!   cooler temperature play stronger, so strength rises with h.
//! - 501..=1000, the search half (s = (h - 500) / 500): Maia-1900's candidates (its most likely
//!   moves until they hold 90% of the policy, at least 3 and at most 8) are searched together by
//!   the built-in engine (MultiPV over them) at `50 * 20000^s` nodes (50 .. 1,000,000), and the
//!   most likely candidate scoring within `310 / 31^s - 10` cp (300 .. 0) of the best plays: a
//!   blunder veto at the bottom, the engine's choice among human moves at the top. From 800 up
//!   the engine's own best move (an unrestricted search at the same nodes) joins the candidates,
//!   so when no human move is within the margin the engine's plays.
//!
//! Every step adds strength (more nodes, a smaller margin, one more candidate), so the path is
//! monotone by construction up to the games' noise; the calibration measures where it lands.

/// The knob's largest value (its strongest point).
pub const HUMAN_MAX: u32 = 1000;
/// The `Style` value and the family's name.
pub const HUMAN_STYLE: &str = "human";
/// Where the policy half ends: Maia-1900's top move.
pub const POLICY_END: u32 = 500;
/// Temperature at HumanStrength 0.
pub const TEMPERATURE_MAX: f64 = 1.5;
/// The search half's node budget at its bottom and top.
pub const NODES_RANGE: (f64, f64) = (50.0, 1_000_000.0);
/// The search half's margin (cp) at its bottom; it falls to 0 at the top.
pub const MARGIN_MAX: f64 = 300.0;
/// The policy mass the candidates hold, and their least and largest number.
pub const CANDIDATE_MASS: f32 = 0.9;
pub const CANDIDATES_MIN: usize = 3;
pub const CANDIDATES_MAX: usize = 8;
/// From here the engine's own best move joins the candidates.
pub const ENGINE_BEST_FROM: u32 = 800;

/// The Maia bands, weakest first (as `strength::maia::MAIA_BANDS`).
const BANDS: [u32; 9] = super::maia::MAIA_BANDS;

/// What a HumanStrength value plays.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanPlan {
    /// The Maia net's band.
    pub net: u32,
    /// Policy temperature of the policy half (0: the top move); 0 in the search half.
    pub temperature: f64,
    /// The search half's settings (None in the policy half).
    pub search: Option<SearchPlan>,
}

/// The policy-guided search of the upper half.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchPlan {
    /// Nodes of the candidates' search (and of the engine's own, when it joins).
    pub nodes: u64,
    /// A candidate plays if its score is at most this far (cp) below the best candidate's.
    pub margin: i32,
    /// Whether the engine's own best move joins the candidates.
    pub engine_best: bool,
}

/// The schedule (see the module's text). Values above [`HUMAN_MAX`] play as it.
pub fn plan(h: u32) -> HumanPlan {
    let h = h.min(HUMAN_MAX);
    if h <= POLICY_END {
        let i = ((h as usize * BANDS.len()) / POLICY_END as usize).min(BANDS.len() - 1);
        let t = TEMPERATURE_MAX * (1.0 - f64::from(h) / f64::from(POLICY_END));
        return HumanPlan {
            net: BANDS[i],
            // three decimals, as the other real options print
            temperature: (t * 1000.0).round() / 1000.0,
            search: None,
        };
    }
    let s = f64::from(h - POLICY_END) / f64::from(HUMAN_MAX - POLICY_END);
    let (lo, hi) = NODES_RANGE;
    let nodes = (lo * (hi / lo).powf(s)).round() as u64;
    // 310 / 31^s - 10: log-like from 300 down to exactly 0
    let margin = ((MARGIN_MAX + 10.0) * ((MARGIN_MAX + 10.0) / 10.0).powf(-s) - 10.0).round();
    HumanPlan {
        net: BANDS[BANDS.len() - 1],
        temperature: 0.0,
        search: Some(SearchPlan {
            nodes,
            margin: margin.max(0.0) as i32,
            engine_best: h >= ENGINE_BEST_FROM,
        }),
    }
}

/// The candidates' indices in `probs` (a policy over the legal moves): most likely first until
/// they hold [`CANDIDATE_MASS`], at least [`CANDIDATES_MIN`] and at most [`CANDIDATES_MAX`] (or
/// every move when there are fewer). Ties keep the moves' order.
pub fn candidates(probs: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]));
    let mut mass = 0.0;
    let mut out = Vec::new();
    for i in order {
        if out.len() >= CANDIDATES_MAX || (out.len() >= CANDIDATES_MIN && mass >= CANDIDATE_MASS) {
            break;
        }
        mass += probs[i];
        out.push(i);
    }
    out
}

/// The move the search half plays among `scored` (policy probability, search score in cp):
/// the most likely one scoring at least the best score minus `margin`; ties of probability go
/// to the better score. None when `scored` is empty.
pub fn pick(scored: &[(f32, i32)], margin: i32) -> Option<usize> {
    let best = scored.iter().map(|&(_, s)| s).max()?;
    let floor = best.saturating_sub(margin);
    (0..scored.len())
        .filter(|&i| scored[i].1 >= floor)
        .max_by(|&a, &b| {
            scored[a]
                .0
                .total_cmp(&scored[b].0)
                .then(scored[a].1.cmp(&scored[b].1))
                .then(b.cmp(&a))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_ends() {
        assert_eq!(
            plan(0),
            HumanPlan {
                net: 1100,
                temperature: 1.5,
                search: None
            }
        );
        assert_eq!(
            plan(500),
            HumanPlan {
                net: 1900,
                temperature: 0.0,
                search: None
            }
        );
        let top = plan(1000).search.unwrap();
        assert_eq!(
            (top.nodes, top.margin, top.engine_best),
            (1_000_000, 0, true)
        );
        let low = plan(501).search.unwrap();
        assert_eq!((low.nodes, low.margin, low.engine_best), (51, 298, false));
    }

    #[test]
    fn candidates_hold_the_mass() {
        assert_eq!(candidates(&[0.05, 0.9, 0.03, 0.02]), vec![1, 0, 2]);
        assert_eq!(candidates(&[0.3, 0.3, 0.2, 0.05, 0.15]), vec![0, 1, 2, 4]);
        assert_eq!(candidates(&[1.0]), vec![0]);
        assert_eq!(candidates(&[0.1; 10]).len(), CANDIDATES_MAX);
    }

    #[test]
    fn pick_prefers_the_likely_move_within_the_margin() {
        let scored = [(0.6, -250), (0.3, 20), (0.1, 40)];
        assert_eq!(pick(&scored, 300), Some(0));
        assert_eq!(pick(&scored, 100), Some(1));
        assert_eq!(pick(&scored, 0), Some(2));
        assert_eq!(pick(&[], 10), None);
    }
}
