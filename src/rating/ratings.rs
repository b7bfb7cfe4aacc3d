//! The public types of the rating API: options, anchors and the results.

/// A player whose rating is given: hard (`sd == None`, held fixed) or soft (a Gaussian prior
/// with standard deviation `sd` Elo).
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    pub name: String,
    pub elo: f64,
    pub sd: Option<f64>,
}

impl Anchor {
    pub fn hard(name: &str, elo: f64) -> Anchor {
        Anchor {
            name: name.to_string(),
            elo,
            sd: None,
        }
    }

    pub fn soft(name: &str, elo: f64, sd: f64) -> Anchor {
        Anchor {
            name: name.to_string(),
            elo,
            sd: Some(sd),
        }
    }
}

/// Treatment of the first-move advantage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WhiteAdvantage {
    /// No colour effect (the default; with colour-balanced pairs it hardly matters).
    Off,
    /// White plays this many Elo above its rating.
    Fixed(f64),
    /// Fitted together with the ratings.
    Estimate,
}

/// How intervals are computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Intervals {
    /// Normal approximation from the curvature of the likelihood, with a sandwich correction for
    /// draws (a drawn game's score varies less than the binomial likelihood assumes). Instant.
    Hessian,
    /// Parametric bootstrap, like Ordo's simulations: `samples` pools of games are drawn from the
    /// fitted ratings and draw model (soft anchors drawn from their priors), refitted, and the
    /// percentile interval of each rating taken. Seeded, so reproducible.
    Bootstrap { samples: usize, seed: u64 },
}

/// Options for [`rate`](super::rate).
#[derive(Clone, Debug)]
pub struct RateOptions {
    pub anchors: Vec<Anchor>,
    pub white_advantage: WhiteAdvantage,
    /// Draw rate between equal players for the draw model; `None` estimates it from the games.
    pub draw_rate: Option<f64>,
    /// Standard deviation (Elo) of the weak prior on rating differences between opponents.
    pub prior_sd: f64,
    pub intervals: Intervals,
    /// Coverage of the intervals, 0.95 by default.
    pub confidence: f64,
}

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            anchors: Vec::new(),
            white_advantage: WhiteAdvantage::Off,
            draw_rate: None,
            prior_sd: 2000.0,
            intervals: Intervals::Hessian,
            confidence: 0.95,
        }
    }
}

/// One player's rating and record.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    pub name: String,
    /// `None` when the player is not connected (through games) to an anchor.
    pub elo: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// Standard error (Hessian) or bootstrap standard deviation, Elo.
    pub sd: Option<f64>,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Connected through games to an anchor (or, without anchors, to the rated pool).
    pub connected: bool,
    /// Scored 100% or 0%: the rating and the open side of its interval come from the weak
    /// prior (`prior_sd`), not from the games; only the closed side means something.
    pub perfect: bool,
    pub anchor: Option<Anchor>,
}

impl PlayerRating {
    /// Points scored: wins + draws / 2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Score as a fraction of games (0 without games).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points() / self.games as f64
        }
    }

    /// Fraction of games drawn.
    pub fn draw_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.draws as f64 / self.games as f64
        }
    }
}

/// What the ratings are relative to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// Hard and/or soft anchors (names).
    Anchors(Vec<String>),
    /// No anchor: the mean of the rated (largest connected) pool is 0.
    PoolMean,
}

/// Result of [`rate`](super::rate).
#[derive(Clone, Debug)]
pub struct Ratings {
    /// Every player, in order of first appearance in the games.
    pub players: Vec<PlayerRating>,
    /// White advantage in Elo (fixed or fitted); `None` when off.
    pub white_advantage: Option<f64>,
    /// Interval of the white advantage when it was fitted.
    pub white_advantage_interval: Option<(f64, f64)>,
    /// Draw-model parameter `nu` and the draw rate it implies between equal players.
    pub draw_nu: f64,
    pub equal_draw_rate: f64,
    pub intervals: Intervals,
    pub confidence: f64,
    pub reference: Reference,
    pub games: usize,
    /// Covariance of the ratings (Elo², row-major, `players.len()` squared); 0 for hard anchors,
    /// NaN for unconnected players.
    pub covariance: Vec<f64>,
}

impl Ratings {
    pub fn index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }

    pub fn get(&self, name: &str) -> Option<&PlayerRating> {
        self.players.iter().find(|p| p.name == name)
    }

    /// Covariance of the ratings of players `i` and `j`.
    pub fn cov(&self, i: usize, j: usize) -> f64 {
        self.covariance[i * self.players.len() + j]
    }

    /// Interval-free summary of `a - b`: the difference and its standard deviation (from the
    /// covariance, so shared uncertainty through the anchors cancels). `None` if either is
    /// unknown or unrated.
    pub fn difference(&self, a: &str, b: &str) -> Option<(f64, f64)> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        let (ea, eb) = (self.players[i].elo?, self.players[j].elo?);
        let var = self.cov(i, i) + self.cov(j, j) - 2.0 * self.cov(i, j);
        Some((ea - eb, var.max(0.0).sqrt()))
    }

    /// Players sorted by rating, strongest first; unconnected players last.
    pub fn ranked(&self) -> Vec<&PlayerRating> {
        let mut v: Vec<&PlayerRating> = self.players.iter().collect();
        v.sort_by(|a, b| {
            let ka = a.elo.unwrap_or(f64::NEG_INFINITY);
            let kb = b.elo.unwrap_or(f64::NEG_INFINITY);
            kb.total_cmp(&ka)
        });
        v
    }

    /// Names of the rated (connected) players, strongest first.
    pub fn rated_names(&self) -> Vec<&str> {
        self.ranked()
            .into_iter()
            .filter(|p| p.elo.is_some())
            .map(|p| p.name.as_str())
            .collect()
    }
}
