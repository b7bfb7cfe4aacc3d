//! `Style=human`: moves people play, at a strength set by one knob, `HumanStrength` (0..1000),
//! the family's calibration path. A fixed schedule maps it to the Maia net, its mistakes and, in
//! its upper half, a policy-guided search (docs/strength.md):
//!
//! - 0..=200, the mistakes stretch: Maia-1100's top move, unless a plausible alternative (at
//!   least a tenth of the top move's probability) loses enough beside it where people often play
//!   it. A shallow search (300 nodes) scores the top move and the alternatives; an alternative
//!   qualifies when its loss of expected score exceeds `w` times the policy probability it gives
//!   up (`p_top - p_move`), `w = h / (200 - h)`, and the one exceeding it most plays. At 0 every
//!   alternative scoring worse than the top move qualifies (the worst plays); toward 200 only
//!   near-equal favourites that lose much. So the level leaves Maia's top move where people of
//!   the band leave it too: on the Lichess 1100 band this kept 46% of the human moves matched at
//!   the expected-score loss where a mistake on a random 40% of moves (the second schedule)
//!   matched 38%, and sampling the policy hot (the first) less still.
//! - 201..=500, the nets stretch: the top move of the Maia net of the band
//!   `1100 + 100 * floor(9 (h - 200) / 300)` (1900 from 467 up): the nets' top moves are the
//!   most human-like moves there are, each at its own strength.
//! - 501..=1000, the search half (s = (h - 500) / 500): Maia-1900's candidates (its most likely
//!   moves until they hold 90% of the policy, at least 3 and at most 8) are searched together by
//!   the built-in engine (MultiPV over them) at `50 * 20000^s` nodes (50 .. 1,000,000), and the
//!   most likely candidate scoring within `310 / 31^s - 10` cp (300 .. 0) of the best plays: a
//!   blunder veto at the bottom, the engine's choice among human moves at the top. From 800 up
//!   the engine's own best move (an unrestricted search at the same nodes) joins the candidates,
//!   so when no human move is within the margin the engine's plays.
//!
//! Every step adds strength (fewer mistakes, a stronger band's net, more nodes, a smaller margin,
//! one more candidate), so the path rises by design; the calibration measures where it lands.
//!
//! The engine plays the schedule below [`HUMAN_MAX`] only ([`super::Family::plays_human`]): at
//! the top, the knob's default, its own search plays, so the default Style leaves the default
//! engine at full strength.

/// The knob's largest value (its strongest point).
pub const HUMAN_MAX: u32 = 1000;
/// The `Style` value and the family's name.
pub const HUMAN_STYLE: &str = "human";
/// Where the policy half ends: Maia-1900's top move.
pub const POLICY_END: u32 = 500;
/// Where the mistakes stretch ends: Maia-1100's top move, no mistake.
pub const MISTAKES_END: u32 = 200;
/// A move is plausible when its policy probability is at least this share of the top move's.
pub const PLAUSIBLE: f32 = 0.1;
/// Nodes of the search that scores the top move and its plausible alternatives.
pub const MISTAKE_NODES: u64 = 300;
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
    /// The mistakes stretch's settings (None elsewhere).
    pub mistakes: Option<MistakePlan>,
    /// The search half's settings (None in the policy half).
    pub search: Option<SearchPlan>,
}

/// The mistakes of the schedule's bottom stretch.
#[derive(Clone, Debug, PartialEq)]
pub struct MistakePlan {
    /// Expected score (0..1) a plausible move must lose beside the top move, per unit of policy
    /// probability it gives up, to replace it ([`mistake`]).
    pub weight: f64,
    /// Nodes of the search scoring the plausible moves.
    pub nodes: u64,
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
    if h < MISTAKES_END {
        let weight = f64::from(h) / f64::from(MISTAKES_END - h);
        return HumanPlan {
            net: BANDS[0],
            mistakes: Some(MistakePlan {
                // four decimals: a weight a log line and a test can read back
                weight: (weight * 10_000.0).round() / 10_000.0,
                nodes: MISTAKE_NODES,
            }),
            search: None,
        };
    }
    if h <= POLICY_END {
        let span = (POLICY_END - MISTAKES_END) as usize;
        let i = (((h - MISTAKES_END) as usize * BANDS.len()) / span).min(BANDS.len() - 1);
        return HumanPlan {
            net: BANDS[i],
            mistakes: None,
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
        mistakes: None,
        search: Some(SearchPlan {
            nodes,
            margin: margin.max(0.0) as i32,
            engine_best: h >= ENGINE_BEST_FROM,
        }),
    }
}

/// The candidates' indices in `probs` (a policy over the legal moves): most likely first until
/// they hold `CANDIDATE_MASS` (90%), at least `CANDIDATES_MIN` and at most `CANDIDATES_MAX` (or
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

/// The plausible alternatives to the top move in `probs` (a policy over the legal moves): every
/// other move with at least `PLAUSIBLE` (a tenth) of the top move's probability, most likely
/// first, at most `CANDIDATES_MAX`. Ties keep the moves' order.
pub fn plausible(probs: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]));
    let Some(&top) = order.first() else {
        return Vec::new();
    };
    let floor = PLAUSIBLE * probs[top];
    order
        .into_iter()
        .skip(1)
        .filter(|&i| probs[i] >= floor)
        .take(CANDIDATES_MAX)
        .collect()
}

/// The expected score (0..1) of a search score in cp, on the logistic of 400 cp a factor of ten
/// (mate scores count as 2,000 cp): the Elo logistic of `rating::model`, which `strength` may
/// not reach (it uses only `score`).
pub fn expected_score(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-2000, 2000));
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// The qualifying mistakes among `alternatives` (each: policy probability, search score in cp)
/// beside the top move `top`: each index whose loss of expected score exceeds `weight` times the
/// probability it gives up, with that excess, in the alternatives' order.
pub fn qualifying(top: (f32, i32), alternatives: &[(f32, i32)], weight: f64) -> Vec<(usize, f64)> {
    alternatives
        .iter()
        .enumerate()
        .map(|(i, &(p, s))| {
            let excess = expected_score(top.1) - expected_score(s) - weight * f64::from(top.0 - p);
            (i, excess)
        })
        .filter(|&(_, e)| e > 0.0)
        .collect()
}

/// The mistake that replaces the top move `top` among `alternatives` (each: policy probability,
/// search score in cp): of the [`qualifying`] ones, the one exceeding its weight by the most;
/// ties to the more likely move, then the earlier. None when none qualifies (the top move plays).
pub fn mistake(top: (f32, i32), alternatives: &[(f32, i32)], weight: f64) -> Option<usize> {
    qualifying(top, alternatives, weight)
        .into_iter()
        .max_by(|&(a, ea), &(b, eb)| {
            ea.total_cmp(&eb)
                .then(alternatives[a].0.total_cmp(&alternatives[b].0))
                .then(b.cmp(&a))
        })
        .map(|(i, _)| i)
}

/// The moves people of the band play, as indices into `probs`: the top move, then its
/// [`plausible`] alternatives. The set the policy half and the mistakes stretch draw from.
pub fn people_moves(probs: &[f32]) -> Vec<usize> {
    let Some(top) = (0..probs.len()).reduce(|a, b| if probs[b] > probs[a] { b } else { a }) else {
        return Vec::new();
    };
    let mut set = vec![top];
    set.extend(plausible(probs));
    set
}

/// The indices of `scored` (policy probability, search score in cp) scoring at least the best
/// score minus `margin`: the search half's moves to choose among.
pub fn within_margin(scored: &[(f32, i32)], margin: i32) -> Vec<usize> {
    let Some(best) = scored.iter().map(|&(_, s)| s).max() else {
        return Vec::new();
    };
    let floor = best.saturating_sub(margin);
    (0..scored.len())
        .filter(|&i| scored[i].1 >= floor)
        .collect()
}

/// The move the search half plays among `scored` (policy probability, search score in cp):
/// the most likely one scoring at least the best score minus `margin`; ties of probability go
/// to the better score. None when `scored` is empty.
pub fn pick(scored: &[(f32, i32)], margin: i32) -> Option<usize> {
    within_margin(scored, margin).into_iter().max_by(|&a, &b| {
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
                mistakes: Some(MistakePlan {
                    weight: 0.0,
                    nodes: MISTAKE_NODES
                }),
                search: None
            }
        );
        assert_eq!(plan(100).mistakes.unwrap().weight, 1.0);
        assert_eq!(plan(150).mistakes.unwrap().weight, 3.0);
        assert_eq!(plan(199).mistakes.unwrap().weight, 199.0);
        for (h, net) in [
            (200, 1100),
            (233, 1100),
            (234, 1200),
            (466, 1800),
            (467, 1900),
        ] {
            assert_eq!(
                plan(h),
                HumanPlan {
                    net,
                    mistakes: None,
                    search: None
                },
                "h = {h}"
            );
        }
        assert_eq!(plan(500).net, 1900);
        let top = plan(1000).search.unwrap();
        assert_eq!(
            (top.nodes, top.margin, top.engine_best),
            (1_000_000, 0, true)
        );
        let low = plan(501).search.unwrap();
        assert_eq!((low.nodes, low.margin, low.engine_best), (51, 298, false));
    }

    #[test]
    fn plausible_moves_and_the_mistake_among_them() {
        assert_eq!(plausible(&[0.05, 0.6, 0.3, 0.05]), vec![2]);
        assert_eq!(plausible(&[0.4, 0.06, 0.3, 0.2, 0.04]), vec![2, 3, 1]);
        assert_eq!(plausible(&[1.0]), Vec::<usize>::new());
        assert_eq!(plausible(&[]), Vec::<usize>::new());
        assert!((expected_score(0) - 0.5).abs() < 1e-12);
        assert!((expected_score(400) - 10.0 / 11.0).abs() < 1e-12);
        assert_eq!(expected_score(30_000), expected_score(2000));
        // at weight 0 every worse move qualifies and the worst plays; a better one never does
        let alts = [(0.3, 20), (0.2, -400), (0.1, 50), (0.05, 90)];
        assert_eq!(mistake((0.35, 60), &alts, 0.0), Some(1));
        assert_eq!(mistake((0.35, -500), &alts, 0.0), None);
        // a likely move losing little outweighs an unlikely blunder once the weight grows:
        // the blunder gives up 0.25 probability for 0.50 expected score, the near-favourite
        // 0.05 for 0.39 (both from +60 cp)
        let alts = [(0.4, -250), (0.2, -400)];
        assert_eq!(mistake((0.45, 60), &alts, 0.0), Some(1));
        assert_eq!(mistake((0.45, 60), &alts, 1.0), Some(0));
        assert_eq!(mistake((0.45, 60), &alts, 10.0), None);
        // ties of excess go to the more likely move, then the earlier
        assert_eq!(mistake((0.5, 0), &[(0.1, -100), (0.3, -100)], 0.0), Some(1));
        assert_eq!(mistake((0.5, 0), &[(0.2, -100), (0.2, -100)], 0.0), Some(0));
        assert_eq!(mistake((0.5, 0), &[], 0.0), None);
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
        assert_eq!(within_margin(&scored, 100), vec![1, 2]);
        assert_eq!(within_margin(&[], 100), Vec::<usize>::new());
    }

    #[test]
    fn the_sets_variety_draws_from() {
        assert_eq!(people_moves(&[0.05, 0.6, 0.3, 0.05]), vec![1, 2]);
        assert_eq!(people_moves(&[]), Vec::<usize>::new());
        let alts = [(0.3, 20), (0.2, -400), (0.1, 50)];
        let q = qualifying((0.35, 60), &alts, 0.0);
        assert_eq!(q.iter().map(|&(i, _)| i).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert!(q[1].1 > q[0].1 && q[0].1 > q[2].1);
        assert!(qualifying((0.35, 60), &alts, 100.0).is_empty());
    }
}
