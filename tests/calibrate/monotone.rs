//! The monotone (I-spline) curve form: on a path flat over a long stretch and steep after it,
//! as Fairy-Stockfish's `Skill Level` is, the spline dips and the polynomials miss the flat
//! stretch, while the monotone fit follows it, rises everywhere and inverts.

use skillcal::calibrate::config::{CalibrationConfig, ModelKind};
use skillcal::calibrate::fit::{self, Curve, Role};
use skillcal::rating::problem::Cell;

/// Flat near 450 over [-0.2, 0.45] (a slight rise), then steep to 2600 at 1.
fn truth(t: f64) -> f64 {
    if t < 0.45 {
        450.0 + 60.0 * (t + 0.2)
    } else {
        489.0 + (2600.0 - 489.0) * ((t - 0.45) / 0.55).powf(1.3)
    }
}

/// The path against a pool every 200 from 200, 400 games a pair, at the expected score.
fn exact_games() -> (Vec<f64>, Vec<Role>, Vec<Cell>) {
    let pool: Vec<f64> = (0..14).map(|i| 200.0 + 200.0 * i as f64).collect();
    crate::spline::exact_games_of(truth, &pool, 400.0)
}

#[test]
fn monotone_form_follows_a_flat_stretch_rises_everywhere_and_inverts() {
    let t_min = -0.2;
    let (ts, roles, cells) = exact_games();
    let worst = |f: &fit::CurveFit| {
        ts.iter()
            .map(|&t| (f.elo(t) - truth(t)).abs())
            .fold(0.0, f64::max)
    };
    let base = Curve::new(ModelKind::Monotone, t_min, 6);
    let m = fit::fit_active(&base, |c| fit::fit(&roles, &cells, c)).unwrap();
    assert!(
        m.monotone(t_min),
        "theta {:?} held {:?}",
        m.theta,
        m.curve.held
    );
    // every free coefficient above the floor, the held ones out of the parameters
    assert!(!m.curve.held.is_empty(), "the active set held no term");
    assert!(
        m.theta[1..].iter().all(|&c| c >= fit::FLOOR_ELO),
        "{:?}",
        m.theta
    );
    assert_eq!(m.theta.len() + m.curve.held.len(), 1 + 7);
    let quadratic = fit::fit(&roles, &cells, ModelKind::Quadratic).unwrap();
    let (wm, wq) = (worst(&m), worst(&quadratic));
    eprintln!(
        "max error: monotone {wm:.1} ({} terms held), quadratic {wq:.1}",
        m.curve.held.len()
    );
    assert!(wm < 60.0, "monotone max error {wm}");
    assert!(wq > 2.0 * wm, "monotone {wm} vs quadratic {wq}");
    for target in [500.0, 800.0, 1500.0, 2300.0] {
        let inv = m.invert(target, t_min).unwrap();
        assert_eq!(inv.range, fit::RangeFlag::Ok, "{target}");
        assert!((m.elo(inv.t) - target).abs() < 1e-6);
        assert!(
            (truth(inv.t) - target).abs() < 80.0,
            "{target} -> t {} plays {}",
            inv.t,
            truth(inv.t)
        );
    }
    assert!(fit::model_formula(&m.curve).contains("7 cubic I-splines"));
}

#[test]
fn monotone_model_parses_with_knots_and_a_polynomial_with_knots_is_refused() {
    let base = crate::support::calibrate::config_text(200, 50.0, "monotone");
    let with = base.replace(
        "model = \"monotone\"\n",
        "model = \"monotone\"\nknots = 5\n",
    );
    let cfg = CalibrationConfig::parse(&with, "x.toml").unwrap();
    assert_eq!(cfg.fit.model, ModelKind::Monotone);
    assert_eq!(cfg.fit.n_knots(), 5);
    assert_eq!(ModelKind::Monotone.name(), "monotone");
    let err = CalibrationConfig::parse(&with.replace("\"monotone\"", "\"cubic\""), "x.toml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("fit.knots") && err.contains("monotone"),
        "{err}"
    );
}
