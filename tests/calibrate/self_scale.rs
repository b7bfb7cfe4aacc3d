//! Self-play on its own scale: when games between settings stretch their differences, a fitted
//! kappa recovers the stretch and the curve stays on the pool's scale; kappa = 1 does not.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillcal::calibrate::config::ModelKind;
use skillcal::calibrate::fit::{self, Role};
use skillcal::calibrate::fit::{profile, profile_by_t, Among, Stretch};
use skillcal::rating::problem::Cell;

use crate::support::calibrate::ANCHORS;

fn games(rng: &mut ChaCha8Rng, a: usize, b: usize, diff: f64, n: usize) -> Cell {
    let p = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
    let mut c = Cell {
        a,
        b,
        ..Default::default()
    };
    for _ in 0..n {
        c.n += 1.0;
        if rng.random::<f64>() < p {
            c.score += 1.0;
        }
    }
    c
}

const POOL: [f64; 4] = [800.0, 1200.0, 1600.0, 2000.0];
const KAPPA: f64 = 1.6;

/// Settings on Elo(t) = 800 + 1200 t, each meeting its nearest member 40 times and its
/// neighbours on the grid 100 times, those games stretched by [`KAPPA`].
fn world(seed: u64) -> (Vec<Role>, Vec<Cell>, Vec<Option<f64>>) {
    world_stretched(seed, Stretch::flat(KAPPA), 40, 100)
}

/// [`world`] with games between settings stretched by `stretch`, `pool` games against the
/// nearest member and `n` against the neighbour.
fn world_stretched(
    seed: u64,
    stretch: Stretch,
    pool: usize,
    n: usize,
) -> (Vec<Role>, Vec<Cell>, Vec<Option<f64>>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut roles: Vec<Role> = POOL
        .iter()
        .map(|&m| Role::Anchored { mean: m, sd: 0.0 })
        .collect();
    let ts: Vec<f64> = (0..=10).map(|i| i as f64 / 10.0).collect();
    let elo = |t: f64| 800.0 + 1200.0 * t;
    let mut cells = Vec::new();
    for (k, &t) in ts.iter().enumerate() {
        let i = roles.len();
        roles.push(Role::Subject(t));
        let j = POOL
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - elo(t)).abs().total_cmp(&(b.1 - elo(t)).abs()))
            .unwrap()
            .0;
        cells.push(games(&mut rng, i, j, elo(t) - POOL[j], pool));
        if k > 0 {
            let u = ts[k - 1];
            let d = stretch.at(t, u) * (elo(t) - elo(u));
            cells.push(games(&mut rng, i, i - 1, d, n));
        }
    }
    let among = roles
        .iter()
        .map(|r| match r {
            Role::Subject(t) => Some(*t),
            _ => None,
        })
        .collect();
    (roles, cells, among)
}

#[test]
fn a_fitted_kappa_recovers_the_stretch_and_the_slope() {
    let (mut kappas, mut slopes, mut slopes_one) = (0.0, 0.0, 0.0);
    let reps = 20;
    for rep in 0..reps {
        let (roles, cells, among) = world(40 + rep);
        let fit_at = |kappa: f64| {
            let among = Among {
                t: among.clone(),
                stretch: Stretch::flat(kappa),
            };
            fit::fit_among(&roles, &cells, &[], ModelKind::Linear, Some(&among))
        };
        let k = profile(|k| fit_at(k).ok().map(|f| f.loglik)).unwrap();
        let f = fit_at(k).unwrap();
        assert_eq!(f.stretch, Stretch::flat(k));
        let one = fit::fit(&roles, &cells, ModelKind::Linear).unwrap();
        kappas += k;
        slopes += f.theta[1];
        slopes_one += one.theta[1];
    }
    let (kappa, slope, slope_one) = (
        kappas / reps as f64,
        slopes / reps as f64,
        slopes_one / reps as f64,
    );
    assert!((kappa - KAPPA).abs() < 0.1, "mean kappa {kappa}");
    assert!((slope - 1200.0).abs() < 40.0, "mean slope {slope}");
    // counted as any game, self-play stretches the curve
    assert!(slope_one > 1260.0, "slope at kappa 1: {slope_one}");
}

#[test]
fn kappa_one_leaves_the_fit_unchanged() {
    let (roles, cells, among) = world(1);
    let one = Among {
        t: among,
        stretch: Stretch::ONE,
    };
    let a = fit::fit_among(&roles, &cells, &[], ModelKind::Linear, Some(&one)).unwrap();
    let b = fit::fit(&roles, &cells, ModelKind::Linear).unwrap();
    assert_eq!(a.players.len(), roles.len());
    for (x, y) in a.theta.iter().zip(&b.theta) {
        assert!((x - y).abs() < 1e-9);
    }
}

/// A stretch that falls along the path (2.2 at t = 0, 1.0 at t = 1, as the range's weak and
/// middle settings suggest): `profile_by_t` recovers it and the curve's weak end, where one
/// kappa for all pairs bends the curve; on a flat stretch it finds no slope. With a curve free
/// to bend the slope is weakly identified (one run's estimate scatters by about 0.5 at 40 pool
/// games a setting), so the settings here play 120 pool games and the means of 10 are tested.
#[test]
fn a_stretch_varying_with_t_is_recovered_and_one_kappa_is_not_enough() {
    let truth = Stretch {
        kappa: 1.5,
        slope: -(2.2f64).ln(),
    };
    let reps = 10;
    let (mut slope, mut kappa, mut err_by_t, mut err_flat) = (0.0, 0.0, 0.0, 0.0);
    for rep in 0..reps {
        let (roles, cells, among) = world_stretched(70 + rep, truth, 120, 200);
        let fit_at = |s: Stretch| {
            let among = Among {
                t: among.clone(),
                stretch: s,
            };
            fit::fit_among(&roles, &cells, &[], ModelKind::Quadratic, Some(&among))
        };
        let s = profile_by_t(|s| fit_at(s).ok().map(|f| f.loglik)).unwrap();
        slope += s.slope;
        kappa += s.kappa;
        let k = profile(|k| fit_at(Stretch::flat(k)).ok().map(|f| f.loglik)).unwrap();
        let (by_t, flat) = (fit_at(s).unwrap(), fit_at(Stretch::flat(k)).unwrap());
        // the weak end, where the two stretches differ most
        err_by_t += by_t.elo(0.0) - 800.0;
        err_flat += flat.elo(0.0) - 800.0;
    }
    let r = reps as f64;
    let (slope, kappa, err_by_t, err_flat) = (slope / r, kappa / r, err_by_t / r, err_flat / r);
    assert!((slope - truth.slope).abs() < 0.3, "mean slope {slope}");
    assert!((kappa - truth.kappa).abs() < 0.15, "mean kappa {kappa}");
    // (seen: -2 and -30) one kappa, too small for the weak pairs, drags the weak end down
    assert!(err_by_t.abs() < 15.0, "fit-by-t misses t = 0 by {err_by_t}");
    assert!(err_flat < -20.0, "one kappa misses t = 0 by {err_flat}");

    let mut flat_slopes = 0.0;
    for rep in 0..reps {
        let (roles, cells, among) = world_stretched(90 + rep, Stretch::flat(KAPPA), 120, 200);
        let s = profile_by_t(|s| {
            let among = Among {
                t: among.clone(),
                stretch: s,
            };
            let f = fit::fit_among(&roles, &cells, &[], ModelKind::Quadratic, Some(&among));
            f.ok().map(|f| f.loglik)
        })
        .unwrap();
        flat_slopes += s.slope;
    }
    assert!(
        (flat_slopes / r).abs() < 0.25,
        "mean slope {}",
        flat_slopes / r
    );
}

#[test]
fn the_config_names_a_bad_scale_and_a_hold_without_a_pool_file() {
    use skillcal::calibrate::config::{CalibrationConfig, SelfPlayScale};
    let base = crate::support::calibrate::config_text(6000, 40.0, "linear");
    let with = |fit: &str, pool: &str| {
        base.replace("[fit]\n", &format!("[fit]\n{fit}\n"))
            .replace("[pool]\n", &format!("[pool]\n{pool}\n"))
    };
    let cfg = CalibrationConfig::parse(&with("self_play_scale = \"fit\"", ""), "t.toml").unwrap();
    assert_eq!(cfg.fit.self_play_scale, SelfPlayScale::Fit);
    let cfg = CalibrationConfig::parse(&with("self_play_scale = 1.5", ""), "t.toml").unwrap();
    assert_eq!(cfg.fit.self_play_scale, SelfPlayScale::Fixed(1.5));
    let cfg =
        CalibrationConfig::parse(&with("self_play_scale = \"fit-by-t\"", ""), "t.toml").unwrap();
    assert_eq!(cfg.fit.self_play_scale, SelfPlayScale::FitByT);
    for bad in ["self_play_scale = \"guess\"", "self_play_scale = 9"] {
        let e = format!(
            "{:#}",
            CalibrationConfig::parse(&with(bad, ""), "t.toml").unwrap_err()
        );
        assert!(e.contains("self_play_scale") && e.contains("t.toml"), "{e}");
    }
    let e = format!(
        "{:#}",
        CalibrationConfig::parse(&with("", "hold = true"), "t.toml").unwrap_err()
    );
    assert!(e.contains("pool.hold") && e.contains("pool.file"), "{e}");
}

/// With self-play on its own scale every planned setting meets the pool member nearest its
/// estimate first: its games with other settings tie it to them by a fitted stretch, not to the
/// pool's scale. Counted as any game (kappa 1), the planner gives some settings only other
/// settings, and others a member further away first.
#[test]
fn with_self_play_on_its_own_scale_every_setting_meets_the_pool() {
    use skillcal::calibrate::{self, config::CalibrationConfig, Options};
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    let only_self_play = |scale: &str| {
        let dir = std::env::temp_dir().join(format!(
            "skillcal-test-pool-first-{}-{}",
            scale.len(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let text = crate::support::calibrate::config_text(1600, 30.0, "quadratic")
            .replace("[fit]\n", &format!("[fit]\n{scale}\n"));
        let cfg = CalibrationConfig::parse(&text, "pool-first.toml").unwrap();
        let runner = crate::support::calibrate::sim_runner([0.0; 9]);
        calibrate::calibrate(&cfg, &dir, &runner, &quiet).unwrap();
        let plan = std::fs::read_to_string(dir.join("plan.csv")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let mut rows = csv::Reader::from_reader(plan.as_bytes());
        let opponents = rows
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "opponents");
        let opponents = opponents.expect("plan.csv has an opponents column");
        let estimate = rows.headers().unwrap().iter().position(|h| h == "estimate");
        let estimate = estimate.expect("plan.csv has an estimate column");
        let (mut planned, mut only, mut not_nearest) = (0, 0, 0);
        for r in rows.records() {
            let r = r.unwrap();
            planned += 1;
            let names: Vec<&str> = r[opponents].split(' ').collect();
            if names.iter().all(|o| o.starts_with("skillcal_")) {
                only += 1;
            }
            // after the initial design: the first opponent is the member nearest the estimate
            // (the pool is simulated at its anchors, so the fitted members sit near them)
            let (Ok(e), Some(first)) = (r[estimate].parse::<f64>(), names[0].strip_prefix("sf"))
            else {
                continue;
            };
            let gap = |i: usize| (ANCHORS[i] - e).abs();
            let nearest = (0..ANCHORS.len()).map(gap).fold(f64::INFINITY, f64::min);
            if gap(first.parse().unwrap()) > nearest + 60.0 {
                not_nearest += 1;
            }
        }
        (planned, only, not_nearest)
    };
    let (planned, only, not_nearest) = only_self_play("self_play_scale = \"fit\"");
    assert!(planned > 10, "{planned} settings planned");
    assert_eq!(
        only, 0,
        "{only} of {planned} settings met only other settings"
    );
    assert_eq!(
        not_nearest, 0,
        "{not_nearest} of {planned} first met another member"
    );
    let (planned, only, not_nearest) = only_self_play("");
    assert!(
        only > 0,
        "kappa 1: {only} of {planned} settings met only other settings"
    );
    assert!(
        not_nearest > 0,
        "kappa 1: {not_nearest} of {planned} first met another member"
    );
}
