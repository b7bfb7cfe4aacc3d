//! The figures of one group of moves (a player, or a human rating band) and their 95%
//! intervals by bootstrap over games: games are resampled with replacement (seeded) and every
//! figure recomputed from the resampled games' moves; the interval is the 2.5th and 97.5th
//! percentile of the resampled values.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::lichess::Judgement;
use super::moves::{MoveEval, Phase, State};

/// One game's moves of the group, and its game accuracies (one a side the group played).
#[derive(Clone, Debug, Default)]
pub struct Sample {
    pub moves: Vec<MoveEval>,
    pub game_accuracy: Vec<f64>,
}

/// The figures, in output order (rates are fractions of moves; a drop is a move losing at least
/// [`super::moves::DROP_CP`] centipawns).
pub const FIGURES: [&str; 22] = [
    "acpl",
    "loss_p50",
    "loss_p75",
    "loss_p90",
    "loss_p95",
    "loss_p99",
    "accuracy",
    "game_accuracy",
    "inaccuracy_rate",
    "mistake_rate",
    "blunder_rate",
    "blunder_rate_winning",
    "blunder_rate_equal",
    "blunder_rate_losing",
    "blunder_rate_opening",
    "blunder_rate_middlegame",
    "blunder_rate_endgame",
    "drop_rate",
    "drop_rate_winning",
    "drop_rate_equal",
    "drop_rate_losing",
    "top1",
];

/// Counts shown beside the figures (no interval).
pub const COUNTS: [&str; 12] = [
    "moves",
    "inaccuracies",
    "mistakes",
    "blunders",
    "drops",
    "moves_winning",
    "moves_equal",
    "moves_losing",
    "moves_opening",
    "moves_middlegame",
    "moves_endgame",
    "top1_matches",
];

/// Percentile with linear interpolation between closest ranks (sorted input).
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * p / 100.0;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

fn rate(n: usize, d: usize) -> Option<f64> {
    (d > 0).then(|| n as f64 / d as f64)
}

fn all_moves<'a>(games: &'a [&'a Sample]) -> impl Iterator<Item = &'a MoveEval> + 'a {
    games.iter().flat_map(|s| s.moves.iter())
}

/// The counts of [`COUNTS`].
pub fn counts(games: &[&Sample]) -> [usize; 12] {
    let mut c = [0usize; 12];
    for m in all_moves(games) {
        c[0] += 1;
        match m.judgement {
            Judgement::Inaccuracy => c[1] += 1,
            Judgement::Mistake => c[2] += 1,
            Judgement::Blunder => c[3] += 1,
            Judgement::Good => {}
        }
        c[4] += usize::from(m.is_material_drop());
        match m.state {
            State::Winning => c[5] += 1,
            State::Equal => c[6] += 1,
            State::Losing => c[7] += 1,
            State::Other => {}
        }
        match m.phase {
            Phase::Opening => c[8] += 1,
            Phase::Middlegame => c[9] += 1,
            Phase::Endgame => c[10] += 1,
        }
        c[11] += usize::from(m.top1);
    }
    c
}

/// Every figure of [`FIGURES`] for these games (None where undefined, e.g. no moves).
pub fn figures(games: &[&Sample]) -> [Option<f64>; 22] {
    let mut losses: Vec<f64> = all_moves(games).map(|m| m.loss as f64).collect();
    losses.sort_by(f64::total_cmp);
    let n = losses.len();
    let c = counts(games);
    let acc: f64 = all_moves(games).map(|m| m.accuracy).sum();
    let ga: Vec<f64> = games
        .iter()
        .flat_map(|s| s.game_accuracy.iter().copied())
        .collect();
    let blunders_where = |f: &dyn Fn(&MoveEval) -> bool| {
        all_moves(games)
            .filter(|m| f(m) && m.judgement == Judgement::Blunder)
            .count()
    };
    let drops_where = |s: State| {
        all_moves(games)
            .filter(|m| m.state == s && m.is_material_drop())
            .count()
    };
    [
        rate_f(losses.iter().sum(), n),
        percentile(&losses, 50.0),
        percentile(&losses, 75.0),
        percentile(&losses, 90.0),
        percentile(&losses, 95.0),
        percentile(&losses, 99.0),
        rate_f(acc, n),
        rate_f(ga.iter().sum(), ga.len()),
        // Lichess counts each move once, under its worst judgement; the rates here are
        // "at least an inaccuracy", "at least a mistake", "a blunder".
        rate(c[1] + c[2] + c[3], n),
        rate(c[2] + c[3], n),
        rate(c[3], n),
        rate(blunders_where(&|m| m.state == State::Winning), c[5]),
        rate(blunders_where(&|m| m.state == State::Equal), c[6]),
        rate(blunders_where(&|m| m.state == State::Losing), c[7]),
        rate(blunders_where(&|m| m.phase == Phase::Opening), c[8]),
        rate(blunders_where(&|m| m.phase == Phase::Middlegame), c[9]),
        rate(blunders_where(&|m| m.phase == Phase::Endgame), c[10]),
        rate(c[4], n),
        rate(drops_where(State::Winning), c[5]),
        rate(drops_where(State::Equal), c[6]),
        rate(drops_where(State::Losing), c[7]),
        rate(c[11], n),
    ]
}

fn rate_f(sum: f64, n: usize) -> Option<f64> {
    (n > 0).then(|| sum / n as f64)
}

/// A figure with its 95% bootstrap interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub value: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
}

/// Bootstrap over games: `resamples` draws of `games.len()` games with replacement, seeded.
/// `f` computes K figures from a set of games.
pub fn bootstrap<T, const K: usize>(
    games: &[T],
    resamples: usize,
    seed: u64,
    f: impl Fn(&[&T]) -> [Option<f64>; K],
) -> [Estimate; K] {
    let all: Vec<&T> = games.iter().collect();
    let point = f(&all);
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); K];
    if !games.is_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pick: Vec<&T> = Vec::with_capacity(games.len());
        for _ in 0..resamples {
            pick.clear();
            for _ in 0..games.len() {
                pick.push(&games[rng.random_range(0..games.len())]);
            }
            for (k, v) in f(&pick).into_iter().enumerate() {
                if let Some(v) = v {
                    draws[k].push(v);
                }
            }
        }
    }
    let mut out = [Estimate::default(); K];
    for k in 0..K {
        draws[k].sort_by(f64::total_cmp);
        out[k] = Estimate {
            value: point[k],
            lower: point[k].and(percentile(&draws[k], 2.5)),
            upper: point[k].and(percentile(&draws[k], 97.5)),
        };
    }
    out
}
