//! `rate`: the ratings of a set of games, built as a [`Problem`] with anchors, white advantage
//! and intervals.
//!
//! Every rated player is its own parameter (a hard anchor a constant). Games are aggregated
//! into one cell per (white, black), so an iteration costs O(pairs), not O(games).
//! Penalties (all Gaussian, so the objective stays concave):
//! - a weak prior on every pair of opponents, `(r_i - r_j)^2 / (2 prior_sd^2)` (default 2000 Elo):
//!   it keeps 100% and 0% scores finite and shifts ordinary results by well under 1 Elo;
//! - soft anchors, `(r_a - elo_a)^2 / (2 sd_a^2)`, Ordo's loose anchors;
//! - a prior of 1000 Elo on an estimated white advantage.

use std::collections::HashMap;

use nalgebra::DVector;
use statrs::distribution::{ContinuousCDF, Normal as StatNormal};

use super::games::{Game, GameResult};
use super::intervals::{bootstrap, center, hessian_covariance, Bootstrap};
use super::model::{
    draw_rate_at_equal, estimate_nu, estimate_nu_from_spread, nu_from_equal_draw_rate,
};
use super::problem::{Cell, Linear, Prior, Problem};
use super::rate_problem::{RateError, RateProblem};
use super::ratings::{
    Anchor, Intervals, PlayerRating, RateOptions, Ratings, Reference, WhiteAdvantage,
};

/// SD (Elo) of the prior on an estimated white advantage.
const ADV_PRIOR_SD: f64 = 1000.0;

/// The weak prior's SD (Elo), lowest and highest: below 1 Elo it ties every two opponents
/// together (a tiny one leaves the information matrix singular, blamed on the games); past
/// 100,000 a 100% score's rating is beyond what the Newton steps resolve.
pub const PRIOR_SD_RANGE: (f64, f64) = (1.0, 100_000.0);
/// Largest anchor rating, in absolute value (Elo): past it the fit does not converge, and no
/// scale puts a player there.
pub const MAX_ANCHOR_ELO: f64 = 10_000.0;

/// A number as a message shows it: as Rust writes it at ordinary sizes, in exponent form past
/// them (Rust writes 1e300 out in 301 digits).
pub(crate) fn shown(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e9).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Largest fixed white advantage accepted (Elo).
const MAX_WHITE_ADVANTAGE: f64 = 1000.0;

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn check_options(opts: &RateOptions) -> Result<(), RateError> {
    if !(opts.confidence > 0.0 && opts.confidence < 1.0) {
        return Err(RateError::Options(format!(
            "confidence must lie between 0 and 1, not {}",
            opts.confidence
        )));
    }
    let (lo, hi) = PRIOR_SD_RANGE;
    if !(lo..=hi).contains(&opts.prior_sd) {
        return Err(RateError::Options(format!(
            "the prior SD must be from {lo} to {hi} Elo, not {}",
            shown(opts.prior_sd)
        )));
    }
    if let WhiteAdvantage::Fixed(v) = opts.white_advantage {
        if v.is_nan() || v.abs() > MAX_WHITE_ADVANTAGE {
            return Err(RateError::Options(format!(
                "the white advantage must be a number of Elo within ±{MAX_WHITE_ADVANTAGE}, not {v}"
            )));
        }
    }
    if let Some(r) = opts.draw_rate {
        if !(0.0..1.0).contains(&r) {
            return Err(RateError::Options(format!(
                "the draw rate must lie in [0, 1), not {r}"
            )));
        }
    }
    if let Intervals::Bootstrap { samples, .. } = opts.intervals {
        // a 95% percentile interval needs its 2.5% tails to hold some samples; each sample
        // keeps every player's rating, so a count past a million only exhausts memory
        if !(MIN_BOOTSTRAP..=MAX_BOOTSTRAP).contains(&samples) {
            return Err(RateError::Options(format!(
                "the bootstrap needs {MIN_BOOTSTRAP} to {MAX_BOOTSTRAP} samples (0: intervals \
                 from the Hessian), not {samples}"
            )));
        }
    }
    Ok(())
}

/// The fewest and most bootstrap samples a rating takes.
pub const MIN_BOOTSTRAP: usize = 100;
pub const MAX_BOOTSTRAP: usize = 1_000_000;

/// The games tallied: each player's index by name and record, and the games per ordered pair.
struct Tally<'g> {
    index: HashMap<&'g str, usize>,
    players: Vec<PlayerRating>,
    cells: Vec<Cell>,
}

/// The players in order of first appearance with their records, and the games per ordered
/// pair (white, black); a player against itself is an error.
fn tally(games: &[Game]) -> Result<Tally<'_>, RateError> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut players: Vec<PlayerRating> = Vec::new();
    let mut cell_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut cells: Vec<Cell> = Vec::new();
    for g in games {
        let w = intern(&mut index, &mut players, &g.white);
        let b = intern(&mut index, &mut players, &g.black);
        if w == b {
            return Err(RateError::SelfPlay(g.white.clone()));
        }
        let k = *cell_of.entry((w, b)).or_insert_with(|| {
            cells.push(Cell {
                a: w,
                b,
                ..Default::default()
            });
            cells.len() - 1
        });
        let c = &mut cells[k];
        c.n += 1.0;
        c.score += g.result.white_score();
        players[w].games += 1;
        players[b].games += 1;
        match g.result {
            GameResult::WhiteWins => {
                players[w].wins += 1;
                players[b].losses += 1;
            }
            GameResult::BlackWins => {
                players[b].wins += 1;
                players[w].losses += 1;
            }
            GameResult::Draw => {
                c.draws += 1.0;
                players[w].draws += 1;
                players[b].draws += 1;
            }
        }
    }
    Ok(Tally {
        index,
        players,
        cells,
    })
}

/// Rates the players of `games`. See the module documentation of `rating` for the model.
pub fn rate(games: &[Game], opts: &RateOptions) -> Result<Ratings, RateError> {
    if games.is_empty() {
        return Err(RateError::NoGames);
    }
    check_options(opts)?;
    let Tally {
        index,
        mut players,
        cells,
    } = tally(games)?;
    let anchor_of = anchors(opts, &index, &mut players)?;
    let rp = build(opts, cells, &anchor_of, &mut players);
    let n = players.len();
    let problem = &rp.problem;

    let theta0 = DVector::from_vec(rp.start.clone());
    let theta = problem.solve(theta0, 1.0)?;
    let mut r = problem.ratings(&theta);
    if rp.pool_mean {
        center(&mut r, &players);
    }
    let adv = problem.advantage.eval(&theta);

    // Draw model from the rated games.
    let cells_e: Vec<(f64, f64)> = problem
        .cells
        .iter()
        .map(|c| (c.n, problem.expected(c, &theta)))
        .collect();
    let draws: f64 = problem.cells.iter().map(|c| c.draws).sum();
    // The fitted draw rate between equals is capped at n/(n+1) for n rated games (one decisive
    // pseudo-game): a pool in which every game was drawn would otherwise get nu -> infinity, a
    // score variance of 0 and intervals as narrow as if the result were certain.
    let rated_games: f64 = problem.cells.iter().map(|c| c.n).sum();
    // The draws' count and the scores' spread each give a nu; the smaller (the wider spread)
    // is taken: where Davidson's shape fits the two agree, and where many draws fall in a
    // lopsided pairing the count alone claimed 95% draws between equals and halved the
    // intervals of players who never met that pairing. The squares are scaled by n / (n - k)
    // for the k fitted ratings.
    let squares: f64 = problem
        .cells
        .iter()
        .zip(&cells_e)
        .map(|(c, &(n, e))| c.score_sq() - 2.0 * e * c.score + n * e * e)
        .sum::<f64>()
        .max(0.0);
    let fitted = players
        .iter()
        .filter(|p| p.connected)
        .count()
        .saturating_sub(1) as f64;
    let squares = squares * rated_games / (rated_games - fitted).max(1.0);
    let nu = match opts.draw_rate {
        Some(rate) => nu_from_equal_draw_rate(rate),
        None => estimate_nu(&cells_e, draws)
            .min(estimate_nu_from_spread(&cells_e, squares))
            .min(nu_from_equal_draw_rate(rated_games / (rated_games + 1.0))),
    };

    let z = StatNormal::standard().inverse_cdf(0.5 + opts.confidence / 2.0);
    let Bootstrap {
        covariance: cov,
        advantage: adv_interval,
        bounds,
    } = match opts.intervals {
        Intervals::Hessian => {
            let (cov_theta, cov) = hessian_covariance(&rp, &theta, nu, &players)?;
            let adv_interval = rp.adv_param.map(|k| {
                let sd = cov_theta[(k, k)].sqrt();
                (adv - z * sd, adv + z * sd)
            });
            let bounds: Vec<Option<(f64, f64)>> = (0..n)
                .map(|i| {
                    let sd = cov[(i, i)].sqrt();
                    players[i].connected.then(|| (r[i] - z * sd, r[i] + z * sd))
                })
                .collect();
            Bootstrap {
                covariance: cov,
                advantage: adv_interval,
                bounds,
            }
        }
        Intervals::Bootstrap { samples, seed } => {
            bootstrap(&rp, &theta, nu, &players, samples, seed, opts.confidence)?
        }
    };

    for i in 0..n {
        let p = &mut players[i];
        p.perfect = p.games > 0 && (p.wins == p.games || p.losses == p.games);
        if p.connected {
            p.elo = Some(r[i]);
            p.sd = Some(cov[(i, i)].max(0.0).sqrt());
            if let Some((lo, hi)) = bounds[i] {
                p.lower = Some(lo);
                p.upper = Some(hi);
            }
        }
    }
    let reference = if opts.anchors.is_empty() {
        Reference::PoolMean
    } else {
        Reference::Anchors(opts.anchors.iter().map(|a| a.name.clone()).collect())
    };
    Ok(Ratings {
        players,
        white_advantage: (opts.white_advantage != WhiteAdvantage::Off).then_some(adv),
        white_advantage_interval: adv_interval,
        draw_nu: nu,
        equal_draw_rate: draw_rate_at_equal(nu),
        intervals: opts.intervals,
        confidence: opts.confidence,
        reference,
        games: games.len(),
        covariance: cov.transpose().as_slice().to_vec(),
    })
}

/// The anchor of each player, checked against the players of the games.
fn anchors(
    opts: &RateOptions,
    index: &HashMap<&str, usize>,
    players: &mut [PlayerRating],
) -> Result<Vec<Option<Anchor>>, RateError> {
    let mut anchor_of: Vec<Option<Anchor>> = vec![None; players.len()];
    for a in &opts.anchors {
        let Some(&i) = index.get(a.name.as_str()) else {
            let mut names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            names.sort_unstable();
            return Err(RateError::UnknownAnchor {
                name: a.name.clone(),
                players: names.join(", "),
            });
        };
        if anchor_of[i].is_some() {
            return Err(RateError::DuplicateAnchor(a.name.clone()));
        }
        if let Some(sd) = a.sd {
            if !(sd > 0.0 && sd.is_finite()) {
                return Err(RateError::BadAnchor {
                    name: a.name.clone(),
                    problem: format!("the SD must be positive, not {sd}"),
                });
            }
        }
        if !(-MAX_ANCHOR_ELO..=MAX_ANCHOR_ELO).contains(&a.elo) {
            return Err(RateError::BadAnchor {
                name: a.name.clone(),
                problem: format!(
                    "the rating must be a number within ±{MAX_ANCHOR_ELO}, not {}",
                    shown(a.elo)
                ),
            });
        }
        anchor_of[i] = Some(a.clone());
        players[i].anchor = Some(a.clone());
    }
    Ok(anchor_of)
}

/// The rating problem: connected components, parameters, priors. Marks `connected` players.
/// Each player's connected component through games, and which components are rated: the one
/// holding an anchor, or without anchors the largest (it carries the pool-mean reference).
fn rated_components(
    pool_mean: bool,
    cells: &[Cell],
    anchor_of: &[Option<Anchor>],
    n: usize,
) -> (Vec<usize>, Vec<bool>) {
    // Connected components through games.
    let mut parent: Vec<usize> = (0..n).collect();
    for c in cells {
        let (x, y) = (find(&mut parent, c.a), find(&mut parent, c.b));
        if x != y {
            parent[x] = y;
        }
    }
    let comp: Vec<usize> = (0..n).map(|i| find(&mut parent, i)).collect();
    let mut rated_comp = vec![false; n];
    if pool_mean {
        // Largest component (ties: the one met first) carries the pool-mean reference.
        let mut size = vec![0usize; n];
        for &c in &comp {
            size[c] += 1;
        }
        let best = (0..n)
            .map(|i| comp[i])
            .max_by(|&a, &b| size[a].cmp(&size[b]).then(std::cmp::Ordering::Greater))
            .unwrap_or(0);
        rated_comp[best] = true;
    } else {
        for (i, a) in anchor_of.iter().enumerate() {
            if a.is_some() {
                rated_comp[comp[i]] = true;
            }
        }
    }
    (comp, rated_comp)
}

fn build(
    opts: &RateOptions,
    cells: Vec<Cell>,
    anchor_of: &[Option<Anchor>],
    players: &mut [PlayerRating],
) -> RateProblem {
    let n = players.len();
    let pool_mean = opts.anchors.is_empty();
    let (comp, rated_comp) = rated_components(pool_mean, &cells, anchor_of, n);

    // Parameters: rated players that are not hard anchors (and not the gauge player).
    let mut lin = vec![Linear::fixed(0.0); n];
    let mut priors = Vec::new();
    let mut soft_priors = Vec::new();
    let mut n_params = 0;
    let mut comp_start: HashMap<usize, (f64, f64)> = HashMap::new();
    for (i, a) in anchor_of.iter().enumerate() {
        if let Some(a) = a {
            let e = comp_start.entry(comp[i]).or_insert((0.0, 0.0));
            e.0 += a.elo;
            e.1 += 1.0;
        }
    }
    let mut gauge_done = false;
    let mut starts = Vec::new();
    for i in 0..n {
        let connected = rated_comp[comp[i]];
        players[i].connected = connected;
        if !connected {
            continue;
        }
        let start = comp_start
            .get(&comp[i])
            .map_or(0.0, |&(sum, cnt)| sum / cnt);
        lin[i] = Linear::fixed(start);
        match &anchor_of[i] {
            Some(Anchor { elo, sd: None, .. }) => lin[i] = Linear::fixed(*elo),
            Some(Anchor {
                elo, sd: Some(sd), ..
            }) => {
                lin[i] = Linear::param(n_params);
                starts.push(start);
                n_params += 1;
                soft_priors.push(priors.len());
                priors.push(Prior {
                    on: lin[i].clone(),
                    mean: *elo,
                    sd: *sd,
                });
            }
            None => {
                if pool_mean && !gauge_done {
                    gauge_done = true; // first player fixed at 0, the pool re-centred afterwards
                } else {
                    lin[i] = Linear::param(n_params);
                    starts.push(start);
                    n_params += 1;
                }
            }
        }
    }
    let (advantage, adv_param) = match opts.white_advantage {
        WhiteAdvantage::Off => (Linear::fixed(0.0), None),
        WhiteAdvantage::Fixed(v) => (Linear::fixed(v), None),
        WhiteAdvantage::Estimate => {
            n_params += 1;
            starts.push(0.0);
            priors.push(Prior {
                on: Linear::param(n_params - 1),
                mean: 0.0,
                sd: ADV_PRIOR_SD,
            });
            (Linear::param(n_params - 1), Some(n_params - 1))
        }
    };
    let rated_cells: Vec<Cell> = cells
        .into_iter()
        .filter(|c| rated_comp[comp[c.a]])
        .collect();
    let mut met: Vec<(usize, usize)> = rated_cells
        .iter()
        .map(|c| (c.a.min(c.b), c.a.max(c.b)))
        .collect();
    met.sort_unstable();
    met.dedup();
    for (i, j) in met {
        let on = lin[i].minus(&lin[j]);
        if !on.terms.is_empty() {
            priors.push(Prior {
                on,
                mean: 0.0,
                sd: opts.prior_sd,
            });
        }
    }
    RateProblem {
        problem: Problem {
            n_params,
            players: lin,
            cells: rated_cells,
            advantage,
            priors,
            ..Default::default()
        },
        adv_param,
        soft_priors,
        pool_mean,
        start: starts,
    }
}

/// Index of player `name`, adding it on first sight.
fn intern<'a>(
    index: &mut HashMap<&'a str, usize>,
    players: &mut Vec<PlayerRating>,
    name: &'a str,
) -> usize {
    if let Some(&i) = index.get(name) {
        return i;
    }
    index.insert(name, players.len());
    players.push(PlayerRating {
        name: name.to_string(),
        elo: None,
        lower: None,
        upper: None,
        sd: None,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        connected: false,
        perfect: false,
        anchor: None,
    });
    players.len() - 1
}
