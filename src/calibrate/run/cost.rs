//! What a game costs in seconds of play, as measured so far (games.csv's `seconds` and `plies`):
//! the pool's planner and the calibration's rank pairings by what their games teach per second.
//!
//! A game's seconds are its plies times the two players' seconds a move, averaged, times the
//! machine's pace when it was played:
//!
//! `seconds_g = plies_g * (c_white + c_black) / 2 * pace_e(g)`
//!
//! The pace is one factor for each run of [`GameCost::EPOCH`] consecutive games (counted back from
//! the latest): a faster engine build, a test suite or a second run beside the games moves every
//! game's cost at once. Costs are given at today's pace, the mean of the latest
//! [`GameCost::NOW_EPOCHS`] epochs' (geometric). A pair last played long ago is then costed at the
//! machine's pace of now, from what its members' games cost then relative to the games played
//! beside them. A pair's own mean would keep a planner off a pair whose only games were played
//! on a slow machine, however cheap it is now.
//!
//! The factors are fitted by the multiplicative updates that minimise the I-divergence between
//! measured and predicted seconds (Lee and Seung's rule for non-negative factors), so every
//! factor stays positive and each game weighs by its share of the time.

use std::collections::BTreeMap;

/// One game played: its two members, seconds and plies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostSample {
    pub a: usize,
    pub b: usize,
    pub seconds: f64,
    pub plies: u32,
}

impl CostSample {
    pub fn new(a: usize, b: usize, seconds: f64, plies: u32) -> CostSample {
        CostSample {
            a,
            b,
            seconds,
            plies,
        }
    }
}

/// Seconds of play a game, at the machine's pace of the latest games: see the module's text.
#[derive(Debug, Clone, Default)]
pub struct GameCost {
    /// Seconds a move of each member at the latest pace; None for a member without games.
    per_move: Vec<Option<f64>>,
    /// Mean plies of each pair's games (count, sum), and of each member's.
    pair_plies: BTreeMap<(usize, usize), (f64, f64)>,
    member_plies: Vec<(f64, f64)>,
    all_plies: (f64, f64),
    /// Mean seconds of every game at the latest pace (None before any).
    mean: Option<f64>,
    /// Fitted pace of each epoch, the latest first, relative to today's.
    pace: Vec<f64>,
}

impl GameCost {
    /// Games of a pair before its own mean plies are trusted.
    pub const PAIR_MIN: usize = 4;
    /// Games that share one pace factor.
    pub const EPOCH: usize = 400;
    /// The latest epochs whose mean pace is today's.
    pub const NOW_EPOCHS: usize = 3;
    /// Floor of a game's cost, so that unmeasured (simulated) games do not divide by zero.
    pub const FLOOR: f64 = 0.5;
    const ITERATIONS: usize = 200;

    /// From each game played, in the order played; `n` members.
    pub fn new(n: usize, games: impl IntoIterator<Item = CostSample>) -> GameCost {
        let games: Vec<CostSample> = games
            .into_iter()
            .filter(|g| g.a < n && g.b < n && g.seconds.is_finite() && g.seconds >= 0.0)
            .collect();
        let mut c = GameCost {
            per_move: vec![None; n],
            member_plies: vec![(0.0, 0.0); n],
            ..Default::default()
        };
        if games.is_empty() {
            return c;
        }
        let add = |x: &mut (f64, f64), p: f64| {
            x.0 += 1.0;
            x.1 += p;
        };
        for g in &games {
            let p = g.plies.max(1) as f64;
            add(c.pair_plies.entry(key(g.a, g.b)).or_default(), p);
            add(&mut c.member_plies[g.a], p);
            add(&mut c.member_plies[g.b], p);
            add(&mut c.all_plies, p);
        }
        let last = games.len() - 1;
        let epoch_of = |i: usize| (last - i) / Self::EPOCH;
        let epochs = epoch_of(0) + 1;
        // start: every member at the run's seconds a ply, every pace 1
        let total_s: f64 = games.iter().map(|g| g.seconds).sum();
        let start = (total_s / c.all_plies.1).max(1e-9);
        let mut per_move: Vec<f64> = vec![start; n];
        let mut pace = vec![1.0; epochs];
        let mut played = vec![false; n];
        for g in &games {
            played[g.a] = true;
            played[g.b] = true;
        }
        let predict = |pm: &[f64], pace: &[f64], i: usize, g: &CostSample| {
            g.plies.max(1) as f64 * (pm[g.a] + pm[g.b]) / 2.0 * pace[epoch_of(i)]
        };
        for _ in 0..Self::ITERATIONS {
            // per_move_m *= sum(s / s^ * ds^/dc_m) / sum(ds^/dc_m), ds^/dc_m = plies * pace / 2
            let mut num = vec![0.0; n];
            let mut den = vec![0.0; n];
            for (i, g) in games.iter().enumerate() {
                let grad = g.plies.max(1) as f64 * pace[epoch_of(i)] / 2.0;
                let ratio = g.seconds / predict(&per_move, &pace, i, g).max(1e-12);
                for m in [g.a, g.b] {
                    num[m] += ratio * grad;
                    den[m] += grad;
                }
            }
            for m in 0..n {
                if den[m] > 0.0 {
                    per_move[m] = (per_move[m] * num[m] / den[m]).max(1e-12);
                }
            }
            // pace_e *= sum(s) / sum(s^) over its games
            let mut num = vec![0.0; epochs];
            let mut den = vec![0.0; epochs];
            for (i, g) in games.iter().enumerate() {
                num[epoch_of(i)] += g.seconds;
                den[epoch_of(i)] += predict(&per_move, &pace, i, g);
            }
            for e in 0..epochs {
                if den[e] > 0.0 {
                    pace[e] = (pace[e] * num[e] / den[e]).max(1e-12);
                }
            }
            // the latest games set the scale
            let p0 = pace[0];
            pace.iter_mut().for_each(|p| *p /= p0);
            per_move.iter_mut().for_each(|c| *c *= p0);
        }
        // today's pace: the geometric mean of the latest epochs', so that one epoch played
        // beside a build or a test run does not move every cost (forecasts swung 19 h to 46 h)
        let k = epochs.min(Self::NOW_EPOCHS);
        let now = (pace[..k].iter().map(|p| p.ln()).sum::<f64>() / k as f64).exp();
        per_move.iter_mut().for_each(|c| *c *= now);
        pace.iter_mut().for_each(|p| *p /= now);
        c.per_move = (0..n).map(|m| played[m].then_some(per_move[m])).collect();
        c.mean = Some(
            games
                .iter()
                .map(|g| g.plies.max(1) as f64 * (per_move[g.a] + per_move[g.b]) / 2.0)
                .sum::<f64>()
                / games.len() as f64,
        );
        c.pace = pace;
        c
    }

    /// Mean seconds of every game counted, at today's pace (None before any).
    pub fn mean(&self) -> Option<f64> {
        self.mean
    }

    /// The fitted pace of each run of [`GameCost::EPOCH`] games, the latest first, relative to
    /// today's: how much longer the same game took then.
    pub fn pace(&self) -> &[f64] {
        &self.pace
    }

    /// Seconds a move of member `m` at the latest pace (None: no game yet).
    pub fn per_move(&self, m: usize) -> Option<f64> {
        self.per_move.get(m).copied().flatten()
    }

    /// Expected seconds of one game between members `a` and `b` at the latest pace: the pair's
    /// mean plies (its members' when it has fewer than [`GameCost::PAIR_MIN`] games, else the
    /// run's) times the members' seconds a move (a member without games takes its partner's,
    /// else the run's mean game stands). One second before any game; never under the floor.
    pub fn seconds(&self, a: usize, b: usize) -> f64 {
        let Some(mean) = self.mean else {
            return 1.0_f64.max(Self::FLOOR);
        };
        let avg = |x: &(f64, f64)| (x.0 > 0.0).then(|| x.1 / x.0);
        let plies = self
            .pair_plies
            .get(&key(a, b))
            .filter(|x| x.0 >= Self::PAIR_MIN as f64)
            .and_then(avg)
            .or_else(|| {
                let pa = self.member_plies.get(a).and_then(avg);
                let pb = self.member_plies.get(b).and_then(avg);
                match (pa, pb) {
                    (Some(x), Some(y)) => Some((x + y) / 2.0),
                    (x, y) => x.or(y),
                }
            })
            .or_else(|| avg(&self.all_plies));
        let per_move = match (self.per_move(a), self.per_move(b)) {
            (Some(x), Some(y)) => Some((x + y) / 2.0),
            (x, y) => x.or(y),
        };
        match (plies, per_move) {
            (Some(p), Some(c)) => p * c,
            _ => mean,
        }
        .max(Self::FLOOR)
    }
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}
