//! The sequential test of a two-engine match with `[sprt]`: the first engine's points in
//! each opening pair, fishtest's GSPRT on their pentanomial counts.

use std::collections::HashMap;

use super::config::MatchConfig;
use crate::rating::{Pentanomial, Sprt, SprtResult, SprtState};
use crate::results::GameRow;

/// Where the match's SPRT stands.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SprtStatus {
    pub elo0: f64,
    pub elo1: f64,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// `H1 accepted`, `H0 accepted` or `continuing`.
    pub decision: String,
    /// Pentanomial counts of the complete opening pairs, the first engine's points 0..2.
    pub pentanomial: [u64; 5],
}

/// The running SPRT of a match with `[sprt]`: the first engine's points in each opening pair.
pub struct SprtTracker {
    test: Sprt,
    first: String,
    second: String,
    /// The first game of each pair whose second game has not finished yet.
    halves: HashMap<u64, f64>,
    penta: Pentanomial,
}

impl SprtTracker {
    pub fn new(cfg: &MatchConfig, names: &[String]) -> Option<SprtTracker> {
        let t = cfg.sprt.as_ref()?;
        Some(SprtTracker {
            test: Sprt::new(t.elo0, t.elo1, t.alpha, t.beta, t.model),
            first: names[0].clone(),
            second: names[1].clone(),
            halves: HashMap::new(),
            penta: Pentanomial::default(),
        })
    }

    pub fn add(&mut self, r: &GameRow) {
        let (Some(p), Some(_)) = (r.score_for(&self.first), r.score_for(&self.second)) else {
            return;
        };
        match self.halves.remove(&r.pair_id) {
            Some(q) => self.penta.add_pair(q, p),
            None => {
                self.halves.insert(r.pair_id, p);
            }
        }
    }

    pub fn result(&self) -> SprtResult {
        self.test.test(&self.penta.counts)
    }

    pub fn status(&self) -> SprtStatus {
        let r = self.result();
        SprtStatus {
            elo0: self.test.elo0,
            elo1: self.test.elo1,
            llr: r.llr,
            lower_bound: r.lower_bound,
            upper_bound: r.upper_bound,
            decision: match r.state {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "continuing",
            }
            .into(),
            pentanomial: self.penta.counts,
        }
    }

    /// True once the test has accepted H0 or H1.
    pub fn decided(&self) -> bool {
        self.result().state != SprtState::Continue
    }
}
