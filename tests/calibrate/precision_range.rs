//! `precision_range` / `precision_outside`: the goal holds inside the range, a looser one
//! outside it, in the planner and in the table's `precision_met`; bad keys are named.

use skillcal::calibrate::{self, config::CalibrationConfig, Options};
use skillcal::results::{read_csv, RangeFlag, TargetRow};

fn text(extra: &str) -> String {
    crate::support::calibrate::config_text(6000, 40.0, "linear")
        .replace("precision = 40", &format!("precision = 40\n{extra}"))
}

#[test]
fn a_looser_goal_outside_the_range_is_met_with_fewer_games() {
    let everywhere = CalibrationConfig::parse(&text(""), "test.toml").unwrap();
    let ranged = CalibrationConfig::parse(
        &text("precision_range = [1600, 2000]\nprecision_outside = 120"),
        "test.toml",
    )
    .unwrap();
    assert_eq!(ranged.precision_for(1600.0, false), 40.0);
    assert_eq!(ranged.precision_for(2000.0, false), 40.0);
    assert_eq!(ranged.precision_for(1500.0, false), 120.0);
    assert_eq!(ranged.precision_for(2100.0, false), 120.0);
    // below the lowest reference the extrapolated goal wins, as before
    assert_eq!(ranged.precision_for(1000.0, true), 80.0);
    let run = |cfg: &CalibrationConfig, name: &str| {
        let dir = std::env::temp_dir().join(format!(
            "skillcal-test-precision-range-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let runner = crate::support::calibrate::sim_runner([0.0; 9]);
        let out = calibrate::calibrate(
            cfg,
            &dir,
            &runner,
            &Options {
                fit_only: false,
                quiet: true,
            },
        )
        .unwrap();
        let rows: Vec<TargetRow> = read_csv(&dir.join("table_details.csv")).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        (out, rows)
    };
    let (all, _) = run(&everywhere, "all");
    let (part, rows) = run(&ranged, "part");
    assert!(part.all_met, "the ranged goal is met");
    assert!(
        part.games < all.games,
        "{} games with the ranged goal, {} with it everywhere",
        part.games,
        all.games
    );
    // precision_met follows the target's own goal
    for r in rows.iter().filter(|r| r.range == RangeFlag::Ok) {
        let goal = ranged.precision_for(r.target, r.extrapolated);
        assert_eq!(r.precision_met, r.half_width <= goal, "{r:?}");
    }
    assert!(
        rows.iter()
            .any(|r| r.precision_met && r.half_width > 40.0 && !r.extrapolated),
        "some target outside the range is met at a half-width the inner goal would not accept"
    );
}

#[test]
fn bad_precision_range_keys_are_named() {
    for (extra, key) in [
        ("precision_range = [2000, 1600]", "precision_range"),
        ("precision_outside = 100", "precision_outside"),
        (
            "precision_range = [1600, 2000]\nprecision_outside = -5",
            "precision_outside",
        ),
    ] {
        let err = CalibrationConfig::parse(&text(extra), "test.toml").unwrap_err();
        assert!(
            err.to_string().contains(&format!("key `{key}`")),
            "{extra}: {err}"
        );
    }
}
