//! A person's think time over one move, as `HumanTime` plays it: a lognormal whose log-mean and
//! log-spread are linear in features known before the move ([`MoveContext`]: both clocks, the
//! increment, the move number, the mover's rating, how certain the Maia net is, checks,
//! recaptures, forced replies, and the mover's own last times). `skillcal think-time fit` fits
//! the two coefficient vectors on clocked games and writes a model file; the binary embeds one.
//!
//! The feature list is this module's: a model file names its features in order and is refused
//! when they are not exactly [`FEATURES`], so a model and the code reading it never disagree.

use std::path::Path;

use rand::Rng;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

/// The model file the binary carries (fitted by `skillcal think-time fit`; see its header).
pub const EMBEDDED: &str = include_str!("think_model.toml");

/// What is known before a move: the mover's view of the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveContext {
    /// Seconds on the mover's clock before the move.
    pub own_clock: f64,
    /// Seconds on the opponent's clock.
    pub opp_clock: f64,
    /// Seconds added after each move.
    pub increment: f64,
    /// The mover's clock at the start of the game (its largest value when that is not known).
    pub start_clock: f64,
    /// Plies played before this move (0 at White's first move).
    pub ply: u32,
    /// The mover's rating (Lichess blitz).
    pub rating: f64,
    /// The net's probability of its likeliest move.
    pub top_prob: f64,
    /// The entropy of the net's policy, in nats.
    pub entropy: f64,
    /// Moves the net gives at least [`SENSIBLE`] probability.
    pub sensible: u32,
    /// Legal moves.
    pub legal: u32,
    pub in_check: bool,
    /// The opponent's last move captured and the mover can capture on that square.
    pub recapture: bool,
    /// The mover's own last think times in seconds, the latest first (at most [`PREVIOUS`]).
    pub previous: Vec<f64>,
    /// The opponent's think time on its last move, in seconds: its clock before that move less
    /// its clock now, plus the increment (none before its clock has run).
    pub opp_last: Option<f64>,
    /// The net's probability of the move about to be played: a person who settles on a move the
    /// net finds unlikely has usually thought about it (the engine knows its choice before it
    /// answers, as the person knows theirs before touching the piece).
    pub played_prob: f64,
    /// The net's expected score for the mover, win less loss (-1 ... 1).
    pub q: f64,
    /// The net's draw probability.
    pub draw: f64,
    /// Captures among the legal moves.
    pub captures: u32,
    /// Pieces on the board, both sides, kings included.
    pub pieces: u32,
}

/// The probability from which a move counts as sensible in [`MoveContext::sensible`].
pub const SENSIBLE: f64 = 0.05;
/// How many of the mover's last times the features read.
pub const PREVIOUS: usize = 5;

/// The features, in the order of a model's coefficients.
pub const FEATURES: [&str; 35] = [
    "bias",
    "ln_clock",
    "share",
    "share_sq",
    "ln_clock_ratio",
    "ln_inc",
    "opening",
    "move",
    "rating",
    "top_prob",
    "entropy",
    "ln_sensible",
    "ln_legal",
    "check",
    "recapture",
    "forced",
    "prev1",
    "prev2",
    "prev_mean",
    "no_prev",
    "ln_pace",
    "under30",
    "under10",
    "share_x_move",
    "opp_last",
    "prev1_per_clock",
    "prev_mean_s",
    "ln_played",
    "played",
    "played_top",
    "q",
    "abs_q",
    "draw",
    "ln_captures",
    "pieces",
];

/// `ln(1 + x)` of a non-negative time.
fn ln1(x: f64) -> f64 {
    x.max(0.0).ln_1p()
}

impl MoveContext {
    /// The feature vector, in [`FEATURES`]' order.
    pub fn features(&self) -> [f64; FEATURES.len()] {
        let clock = self.own_clock.max(0.0);
        let share = (clock / self.start_clock.max(1.0)).min(1.5);
        let moves_in = f64::from(self.ply / 2);
        let prev = &self.previous[..self.previous.len().min(PREVIOUS)];
        let prev1 = prev.first().map_or(0.0, |&t| ln1(t));
        let prev2 = prev.get(1).map_or(prev1, |&t| ln1(t));
        let prev_mean_s = if prev.is_empty() {
            0.0
        } else {
            prev.iter().map(|t| t.max(0.0)).sum::<f64>() / prev.len() as f64
        };
        let prev_mean = ln1(prev_mean_s);
        // a pace a clock allows: the time left spread over the moves a game still needs
        let to_go = (40.0 - moves_in).max(15.0);
        let pace = (clock + to_go * self.increment) / to_go;
        [
            1.0,
            ln1(clock),
            share,
            share * share,
            ln1(self.opp_clock) - ln1(clock),
            ln1(self.increment),
            ((20.0 - f64::from(self.ply)) / 20.0).max(0.0),
            moves_in.min(80.0) / 40.0,
            (self.rating - 1500.0) / 500.0,
            self.top_prob,
            self.entropy,
            f64::from(self.sensible.max(1)).ln(),
            f64::from(self.legal.max(1)).ln(),
            f64::from(u8::from(self.in_check)),
            f64::from(u8::from(self.recapture)),
            f64::from(u8::from(self.legal == 1)),
            prev1,
            prev2,
            prev_mean,
            f64::from(u8::from(prev.is_empty())),
            ln1(pace),
            f64::from(u8::from(clock < 30.0)),
            f64::from(u8::from(clock < 10.0)),
            share * moves_in.min(80.0) / 40.0,
            self.opp_last.map_or(0.0, ln1),
            // the person's rhythm in seconds too: a fit in logs alone misses the long thinks
            prev.first().map_or(0.0, |&t| t.max(0.0)) / clock.max(1.0),
            prev_mean_s.min(60.0) / 10.0,
            self.played_prob.max(1e-4).ln(),
            self.played_prob,
            f64::from(u8::from(self.played_prob >= self.top_prob - 1e-9)),
            self.q,
            self.q.abs(),
            self.draw,
            f64::from(self.captures).ln_1p(),
            f64::from(self.pieces) / 32.0,
        ]
    }
}

/// A fitted model: `ln t ~ Normal(mu · x, exp(log_sigma · x))` for the features `x`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThinkModel {
    /// What it was fitted on (files, games, moves, the command).
    pub fitted_on: String,
    /// The feature names, which must be [`FEATURES`].
    pub features: Vec<String>,
    /// Coefficients of the log-time's mean.
    pub mu: Vec<f64>,
    /// Coefficients of the log-time's spread's log.
    pub log_sigma: Vec<f64>,
    /// The shortest time a move takes (seconds): a person moves the piece.
    pub min_seconds: f64,
}

/// Bounds a spread's log so one odd feature never gives an absurd draw.
const LOG_SIGMA_RANGE: (f64, f64) = (-3.0, 1.0);

impl ThinkModel {
    /// Reads a model from its TOML text; `from` names it in errors (a file, or "the built-in
    /// model").
    pub fn parse(text: &str, from: &str) -> Result<ThinkModel, String> {
        let m: ThinkModel =
            toml::from_str(text).map_err(|e| format!("{from}: not a think-time model: {e}"))?;
        if m.features != FEATURES {
            return Err(format!(
                "{from}: its features are [{}], this skillcal reads [{}]; fit it again with \
                 `skillcal think-time fit`",
                m.features.join(", "),
                FEATURES.join(", ")
            ));
        }
        for (key, v) in [("mu", &m.mu), ("log_sigma", &m.log_sigma)] {
            if v.len() != FEATURES.len() {
                return Err(format!(
                    "{from}: {key} has {} coefficients for {} features",
                    v.len(),
                    FEATURES.len()
                ));
            }
            if let Some(i) = v.iter().position(|c| !c.is_finite()) {
                return Err(format!(
                    "{from}: {key}'s coefficient {} is not a number",
                    FEATURES[i]
                ));
            }
        }
        if !(m.min_seconds.is_finite() && m.min_seconds >= 0.0) {
            return Err(format!(
                "{from}: min_seconds must be a number of seconds, 0 or more"
            ));
        }
        Ok(m)
    }

    /// The built-in model.
    pub fn embedded() -> ThinkModel {
        // the file is checked by a test, so this cannot fail in a built binary
        ThinkModel::parse(EMBEDDED, "the built-in think-time model")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Reads a model file.
    pub fn load(path: &Path) -> Result<ThinkModel, String> {
        if !path.is_file() {
            return Err(format!("{}: no such file", path.display()));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        ThinkModel::parse(&text, &path.display().to_string())
    }

    /// The model's text, as [`ThinkModel::parse`] reads it.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# skillcal think-time model: ln(seconds) ~ Normal(mu . x, exp(log_sigma . x)),\n\
             # x the features in order (src/strength/think_model.rs)\n{body}"
        )
    }

    /// The log-time's mean and spread at `ctx`.
    pub fn log_normal(&self, ctx: &MoveContext) -> (f64, f64) {
        let x = ctx.features();
        let dot = |c: &[f64]| c.iter().zip(x.iter()).map(|(a, b)| a * b).sum::<f64>();
        let (lo, hi) = LOG_SIGMA_RANGE;
        (dot(&self.mu), dot(&self.log_sigma).clamp(lo, hi).exp())
    }

    /// The expected time in seconds (the lognormal's mean).
    pub fn expected(&self, ctx: &MoveContext) -> f64 {
        let (mu, sigma) = self.log_normal(ctx);
        (mu + sigma * sigma / 2.0).exp().max(self.min_seconds)
    }

    /// One person's time, drawn.
    pub fn draw(&self, ctx: &MoveContext, rng: &mut impl Rng) -> f64 {
        let (mu, sigma) = self.log_normal(ctx);
        let z: f64 = StandardNormal.sample(rng);
        (mu + sigma * z).exp().max(self.min_seconds)
    }
}

/// The longest a move may take with `clock` seconds left and `increment` added after it: a
/// quarter of the clock plus most of the increment, less `reserve` for the moves still to come
/// and the time a message takes. Never negative.
pub fn safe_limit(clock: f64, increment: f64, reserve: f64) -> f64 {
    (0.25 * clock + 0.8 * increment - reserve)
        .min(clock - reserve)
        .max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn ctx() -> MoveContext {
        MoveContext {
            own_clock: 150.0,
            opp_clock: 160.0,
            increment: 0.0,
            start_clock: 180.0,
            ply: 20,
            rating: 1500.0,
            top_prob: 0.4,
            entropy: 1.5,
            sensible: 4,
            legal: 30,
            previous: vec![3.0, 5.0],
            played_prob: 0.4,
            q: 0.1,
            draw: 0.3,
            captures: 2,
            pieces: 24,
            ..MoveContext::default()
        }
    }

    #[test]
    fn the_built_in_model_reads_and_answers_in_seconds() {
        let m = ThinkModel::embedded();
        let t = m.expected(&ctx());
        assert!((0.3..60.0).contains(&t), "{t}");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let draws: Vec<f64> = (0..2000).map(|_| m.draw(&ctx(), &mut rng)).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        assert!((mean / t - 1.0).abs() < 0.15, "{mean} for {t}");
        assert!(draws.iter().all(|&d| d >= m.min_seconds));
    }

    #[test]
    fn a_model_with_other_features_or_bad_numbers_is_refused_by_name() {
        let m = ThinkModel::embedded();
        let mut other = m.clone();
        other.features[3] = "something".into();
        let err = ThinkModel::parse(&other.to_toml(), "f.toml").unwrap_err();
        assert!(
            err.contains("f.toml: its features are") && err.contains("something"),
            "{err}"
        );
        let mut short = m.clone();
        short.mu.pop();
        let err = ThinkModel::parse(&short.to_toml(), "f.toml").unwrap_err();
        assert!(
            err.contains(&format!(
                "mu has {} coefficients for {} features",
                FEATURES.len() - 1,
                FEATURES.len()
            )),
            "{err}"
        );
        let err = ThinkModel::parse("mu = 3", "g.toml").unwrap_err();
        assert!(err.starts_with("g.toml: not a think-time model"), "{err}");
        assert_eq!(ThinkModel::parse(&m.to_toml(), "x").unwrap(), m);
    }

    #[test]
    fn the_safe_limit_keeps_a_reserve() {
        assert_eq!(safe_limit(100.0, 0.0, 0.5), 24.5);
        assert_eq!(safe_limit(0.4, 0.0, 0.5), 0.0);
        assert!((safe_limit(2.0, 2.0, 0.5) - 1.5).abs() < 1e-9);
    }
}
