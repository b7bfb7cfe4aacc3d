//! Search limits (`go` parameters plus the engine's own Limit* options) and time management.

use std::time::{Duration, Instant};

use shakmaty::Move;

/// What bounds one search. `None` means unbounded.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining clock time of the side to move, and its increment.
    pub time: Option<Duration>,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// Search until stopped (`go infinite`), also when a depth/mate limit was reached.
    pub infinite: bool,
    /// Restrict the root to these moves (`go searchmoves`).
    pub searchmoves: Vec<Move>,
    /// NPS throttle: sleep so that nodes / elapsed stays at or below this rate.
    pub nps: Option<u64>,
    /// Time kept back per move for communication delays (UCI `Move Overhead`).
    pub move_overhead: Duration,
}

/// Soft limit (do not start another iteration after it) and hard limit (abort the search).
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl Limits {
    pub fn budget(&self) -> TimeBudget {
        if let Some(mt) = self.movetime {
            let t = mt
                .saturating_sub(self.move_overhead)
                .max(Duration::from_millis(1));
            return TimeBudget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(time) = self.time else {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        };
        let left = time.saturating_sub(self.move_overhead);
        let mtg = self.movestogo.unwrap_or(30).clamp(1, 40);
        // Share of the remaining time plus most of the increment; never plan to use more than
        // a fraction of the clock, since the next moves need time too.
        let base = (left / mtg).saturating_add(self.inc.saturating_mul(3) / 4);
        let cap = if mtg == 1 { left * 9 / 10 } else { left / 2 };
        let soft = (base.saturating_mul(6) / 10).min(cap);
        let hard = base.saturating_mul(3).min(cap).max(soft);
        TimeBudget {
            soft: Some(soft.max(Duration::from_millis(1))),
            hard: Some(hard.max(Duration::from_millis(1))),
        }
    }
}

/// The clock of one search.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// When `go` came: the search's time in `info` and the NPS limit's pace count from here.
    pub start: Instant,
    /// When our own clock started: at `go`, or at `ponderhit` after pondering.
    pub budget_start: Instant,
    pub budget: TimeBudget,
}

impl Clock {
    pub fn new(budget: TimeBudget) -> Clock {
        let now = Instant::now();
        Clock {
            start: now,
            budget_start: now,
            budget,
        }
    }

    /// Time since `go`.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time on our own clock, which the budget limits: since `go`, or since `ponderhit`.
    pub fn budget_elapsed(&self) -> Duration {
        self.budget_start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let l = Limits {
            time: Some(Duration::from_millis(10_000)),
            inc: Duration::from_millis(100),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let b = l.budget();
        assert!(b.soft.unwrap() <= b.hard.unwrap());
        assert!(b.hard.unwrap() <= Duration::from_millis(5_000));
        let l = Limits {
            movetime: Some(Duration::from_millis(200)),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        assert_eq!(l.budget().hard, Some(Duration::from_millis(190)));
        assert!(Limits::default().budget().hard.is_none());
    }
}
