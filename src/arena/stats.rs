//! Running tallies for progress and summaries: W-D-L per pairing and a quick Elo estimate.
//! (The rating module does the careful statistics; this is what a person watches.)

use std::collections::BTreeMap;

use serde::Serialize;

use crate::rating::model::elo_from_score;
use crate::results::GameRow;

/// Wins, draws and losses of `first` against `second`.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct PairingStats {
    pub first: String,
    pub second: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl PairingStats {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// Elo difference of `first` over `second` and its 95% half-width (normal approximation
    /// on the per-game score); None before any game or when the score is 0% or 100%.
    pub fn elo(&self) -> Option<(f64, f64)> {
        elo_with_margin(self.wins, self.draws, self.losses)
    }

    pub fn describe(&self) -> String {
        let elo = match self.elo() {
            Some((e, m)) if m.is_finite() => format!("Elo {e:+.0} ± {m:.0}"),
            Some((e, _)) => format!("Elo {e:+.0} ± ?"),
            None => "Elo ?".into(),
        };
        format!(
            "{} vs {}: {}-{}-{} ({:.1}%), {elo}",
            self.first,
            self.second,
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score()
        )
    }
}

/// Elo and 95% half-width from W-D-L (infinite when the interval is unbounded).
pub fn elo_with_margin(w: u32, d: u32, l: u32) -> Option<(f64, f64)> {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return None;
    }
    let s = (w as f64 + 0.5 * d as f64) / n;
    if s <= 0.0 || s >= 1.0 {
        return None;
    }
    let var = (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s * s) / n;
    if var == 0.0 {
        // All draws: the normal approximation would claim certainty.
        return Some((0.0, f64::INFINITY));
    }
    let se = (var / n).sqrt();
    let (lo, hi) = (s - 1.96 * se, s + 1.96 * se);
    if lo <= 0.0 || hi >= 1.0 {
        // The interval reaches 0% or 100%: unbounded on the Elo scale.
        return Some((elo_from_score(s), f64::INFINITY));
    }
    let margin = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    // `+ 0.0` turns -0 into 0 for printing.
    Some((elo_from_score(s) + 0.0, margin))
}

/// Tallies per pairing (ordered as first met) and per termination.
#[derive(Default)]
pub struct MatchTally {
    pub pairs: Vec<PairingStats>,
    pub terminations: BTreeMap<String, u32>,
    /// The engine whose W-D-L the progress bar shows (the first engine of the config).
    pub hero: String,
    pub hero_wdl: [u32; 3],
}

impl MatchTally {
    pub fn new(hero: &str, pairings: &[(String, String)]) -> MatchTally {
        MatchTally {
            pairs: pairings
                .iter()
                .map(|(a, b)| PairingStats {
                    first: a.clone(),
                    second: b.clone(),
                    ..Default::default()
                })
                .collect(),
            hero: hero.to_string(),
            ..Default::default()
        }
    }

    pub fn add(&mut self, r: &GameRow) {
        *self
            .terminations
            .entry(r.termination.as_str().to_string())
            .or_default() += 1;
        for p in &mut self.pairs {
            if let Some(s) = pair_score(r, &p.first, &p.second) {
                bump(&mut [&mut p.wins, &mut p.draws, &mut p.losses], s);
            }
        }
        if let Some(s) = r.score_for(&self.hero) {
            let [w, d, l] = &mut self.hero_wdl;
            bump(&mut [w, d, l], s);
        }
    }

    /// `W-D-L 10-4-6, Elo +35 ± 120` for the hero against everyone.
    pub fn progress_message(&self) -> String {
        let [w, d, l] = self.hero_wdl;
        let elo = match elo_with_margin(w, d, l) {
            Some((e, m)) if m.is_finite() => format!("Elo {e:+.0} ± {m:.0}"),
            _ => "Elo ?".into(),
        };
        format!("{}: W-D-L {w}-{d}-{l}, {elo}", self.hero)
    }

    pub fn summary_lines(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .pairs
            .iter()
            .filter(|p| p.games() > 0)
            .map(|p| p.describe())
            .collect();
        let t: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        v.push(format!("terminations: {}", t.join(", ")));
        v
    }
}

fn pair_score(r: &GameRow, a: &str, b: &str) -> Option<f64> {
    if (r.white == a && r.black == b) || (r.white == b && r.black == a) {
        r.score_for(a)
    } else {
        None
    }
}

fn bump(wdl: &mut [&mut u32; 3], score: f64) {
    let k = if score > 0.75 {
        0
    } else if score > 0.25 {
        1
    } else {
        2
    };
    *wdl[k] += 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_margins() {
        let (e, m) = elo_with_margin(30, 40, 30).unwrap();
        assert!(e.abs() < 1e-9);
        assert!(m > 40.0 && m < 70.0, "{m}");
        let (e, _) = elo_with_margin(76, 0, 24).unwrap();
        assert!((e - 200.0).abs() < 2.0, "{e}");
        assert!(elo_with_margin(5, 0, 0).is_none());
    }
}
