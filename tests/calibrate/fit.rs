//! Fitting and inversion on synthetic games from known curves: the estimates land near the truth
//! and the 95% intervals cover it about as often as they claim.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillcal::calibrate::config::ModelKind;
use skillcal::calibrate::fit::{self, Role, Z95};
use skillcal::rating::problem::Cell;

/// Pool anchored at the PR #4341 values with soft anchors (sd 30); the pool's true ratings are
/// drawn from those priors when `pool_sd` > 0 (so that the truth follows the model's own
/// assumptions); subject settings t on a grid with true Elo(t) given.
fn simulate(
    rng: &mut ChaCha8Rng,
    truth: &dyn Fn(f64) -> f64,
    ts: &[f64],
    games: usize,
    anchors: &[f64],
    pool_sd: f64,
) -> (Vec<Role>, Vec<Cell>) {
    let mut roles: Vec<Role> = anchors
        .iter()
        .map(|&m| Role::Anchored { mean: m, sd: 30.0 })
        .collect();
    let normal = rand_distr::Normal::new(0.0, 1.0).unwrap();
    let pool: Vec<f64> = anchors
        .iter()
        .map(|&m| m + pool_sd * rng.sample::<f64, _>(normal))
        .collect();
    let mut tallies = Vec::new();
    for &t in ts {
        let i = roles.len();
        roles.push(Role::Subject(t));
        let e = truth(t);
        // two nearest pool members
        let mut near: Vec<usize> = (0..pool.len()).collect();
        near.sort_by(|&a, &b| (pool[a] - e).abs().total_cmp(&(pool[b] - e).abs()));
        for &j in &near[..2] {
            let p = 1.0 / (1.0 + 10f64.powf(-(e - pool[j]) / 400.0));
            let draw = (0.3 * 4.0 * p * (1.0 - p)).min(2.0 * p.min(1.0 - p));
            let mut t = Cell {
                a: i,
                b: j,
                ..Default::default()
            };
            for _ in 0..games {
                let u: f64 = rng.random();
                t.n += 1.0;
                if u < p - draw / 2.0 {
                    t.score += 1.0;
                } else if u < p + draw / 2.0 {
                    t.score += 0.5;
                    t.draws += 1.0;
                }
            }
            tallies.push(t);
        }
    }
    (roles, tallies)
}

const POOL: [f64; 9] = [
    1320., 1468., 1608., 1742., 1923., 2204., 2363., 2500., 2596.,
];

#[test]
fn linear_curve_recovered_and_intervals_cover() {
    let truth = |t: f64| 1300.0 + 1200.0 * t;
    let ts: Vec<f64> = (0..=8).map(|i| i as f64 / 8.0).collect();
    let reps = 200;
    let (mut cover_curve, mut cover_t) = (0, 0);
    let (mut sum_a, mut sum_b) = (0.0, 0.0);
    for rep in 0..reps {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + rep);
        let (roles, tallies) = simulate(&mut rng, &truth, &ts, 40, &POOL, 30.0);
        let f = fit::fit(&roles, &tallies, ModelKind::Linear).unwrap();
        sum_a += f.theta[0];
        sum_b += f.theta[1];
        assert!(f.monotone(0.0));
        assert!(
            f.dispersion < 1.0,
            "draws should lower the dispersion: {}",
            f.dispersion
        );
        let t0 = 0.55;
        if (f.elo(t0) - truth(t0)).abs() <= Z95 * f.elo_sd(t0) {
            cover_curve += 1;
        }
        // setting for target 1800: true t* = 0.41667
        let inv = f.invert(1800.0, 0.0).unwrap();
        let true_t = 500.0 / 1200.0;
        if inv.t_lower <= true_t && true_t <= inv.t_upper {
            cover_t += 1;
        }
    }
    let (ma, mb) = (sum_a / reps as f64, sum_b / reps as f64);
    assert!((ma - 1300.0).abs() < 15.0, "intercept {ma}");
    assert!((mb - 1200.0).abs() < 25.0, "slope {mb}");
    let cc = cover_curve as f64 / reps as f64;
    let ct = cover_t as f64 / reps as f64;
    eprintln!("intercept {ma:.1} slope {mb:.1}; coverage: curve {cc:.3}, inversion {ct:.3}");
    // Nominal 95%, with the pool's truth drawn from its priors.
    assert!((0.90..=0.995).contains(&cc), "curve coverage {cc}");
    assert!((0.90..=0.995).contains(&ct), "inversion coverage {ct}");
}

#[test]
fn quadratic_curve_recovered() {
    // concave, increasing: diminishing returns
    let truth = |t: f64| 1250.0 + 1800.0 * t - 600.0 * t * t;
    let ts: Vec<f64> = (0..=10).map(|i| i as f64 / 10.0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (roles, tallies) = simulate(&mut rng, &truth, &ts, 200, &POOL, 0.0);
    let f = fit::fit(&roles, &tallies, ModelKind::Quadratic).unwrap();
    assert!(f.monotone(0.0));
    for t in [0.1, 0.5, 0.9] {
        let d = f.elo(t) - truth(t);
        assert!(
            d.abs() < 3.0 * f.elo_sd(t) + 5.0,
            "t={t}: {d} sd {}",
            f.elo_sd(t)
        );
    }
    // targets outside the curve are clamped and flagged
    let hi = f.invert(3000.0, 0.0).unwrap();
    assert_eq!(hi.range, fit::RangeFlag::Ceiling);
    assert_eq!(hi.t, 1.0);
    let lo = f.invert(900.0, 0.0).unwrap();
    assert_eq!(lo.range, fit::RangeFlag::Floor);
    assert_eq!(lo.t, 0.0);
}

#[test]
fn cubic_curve_recovered_where_the_quadratic_misses() {
    // S-shaped: flat at the weak end, steep in the middle, flattening near the ceiling
    let truth = |t: f64| 1000.0 + 300.0 * t + 2400.0 * t * t - 1600.0 * t * t * t;
    let ts: Vec<f64> = (0..=12).map(|i| i as f64 / 12.0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let (roles, tallies) = simulate(&mut rng, &truth, &ts, 300, &POOL, 0.0);
    let cubic = fit::fit(&roles, &tallies, ModelKind::Cubic).unwrap();
    assert!(cubic.monotone(0.0));
    let quad = fit::fit(&roles, &tallies, ModelKind::Quadratic).unwrap();
    let worst = |f: &fit::CurveFit| {
        ts.iter()
            .map(|&t| (f.elo(t) - truth(t)).abs())
            .fold(0.0, f64::max)
    };
    for &t in &ts {
        let d = cubic.elo(t) - truth(t);
        assert!(
            d.abs() < 3.0 * cubic.elo_sd(t) + 5.0,
            "t={t}: {d} sd {}",
            cubic.elo_sd(t)
        );
    }
    assert!(
        worst(&cubic) < worst(&quad),
        "cubic {} quadratic {}",
        worst(&cubic),
        worst(&quad)
    );
}

#[test]
fn a_curve_that_dips_inside_the_path_is_not_monotone() {
    // rising at both ends, falling around t = 0.5: the ends alone would say increasing
    let truth = |t: f64| 1400.0 + 1500.0 * t - 4500.0 * t * t + 3600.0 * t * t * t;
    let ts: Vec<f64> = (0..=12).map(|i| i as f64 / 12.0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (roles, tallies) = simulate(&mut rng, &truth, &ts, 400, &POOL, 0.0);
    let f = fit::fit(&roles, &tallies, ModelKind::Cubic).unwrap();
    assert!(f.slope(0.0) > 0.0 && f.slope(1.0) > 0.0, "{:?}", f.theta);
    assert!(f.slope(0.5) < 0.0, "{:?}", f.theta);
    assert!(!f.monotone(0.0));
}

#[test]
fn isotonic_matches_per_setting_ratings_of_a_monotone_truth() {
    let truth = |t: f64| 1300.0 + 1200.0 * t;
    let ts: Vec<f64> = (0..=8).map(|i| i as f64 / 8.0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (roles, tallies) = simulate(&mut rng, &truth, &ts, 60, &POOL, 0.0);
    let free: Vec<Role> = roles
        .iter()
        .map(|r| match r {
            Role::Subject(_) => Role::Free,
            o => o.clone(),
        })
        .collect();
    let f = fit::fit(&free, &tallies, ModelKind::Linear).unwrap();
    let ys: Vec<f64> = (9..roles.len()).map(|i| f.players[i].elo).collect();
    let ws: Vec<f64> = (9..roles.len()).map(|i| f.players[i].sd.powi(-2)).collect();
    let iso = fit::isotonic(&ys, &ws);
    assert!(iso.windows(2).all(|w| w[0] <= w[1]));
    for (k, t) in ts.iter().enumerate() {
        assert!(
            (iso[k] - truth(*t)).abs() < 4.0 * f.players[9 + k].sd,
            "t={t}"
        );
    }
    let _ = HashMap::<u8, u8>::new();
}

#[test]
fn planned_games_narrow_the_curve_as_a_refit_with_them_does() {
    // The planner's rank-one update against an actual refit with the same games added, each
    // scoring as the fit expects: the predicted Var r(t) matches the refit's.
    use skillcal::calibrate::fit::Side;
    let truth = |t: f64| 1300.0 + 1200.0 * t;
    let ts: Vec<f64> = (0..=8).map(|i| i as f64 / 8.0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let (roles, tallies) = simulate(&mut rng, &truth, &ts, 40, &POOL, 30.0);
    let f = fit::fit(&roles, &tallies, ModelKind::Linear).unwrap();
    let t = 0.3;
    for (opponent, n) in [(0usize, 200.0), (3, 400.0)] {
        let predicted = f
            .with_games(Side::Curve(t), Side::Player(opponent), n)
            .elo_sd(t);
        let mut roles2 = roles.clone();
        roles2.push(Role::Subject(t));
        let p = 1.0 / (1.0 + 10f64.powf(-(f.elo(t) - f.players[opponent].elo) / 400.0));
        // draws set so that the games vary as much as the fit's dispersion says, which the
        // refit then estimates again: a game's score varies by p (1 - p) - d / 4
        let d = 4.0 * p * (1.0 - p) * (1.0 - f.dispersion);
        let mut tallies2 = tallies.clone();
        tallies2.push(Cell {
            a: roles2.len() - 1,
            b: opponent,
            n,
            score: n * p,
            draws: n * d,
        });
        let refit = fit::fit(&roles2, &tallies2, ModelKind::Linear).unwrap();
        let (before, after) = (f.elo_sd(t), refit.elo_sd(t));
        eprintln!("sd at t: before {before:.2}, predicted {predicted:.2}, refit {after:.2}");
        assert!(after < 0.98 * before, "the games did not narrow the curve");
        assert!(
            (predicted - after).abs() < 0.05 * (before - after),
            "predicted {predicted:.2}, refit {after:.2}"
        );
    }
}

/// A tested setting that won every game drove the curve's coefficients to infinity: the fit
/// did not converge, the run wrote no table and its notes contradicted each other. Now the
/// curve is held finite by the weak prior at its tested settings (and says so), while a fit
/// that converges on its own keeps its numbers.
#[test]
fn a_setting_that_won_every_game_still_gets_a_finite_curve() {
    let roles = vec![
        Role::Subject(0.0),
        Role::Subject(1.0),
        Role::Anchored {
            mean: 1400.0,
            sd: 50.0,
        },
    ];
    let cell = |a: usize, score: f64| Cell {
        a,
        b: 2,
        n: 12.0,
        score,
        draws: 0.0,
    };
    let f = fit::fit(&roles, &[cell(0, 6.0), cell(1, 12.0)], ModelKind::Linear).unwrap();
    assert!(f.weak_prior);
    let (lo, hi) = (f.elo(0.0), f.elo(1.0));
    assert!((lo - 1400.0).abs() < 150.0, "{lo}");
    assert!(hi > lo + 200.0 && hi < 1400.0 + 3000.0, "{hi}");
    // 11 of 12: converges without the prior, and the prior is not added
    let g = fit::fit(&roles, &[cell(0, 6.0), cell(1, 11.0)], ModelKind::Linear).unwrap();
    assert!(!g.weak_prior);
}

/// A target just beyond a path end is planned while the curve's band there still holds it:
/// after a few games two settings 8 Elo apart flagged 1400 and 1600 beyond both ends and the
/// run stopped with its budget unspent. Once the band excludes a target it is left out.
#[test]
fn a_target_beyond_an_end_is_planned_while_the_band_holds_it() {
    use skillcal::calibrate::run::target_status;
    let cfg = crate::support::calibrate::config(6000, 40.0, "linear");
    let roles = vec![
        Role::Subject(0.0),
        Role::Subject(1.0),
        Role::Anchored {
            mean: 1700.0,
            sd: 30.0,
        },
    ];
    let cells = |n: f64, lo: f64, hi: f64| {
        vec![
            Cell {
                a: 0,
                b: 2,
                n,
                score: lo * n,
                draws: 0.0,
            },
            Cell {
                a: 1,
                b: 2,
                n,
                score: hi * n,
                draws: 0.0,
            },
        ]
    };
    // 4 games each, 50% and 75%: the path spans about 1700-1890, its ends known to ±hundreds
    let few = fit::fit(&roles, &cells(4.0, 0.5, 0.75), ModelKind::Linear).unwrap();
    let planned: Vec<f64> = target_status(&cfg, &few)
        .unwrap()
        .iter()
        .map(|s| s.0)
        .collect();
    assert!(
        planned.contains(&1600.0) && planned.contains(&2000.0),
        "{planned:?}"
    );
    // 400 games each: 1000 is far below the floor's band and left out
    let many = fit::fit(&roles, &cells(400.0, 0.5, 0.75), ModelKind::Linear).unwrap();
    let planned: Vec<f64> = target_status(&cfg, &many)
        .unwrap()
        .iter()
        .map(|s| s.0)
        .collect();
    assert!(
        !planned.contains(&1000.0) && !planned.contains(&2500.0),
        "{planned:?}"
    );
    assert!(planned.contains(&1800.0), "{planned:?}");
}
