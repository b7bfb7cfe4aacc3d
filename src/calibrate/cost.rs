//! What a game costs in seconds of play, as measured so far (games.csv's `seconds`): the pool's
//! planner and the calibration's rank pairings by what their games teach per second.

use std::collections::{BTreeMap, VecDeque};

/// Seconds of play a game, as measured so far: a pair's own mean over its last
/// [`GameCost::PAIR_RECENT`] games once it has played [`GameCost::PAIR_MIN`], else the mean of its
/// two members' means, else the run's mean. Recent games, because a game's cost moves with the
/// machine (a faster engine build, a second run beside it) and the next game costs what the
/// last ones did.
#[derive(Debug, Clone, Default)]
pub struct GameCost {
    pair: BTreeMap<(usize, usize), VecDeque<f64>>,
    member: Vec<(f64, f64)>,
    all: (f64, f64),
}

impl GameCost {
    /// Games of a pair before its own mean is trusted.
    pub const PAIR_MIN: usize = 4;
    /// A pair's games its mean counts, the latest.
    pub const PAIR_RECENT: usize = 40;
    /// Floor of a game's cost, so that unmeasured (simulated) games do not divide by zero.
    pub const FLOOR: f64 = 0.5;

    /// From (member a, member b, seconds) of each game played, in the order played; `n` members.
    pub fn new(n: usize, games: impl IntoIterator<Item = (usize, usize, f64)>) -> GameCost {
        let mut c = GameCost {
            member: vec![(0.0, 0.0); n],
            ..Default::default()
        };
        let add = |x: &mut (f64, f64), s: f64| {
            x.0 += 1.0;
            x.1 += s;
        };
        for (a, b, s) in games {
            let recent = c.pair.entry((a.min(b), a.max(b))).or_default();
            if recent.len() == Self::PAIR_RECENT {
                recent.pop_front();
            }
            recent.push_back(s);
            add(&mut c.member[a], s);
            add(&mut c.member[b], s);
            add(&mut c.all, s);
        }
        c
    }

    /// Mean seconds of every game counted (None before any).
    pub fn mean(&self) -> Option<f64> {
        (self.all.0 > 0.0).then(|| self.all.1 / self.all.0)
    }

    /// Expected seconds of one game between members `a` and `b`.
    pub fn seconds(&self, a: usize, b: usize) -> f64 {
        let mean = |x: &(f64, f64)| (x.0 > 0.0).then(|| x.1 / x.0);
        let pair = self
            .pair
            .get(&(a.min(b), a.max(b)))
            .filter(|x| x.len() >= Self::PAIR_MIN)
            .map(|x| x.iter().sum::<f64>() / x.len() as f64);
        let members = match (mean(&self.member[a]), mean(&self.member[b])) {
            (Some(x), Some(y)) => Some((x + y) / 2.0),
            (x, y) => x.or(y),
        };
        pair.or(members)
            .or(self.mean())
            .unwrap_or(1.0)
            .max(Self::FLOOR)
    }
}
