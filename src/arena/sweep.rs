//! `stop_after_sweep = N`: a pairing one engine has won every game of, N games in, plays no
//! more. Such a pairing says only that the gap is large (8-0 is likely below 17% at a 76% score,
//! +200 Elo), and each further game at a score past 90% tells a rating fit under 40% of what a
//! game between equals does; a calibration's first batch, which meets an engine of unknown
//! strength with opponents spread over the whole scale, spends most of its hours on them
//! otherwise. A draw, a loss or an unfinished game keeps the pairing going to its planned count.

use std::collections::HashMap;

use crate::results::GameRow;

/// The games of each pairing so far, keyed by the two names in sorted order.
#[derive(Debug, Default, Clone)]
pub struct SweepTracker {
    after: u32,
    /// (games, wins of the first name, wins of the second)
    pairs: HashMap<(String, String), (u32, u32, u32)>,
}

fn key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

impl SweepTracker {
    /// `None` when the rule is off (no `stop_after_sweep`, or 0).
    pub fn new(after: Option<u32>) -> Option<SweepTracker> {
        after.filter(|&n| n > 0).map(|after| SweepTracker {
            after,
            pairs: HashMap::new(),
        })
    }

    pub fn add(&mut self, r: &GameRow) {
        let k = key(&r.white, &r.black);
        let first_scores = r.score_for(&k.0);
        let e = self.pairs.entry(k).or_default();
        e.0 += 1;
        match first_scores {
            Some(1.0) => e.1 += 1,
            Some(0.0) => e.2 += 1,
            _ => {}
        }
    }

    /// Whether the pairing of `a` and `b` has stopped: at least N games, all won by one side.
    pub fn swept(&self, a: &str, b: &str) -> bool {
        self.pairs
            .get(&key(a, b))
            .is_some_and(|&(g, x, y)| g >= self.after && (x == g || y == g))
    }
}

/// A tracker fed with `rows` (the rule on).
pub fn tracker_of(rows: &[GameRow], after: u32) -> Option<SweepTracker> {
    let mut t = SweepTracker::new(Some(after))?;
    rows.iter().for_each(|r| t.add(r));
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{GameResult, Termination};

    fn row(white: &str, black: &str, result: Option<GameResult>) -> GameRow {
        GameRow {
            game_id: 0,
            pair_id: 0,
            round: 0,
            white: white.into(),
            black: black.into(),
            white_settings: String::new(),
            black_settings: String::new(),
            opening_id: 0,
            opening_fen: String::new(),
            result,
            termination: Termination::Checkmate,
            plies: 40,
            seconds: 1.0,
            seed: 0,
            white_depth: None,
            black_depth: None,
            white_nodes: None,
            black_nodes: None,
        }
    }

    #[test]
    fn a_sweep_stops_at_n_games_in_either_colour() {
        let mut t = SweepTracker::new(Some(4)).unwrap();
        for g in 0..3 {
            let r = if g % 2 == 0 {
                row("strong", "weak", Some(GameResult::WhiteWins))
            } else {
                row("weak", "strong", Some(GameResult::BlackWins))
            };
            t.add(&r);
        }
        assert!(!t.swept("strong", "weak"), "3 games are not 4");
        t.add(&row("weak", "strong", Some(GameResult::BlackWins)));
        assert!(t.swept("weak", "strong") && t.swept("strong", "weak"));
        assert!(!t.swept("strong", "other"));
    }

    #[test]
    fn a_draw_a_loss_or_an_unfinished_game_keeps_it_going() {
        for spoiler in [Some(GameResult::Draw), Some(GameResult::BlackWins), None] {
            let mut t = SweepTracker::new(Some(2)).unwrap();
            t.add(&row("a", "b", Some(GameResult::WhiteWins)));
            t.add(&row("a", "b", spoiler));
            for _ in 0..5 {
                t.add(&row("a", "b", Some(GameResult::WhiteWins)));
            }
            assert!(!t.swept("a", "b"), "{spoiler:?}");
        }
        assert!(SweepTracker::new(Some(0)).is_none() && SweepTracker::new(None).is_none());
    }
}
