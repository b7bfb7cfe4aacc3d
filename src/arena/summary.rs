//! What a run leaves for a person: [`MatchSummary`] and its printed lines.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::sprt::SprtStatus;
use super::stats::PairingStats;

/// What a run leaves: counts, per-pairing W-D-L with Elo, terminations, arena overhead.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MatchSummary {
    pub out_dir: PathBuf,
    /// Games in the plan.
    pub planned: usize,
    /// Planned games now in games.csv (== planned when the match is complete).
    pub done: usize,
    /// Games played by this call.
    pub played: usize,
    pub pairs: Vec<PairingStats>,
    pub terminations: BTreeMap<String, u32>,
    /// Mean time from receiving `bestmove` to having sent the next `go`, microseconds, over
    /// the moves of this call.
    pub overhead_us: Option<f64>,
    /// The part of `overhead_us` spent inside the pipe write of `position` + `go` (on a busy
    /// machine mostly the arena waiting for a CPU after waking the engine).
    pub overhead_write_us: Option<f64>,
    pub overhead_moves: u64,
    pub seconds: f64,
    /// The sequential test, when the match has `[sprt]`.
    pub sprt: Option<SprtStatus>,
}

impl MatchSummary {
    pub fn lines(&self) -> Vec<String> {
        let mut v = vec![format!(
            "{}: {}/{} games done ({} played now, {:.1}s)",
            self.out_dir.display(),
            self.done,
            self.planned,
            self.played,
            self.seconds
        )];
        v.extend(
            self.pairs
                .iter()
                .filter(|p| p.games() > 0)
                .map(|p| p.describe()),
        );
        let t: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        v.push(format!("terminations: {}", t.join(", ")));
        if let Some(t) = &self.sprt {
            v.push(format!(
                "SPRT elo0 {} elo1 {}: LLR {:.2} ({:.2}, {:.2}), {} after {} pairs, pentanomial {:?}",
                t.elo0,
                t.elo1,
                t.llr,
                t.lower_bound,
                t.upper_bound,
                t.decision,
                t.pentanomial.iter().sum::<u64>(),
                t.pentanomial
            ));
        }
        if let Some(us) = self.overhead_us {
            v.push(format!(
                "arena overhead: {us:.1} us per move (bestmove received -> next go sent, mean of {} moves; {:.1} us of it inside the pipe write)",
                self.overhead_moves,
                self.overhead_write_us.unwrap_or(0.0)
            ));
        }
        v
    }
}
