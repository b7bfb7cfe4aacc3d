//! The natural cubic spline model: its basis against hand-worked values, a fit of a path whose
//! steepness changes twice (where the polynomials fail), and its configuration.

use skillcal::calibrate::config::{CalibrationConfig, ModelKind};
use skillcal::calibrate::fit::{self, Curve, Role};
use skillcal::rating::problem::Cell;

#[test]
fn basis_matches_a_hand_worked_four_knot_spline() {
    // Knots 0, 1/3, 2/3, 1 (span 1, so no rescaling): s_1, s_2 by hand at the knots.
    let c = Curve::new(ModelKind::Spline, 0.0, 4);
    assert_eq!(c.knots.len(), 4);
    // r_j raw at t = 1: 1 - (1/3)^3 * 1 / (1/3) = 8/9 and (1/3)^3 ... = 2/9; each term is
    // divided by its value at the last knot, so it runs from 0 to 1.
    let want = [
        (0.0, [0.0, 0.0]),
        (1.0 / 3.0, [(1.0 / 27.0) / (8.0 / 9.0), 0.0]),
        (
            2.0 / 3.0,
            [(8.0 / 27.0) / (8.0 / 9.0), (1.0 / 27.0) / (2.0 / 9.0)],
        ),
        (1.0, [1.0, 1.0]),
    ];
    for (t, s) in want {
        let phi = fit::basis(&c, t);
        assert_eq!(phi.len(), 4);
        assert!((phi[0] - 1.0).abs() < 1e-12 && (phi[1] - t).abs() < 1e-12);
        for j in 0..2 {
            assert!(
                (phi[2 + j] - s[j]).abs() < 1e-12,
                "t={t} s{j}: {}",
                phi[2 + j]
            );
        }
    }
    // Knots -0.2, 0.2, 0.6, 1 over [-0.2, 1]: r_1(0.6) = 0.8^3 and r_1(1) = 1.2 (1.2^2 - 0.4^2).
    let w = Curve::new(ModelKind::Spline, -0.2, 4);
    let phi = fit::basis(&w, 0.6);
    assert!(
        (phi[2] - 0.512 / (1.2 * (1.44 - 0.16))).abs() < 1e-12,
        "{}",
        phi[2]
    );
    assert!(fit::basis(&w, 1.0)[2..]
        .iter()
        .all(|x| (x - 1.0).abs() < 1e-12));
}

#[test]
fn derivative_matches_finite_differences_and_the_tail_is_linear() {
    for n in [4, 6, 10] {
        let c = Curve::new(ModelKind::Spline, -0.2, n);
        for i in 0..=60 {
            let t = -0.4 + 1.6 * i as f64 / 60.0;
            let h = 1e-6;
            let (up, down) = (fit::basis(&c, t + h), fit::basis(&c, t - h));
            let d = fit::basis_deriv(&c, t);
            for k in 0..n {
                let fd = (up[k] - down[k]) / (2.0 * h);
                assert!(
                    (fd - d[k]).abs() < 1e-6,
                    "n={n} t={t} k={k}: {fd} vs {}",
                    d[k]
                );
            }
        }
        // Natural: constant slope beyond the boundary knots.
        for t in [1.1, 1.5, -0.3, -0.9] {
            let (a, b) = (
                fit::basis_deriv(&c, t),
                fit::basis_deriv(&c, 1.0f64.min(t) + 0.0),
            );
            if t > 1.0 {
                let b1 = fit::basis_deriv(&c, 1.0);
                assert!(
                    a.iter().zip(&b1).all(|(x, y)| (x - y).abs() < 1e-9),
                    "t={t}"
                );
            } else {
                assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-12));
                assert!(a[2..].iter().all(|x| *x == 0.0), "t={t}");
            }
        }
    }
}

/// The shape of results/range over [-0.2, 1] (its isotonic fit, rounded): slow at the weak end,
/// steep in the middle, a slower stretch at 0.8-0.9 and a last rise to the full engine (linear
/// between these points, so its kinks are harder than any real curve).
fn truth(t: f64) -> f64 {
    const PTS: [(f64, f64); 10] = [
        (-0.2, 550.0),
        (0.0, 690.0),
        (0.2, 930.0),
        (0.3, 1120.0),
        (0.45, 1520.0),
        (0.6, 1900.0),
        (0.7, 2150.0),
        (0.8, 2350.0),
        (0.9, 2520.0),
        (1.0, 2780.0),
    ];
    let i = PTS
        .iter()
        .rposition(|p| p.0 <= t)
        .unwrap_or(0)
        .min(PTS.len() - 2);
    let ((t0, e0), (t1, e1)) = (PTS[i], PTS[i + 1]);
    e0 + (e1 - e0) * (t - t0) / (t1 - t0)
}

/// Settings every 0.05 over [-0.2, 1] at `truth`, each against its three nearest hard-anchored
/// members of `pool` with `games` games at the expected score exactly (no sampling noise).
pub(crate) fn exact_games_of(
    truth: fn(f64) -> f64,
    pool: &[f64],
    games: f64,
) -> (Vec<f64>, Vec<Role>, Vec<Cell>) {
    let mut roles: Vec<Role> = pool
        .iter()
        .map(|&m| Role::Anchored { mean: m, sd: 0.0 })
        .collect();
    let ts: Vec<f64> = (0..=24).map(|i| -0.2 + 0.05 * i as f64).collect();
    let mut cells = Vec::new();
    for &t in &ts {
        let i = roles.len();
        roles.push(Role::Subject(t));
        let e = truth(t);
        let mut near: Vec<usize> = (0..pool.len()).collect();
        near.sort_by(|&a, &b| (pool[a] - e).abs().total_cmp(&(pool[b] - e).abs()));
        for &j in &near[..3] {
            let p = 1.0 / (1.0 + 10f64.powf(-(e - pool[j]) / 400.0));
            cells.push(Cell {
                a: i,
                b: j,
                n: games,
                score: games * p,
                draws: 0.0,
            });
        }
    }
    cells.sort_by_key(|c| (c.a.min(c.b), c.a.max(c.b)));
    (ts, roles, cells)
}

/// results/range's shape against a pool every 200 from 400, 2,000 games a pair.
fn exact_games() -> (Vec<f64>, Vec<Role>, Vec<Cell>) {
    let pool: Vec<f64> = (0..13).map(|i| 400.0 + 200.0 * i as f64).collect();
    exact_games_of(truth, &pool, 2000.0)
}

#[test]
fn spline_follows_a_plateau_the_polynomials_miss() {
    let t_min = -0.2;
    let (ts, roles, cells) = exact_games();
    let worst = |f: &fit::CurveFit| {
        ts.iter()
            .map(|&t| (f.elo(t) - truth(t)).abs())
            .fold(0.0, f64::max)
    };
    let spline = fit::fit(&roles, &cells, Curve::new(ModelKind::Spline, t_min, 6)).unwrap();
    assert!(spline.monotone(t_min), "theta {:?}", spline.theta);
    // The polynomial the fallback keeps: the first increasing one below the spline.
    let mut kind = ModelKind::Cubic;
    let poly = loop {
        let f = fit::fit(&roles, &cells, kind).unwrap();
        if f.monotone(t_min) || kind.simpler().is_none() {
            break f;
        }
        kind = kind.simpler().unwrap();
    };
    let (ws, wp) = (worst(&spline), worst(&poly));
    eprintln!(
        "max error: spline {ws:.1}, {} fallback {wp:.1}",
        kind.name()
    );
    assert!(ws < 40.0, "spline max error {ws}");
    assert!(wp > 2.0 * ws, "spline {ws} vs {} {wp}", kind.name());
    // Invertible: every target inside the curve maps back to its Elo.
    for target in [700.0, 1000.0, 1500.0, 2000.0, 2300.0, 2600.0] {
        let inv = spline.invert(target, t_min).unwrap();
        assert_eq!(inv.range, fit::RangeFlag::Ok, "{target}");
        assert!((spline.elo(inv.t) - target).abs() < 1e-6);
        assert!(inv.t_lower <= inv.t && inv.t <= inv.t_upper);
    }
    assert!(fit::model_formula(&spline.curve).contains("6 knots at t = -0.2, 0.04, 0.28"));
}

#[test]
fn spline_model_and_knots_parse_and_bad_knots_are_named() {
    let base = crate::support::calibrate::config_text(200, 50.0, "spline");
    let cfg = CalibrationConfig::parse(&base, "x.toml").unwrap();
    assert_eq!(cfg.fit.model, ModelKind::Spline);
    assert_eq!(cfg.fit.n_knots(), 6);
    assert_eq!(
        Curve::new(cfg.fit.model, cfg.plan.t_min, cfg.fit.n_knots())
            .knots
            .len(),
        6
    );
    assert_eq!(ModelKind::Spline.simpler(), Some(ModelKind::Cubic));
    let with = |k: &str| {
        base.replace(
            "model = \"spline\"\n",
            &format!("model = \"spline\"\nknots = {k}\n"),
        )
    };
    let cfg = CalibrationConfig::parse(&with("8"), "x.toml").unwrap();
    assert_eq!(cfg.fit.n_knots(), 8);
    for bad in ["3", "11", "0"] {
        let err = CalibrationConfig::parse(&with(bad), "x.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("fit.knots"), "{err}");
    }
    for bad in ["-1", "\"six\""] {
        let err = CalibrationConfig::parse(&with(bad), "x.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("knots"), "{err}");
    }
}

/// Every allowed knot count converges to a close fit. Before the terms were scaled to run from 0
/// to 1, ten knots left coefficients near 10^5 that the step-capped Newton solve did not reach in
/// its iterations, and the fit was off by up to 270 Elo.
#[test]
fn every_allowed_knot_count_fits_the_shape() {
    let (ts, roles, cells) = exact_games();
    for n in skillcal::calibrate::fit::KNOTS_RANGE {
        let f = fit::fit(&roles, &cells, Curve::new(ModelKind::Spline, -0.2, n)).unwrap();
        let worst = ts
            .iter()
            .map(|&t| (f.elo(t) - truth(t)).abs())
            .fold(0.0, f64::max);
        assert!(worst < 40.0, "{n} knots: max error {worst:.1}");
        assert!(f.monotone(-0.2), "{n} knots");
    }
}

#[test]
fn data_knots_sit_at_the_games_quantiles() {
    use skillcal::calibrate::fit::data_knots;
    // games at t: 0 (10), 0.2 (10), 0.4 (50), 0.6 (10), 1 (20): the quartiles of 100 games
    let tested = [
        (0.4, 50.0),
        (0.0, 10.0),
        (0.2, 10.0),
        (0.6, 10.0),
        (1.0, 20.0),
    ];
    assert_eq!(data_knots(&tested, 3), Some(vec![0.0, 0.4, 1.0]));
    // a setting without games does not count; ties leave no strictly increasing knots
    let tested = [(-0.3, 0.0), (0.0, 10.0), (0.5, 80.0), (1.0, 10.0)];
    assert_eq!(data_knots(&tested, 3), Some(vec![0.0, 0.5, 1.0]));
    assert_eq!(data_knots(&tested, 4), None);
}

/// `knots_at = "data"`: the same games refitted on a domain extended to t_min = -0.3 give the
/// same table where the even knots, moved with t_min, give another.
#[test]
fn data_knots_do_not_move_with_the_domain() {
    use skillcal::calibrate::{self, Options};
    let table_at = |knots_at: &str, t_min: Option<f64>, dir: &std::path::Path, fit_only| {
        let mut text = crate::support::calibrate::config_text(1500, 40.0, "spline")
            .replace("[fit]\n", &format!("[fit]\nknots = 4\n{knots_at}\n"));
        if let Some(t) = t_min {
            text = text.replace("[plan]\n", &format!("[plan]\nt_min = {t}\n"));
        }
        let cfg = CalibrationConfig::parse(&text, "knots.toml").unwrap();
        let runner = crate::support::calibrate::sim_runner([0.0; 9]);
        let opts = Options {
            fit_only,
            quiet: true,
        };
        calibrate::calibrate(&cfg, dir, &runner, &opts).unwrap();
        let table = std::fs::read_to_string(dir.join("uci_elo_table.csv")).unwrap();
        // the rows of 1400-2400, in range on both domains
        table
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .filter(|l| (1400..=2400).any(|e| l.starts_with(&format!("{e},"))))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    for (knots_at, same) in [("knots_at = \"data\"", true), ("", false)] {
        let dir = std::env::temp_dir().join(format!(
            "skillcal-test-data-knots-{same}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let before = table_at(knots_at, None, &dir, false);
        let after = table_at(knots_at, Some(-0.3), &dir, true);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(before.len(), 11, "{before:?}");
        assert_eq!(before == after, same, "{knots_at}: {before:?} -> {after:?}");
    }
}
