//! Self-play on its own scale: when games between settings stretch their differences, a fitted
//! kappa recovers the stretch and the curve stays on the pool's scale; kappa = 1 does not.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillcal::calibrate::config::ModelKind;
use skillcal::calibrate::fit::{self, Role};
use skillcal::calibrate::self_scale::{profile, Among};
use skillcal::rating::problem::Cell;

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
fn world(seed: u64) -> (Vec<Role>, Vec<Cell>, Vec<bool>) {
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
        cells.push(games(&mut rng, i, j, elo(t) - POOL[j], 40));
        if k > 0 {
            let d = KAPPA * (elo(t) - elo(ts[k - 1]));
            cells.push(games(&mut rng, i, i - 1, d, 100));
        }
    }
    let among = (0..roles.len()).map(|i| i >= POOL.len()).collect();
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
                players: among.clone(),
                kappa,
            };
            fit::fit_among(&roles, &cells, &[], ModelKind::Linear, Some(&among))
        };
        let k = profile(|k| fit_at(k).ok().map(|f| f.loglik)).unwrap();
        let f = fit_at(k).unwrap();
        assert!((f.kappa - k).abs() < 1e-12);
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
        players: among,
        kappa: 1.0,
    };
    let a = fit::fit_among(&roles, &cells, &[], ModelKind::Linear, Some(&one)).unwrap();
    let b = fit::fit(&roles, &cells, ModelKind::Linear).unwrap();
    assert_eq!(a.players.len(), roles.len());
    for (x, y) in a.theta.iter().zip(&b.theta) {
        assert!((x - y).abs() < 1e-9);
    }
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
