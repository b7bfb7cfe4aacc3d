//! Lichess's move-quality formulas, written from lila's source (GPL; formulas only):
//!
//! - winning chances and win%: `modules/analyse/src/main/WinPercent.scala` (lichess-org/lila,
//!   commit e3942e29), multiplier -0.00368208 from lila PR #11148, centipawns capped at
//!   `Eval.Cp.CEILING` = 1000 (`modules/tree/.../Eval.scala`), mates at the cap;
//! - move accuracy and game accuracy: `modules/analyse/src/main/AccuracyPercent.scala`
//!   (commit 8dae10ff) with `Maths.weightedMean`, `harmonicMean` and the population
//!   `standardDeviation` of `modules/common/src/main/Maths.scala` (commit 07ef4ee7);
//! - inaccuracy / mistake / blunder: drops of 0.1 / 0.2 / 0.3 in winning chances,
//!   `modules/analyse/src/main/Advice.scala` (`CpAdvice.winningChanceJudgements`).

use crate::analysis::reference::CP_CEILING;

/// lila's winning-chances multiplier (PR #11148).
pub const MULTIPLIER: f64 = -0.00368208;

/// Winning chances in [-1, 1]: `2 / (1 + exp(-0.00368208 cp)) - 1`, cp capped at +-1000.
pub fn winning_chances(cp: i32) -> f64 {
    let cp = cp.clamp(-CP_CEILING, CP_CEILING) as f64;
    (2.0 / (1.0 + (MULTIPLIER * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// Win% in [0, 100]: `50 + 50 * winning_chances(cp)`.
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// Accuracy of one move from the mover's win% before and after it (lila's
/// `AccuracyPercent.fromWinPercents`): 100 when the win% did not drop, else
/// `103.1668100711649 exp(-0.04354415386753951 d) - 3.166924740191411 + 1` (lila's "+1
/// uncertainty bonus"), clamped to [0, 100].
pub fn accuracy_percent(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let d = win_before - win_after;
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * d).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Lichess's judgement of a move by the drop in the mover's winning chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// Drop of at least 0.3 / 0.2 / 0.1 (`Advice.scala`: `d <= delta`).
    pub fn from_drop(drop: f64) -> Judgement {
        if drop >= 0.3 {
            Judgement::Blunder
        } else if drop >= 0.2 {
            Judgement::Mistake
        } else if drop >= 0.1 {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Population standard deviation (lila's `Maths.standardDeviation`).
fn standard_deviation(xs: &[f64]) -> Option<f64> {
    let m = mean(xs)?;
    Some((xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / xs.len() as f64).sqrt())
}

/// lila's `Maths.harmonicMean`: `n / sum(1 / max(1, v))`.
fn harmonic_mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.len() as f64 / xs.iter().map(|v| 1.0 / v.max(1.0)).sum::<f64>())
}

/// lila's `Maths.weightedMean`: `sum(v w) / sum(w)`, None when the weights sum to 0.
fn weighted_mean(xs: &[(f64, f64)]) -> Option<f64> {
    let (v, w) = xs
        .iter()
        .fold((0.0, 0.0), |(av, aw), (v, w)| (av + v * w, aw + w));
    (!xs.is_empty() && w != 0.0).then(|| v / w)
}

/// Game accuracy for White and Black as lila's `AccuracyPercent.gameAccuracy` computes it: the
/// mean of a volatility-weighted mean and the harmonic mean of the move accuracies.
///
/// `start_cp` is White's evaluation before the first move (lila uses `Cp.initial` = 15 because
/// its games start from the initial position; pass the evaluation of the game's start position
/// for games that begin elsewhere); `cps` are White's evaluations after each move; `white_first`
/// says who made the first move. Returns `(white, black)`, None for a side without moves.
pub fn game_accuracy(start_cp: i32, cps: &[i32], white_first: bool) -> (Option<f64>, Option<f64>) {
    let wins: Vec<f64> = std::iter::once(start_cp)
        .chain(cps.iter().copied())
        .map(win_percent)
        .collect();
    let window = (cps.len() / 10).clamp(2, 8);
    // `List.fill(window.atMost(n) - 2)(take(window)) ::: sliding(window)` (Scala's `sliding`
    // yields one short window when the list is shorter than the window).
    let mut windows: Vec<&[f64]> = Vec::new();
    for _ in 0..window.min(wins.len()).saturating_sub(2) {
        windows.push(&wins[..window.min(wins.len())]);
    }
    if wins.len() <= window {
        windows.push(&wins[..]);
    } else {
        windows.extend(wins.windows(window));
    }
    let weights: Vec<f64> = windows
        .iter()
        .map(|xs| standard_deviation(xs).unwrap_or(0.0).clamp(0.5, 12.0))
        .collect();
    let mut white: Vec<(f64, f64)> = Vec::new();
    let mut black: Vec<(f64, f64)> = Vec::new();
    for (i, (pair, &w)) in wins.windows(2).zip(weights.iter()).enumerate() {
        let (prev, next) = (pair[0], pair[1]);
        let is_white = (i % 2 == 0) == white_first;
        if is_white {
            white.push((accuracy_percent(prev, next), w));
        } else {
            black.push((accuracy_percent(next, prev), w));
        }
    }
    let side = |xs: &[(f64, f64)]| -> Option<f64> {
        let weighted = weighted_mean(xs)?;
        let accs: Vec<f64> = xs.iter().map(|(a, _)| *a).collect();
        let harmonic = harmonic_mean(&accs)?;
        Some((weighted + harmonic) / 2.0)
    };
    (side(&white), side(&black))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_are_odd_and_capped() {
        assert_eq!(winning_chances(0), 0.0);
        assert!((winning_chances(300) + winning_chances(-300)).abs() < 1e-12);
        assert_eq!(winning_chances(5000), winning_chances(1000));
        use crate::analysis::reference::Score;
        assert_eq!(Score::Mate(3).capped_cp(), 1000);
        assert_eq!(Score::Mate(-1).capped_cp(), -1000);
    }
}
