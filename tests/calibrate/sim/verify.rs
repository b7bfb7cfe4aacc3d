//! The verification on simulated games: a mislabelled engine's offset measured, levels below the
//! anchors meeting the chained members, anchored members placed by their measured rating, and a
//! level that outscores its opponents followed.

use super::*;

#[test]
fn verify_measures_the_offset_of_a_mislabelled_engine() {
    use skillcal::calibrate::play::EngineSpec;
    use skillcal::calibrate::play::SimRunner;
    let cfg = crate::support::calibrate::config(100, 50.0, "linear");
    let dir = tmpdir("verify");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(&table, "elo,LimitNodes\n1000,100\n2500,60000\n").unwrap();
    // the engine plays 100 Elo above every label
    let runner = SimRunner {
        truth: Box::new(|e: &EngineSpec| {
            if let Some(l) = e.option("UCI_Elo") {
                return l.parse::<f64>().unwrap() + 100.0;
            }
            let i: usize = e.option("Skill Level").unwrap().parse().unwrap();
            crate::support::calibrate::ANCHORS[i]
        }),
        draw_rate: 0.3,
        seconds: None,
    };
    let levels = [1500.0, 1800.0, 2100.0];
    let rows = calibrate::verify::verify(&cfg, &table, &dir, &levels, 200, &runner).unwrap();
    for r in &rows {
        assert!(r.lower < r.measured && r.measured < r.upper);
        // the level's own games' noise, inside its interval (which carries the pool's too)
        let sd = r.sd_games.unwrap();
        assert!(
            sd > 5.0 && sd * 2.0 * 1.959_964 < r.upper - r.lower,
            "{r:?}"
        );
        assert!(
            (r.diff - 100.0).abs() < 2.5 * (r.upper - r.lower) / 2.0,
            "{r:?}"
        );
    }
    let back: Vec<skillcal::results::VerifyRow> =
        skillcal::results::read_csv(&dir.join("verify.csv")).unwrap();
    assert_eq!(back.len(), 3);
    let html = report::generate(&dir).unwrap();
    assert!(std::fs::read_to_string(html)
        .unwrap()
        .contains("Verification"));
    assert!(dir.join("verify.svg").exists());
    assert!(rows.iter().all(|r| r.measured_run_pool.is_none()));
    // beside a run's pool.csv, the same games are also rated on the run's pool ratings: a pool
    // 60 Elo above the anchors lifts every level by about as much
    let mut pool = String::from("name,anchor,anchor_sd,elo,lower,upper,games\n");
    for (i, a) in crate::support::calibrate::ANCHORS.iter().enumerate() {
        pool.push_str(&format!(
            "sf{i},{a},30,{},{},{},100\n",
            a + 60.0,
            a + 20.0,
            a + 100.0
        ));
    }
    std::fs::write(dir.join("pool.csv"), pool).unwrap();
    let rows = calibrate::verify::verify(&cfg, &table, &dir, &levels, 200, &runner).unwrap();
    for r in &rows {
        let lift = r.measured_run_pool.unwrap() - r.measured;
        assert!((lift - 60.0).abs() < 15.0, "{r:?}");
    }
    std::fs::remove_file(dir.join("pool.csv")).unwrap();
    // a rerun resumes the same table (a comment aside) and refuses another one
    std::fs::write(
        &table,
        "# relabelled\nelo,LimitNodes\n1000,100\n2500,60000\n",
    )
    .unwrap();
    assert_eq!(
        calibrate::verify::verify(&cfg, &table, &dir, &levels, 200, &runner)
            .unwrap()
            .len(),
        3
    );
    std::fs::write(&table, "elo,LimitNodes\n1000,200\n2500,60000\n").unwrap();
    let err = calibrate::verify::verify(&cfg, &table, &dir, &levels, 200, &runner).unwrap_err();
    assert!(format!("{err:#}").contains("another table"), "{err:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_below_the_anchors_meets_the_chained_members() {
    // a member chained below the anchors (no anchor value, placed by its guess)
    let text = crate::support::calibrate::config_text(100, 50.0, "linear")
        + "\n[[pool.member]]\nname = \"weak\"\nguess = 700\noptions = { Hash = 1 }\n";
    let cfg = CalibrationConfig::parse(&text, "test.toml").unwrap();
    let (dir, table, runner) =
        verify_setup("verify-chain", |e| (e.name == "weak").then_some(700.0));
    let rows = calibrate::verify::verify(&cfg, &table, &dir, &[700.0], 200, &runner).unwrap();
    // its nearest: the chained member at 700 and the lowest anchor, not Skill 0 and 1 alone
    assert_eq!(
        level_opponents(&dir.join("matches/v01-700")),
        vec!["sf0", "weak"]
    );
    let r = &rows[0];
    assert!(r.lower < 700.0 && 700.0 < r.upper, "{r:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A verification's folder `name`, a two-row LimitNodes table in it, and a simulated runner in
/// which a level plays at its UCI_Elo, a member `special` places plays there, and every other
/// member at its anchor.
pub(super) fn verify_setup(
    name: &str,
    special: impl Fn(&skillcal::calibrate::play::EngineSpec) -> Option<f64> + Send + Sync + 'static,
) -> (
    std::path::PathBuf,
    std::path::PathBuf,
    skillcal::calibrate::play::SimRunner,
) {
    let dir = tmpdir(name);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(&table, "elo,LimitNodes\n600,40\n2500,60000\n").unwrap();
    let runner = skillcal::calibrate::play::SimRunner {
        truth: Box::new(move |e| {
            if let Some(l) = e.option("UCI_Elo") {
                return l.parse::<f64>().unwrap();
            }
            special(e).unwrap_or_else(|| {
                let i: usize = e.option("Skill Level").unwrap().parse().unwrap();
                crate::support::calibrate::ANCHORS[i]
            })
        }),
        draw_rate: 0.3,
        seconds: None,
    };
    (dir, table, runner)
}

/// The pool members a verified level met in match folder `dir`, by name.
fn level_opponents(dir: &std::path::Path) -> Vec<String> {
    let games: Vec<skillcal::results::GameRow> =
        skillcal::results::read_csv(&dir.join("games.csv")).unwrap();
    let opponents: std::collections::BTreeSet<String> = games
        .into_iter()
        .map(|g| {
            if g.white.starts_with("skillcal") {
                g.black
            } else {
                g.white
            }
        })
        .collect();
    opponents.into_iter().collect()
}

/// With a measured pool, a level meets the members nearest it by their measured ratings, not
/// their anchor values (the anchors are soft, so a measured rating may stand away from its
/// anchor): here sf8, anchored at 2596 but measured and playing at 2000, is
/// the nearest member to a level at 2000, where by anchors sf4 and sf5 would be.
#[test]
fn verify_places_anchored_members_by_their_measured_rating() {
    let text = crate::support::calibrate::config_text(100, 50.0, "linear");
    let mut cfg = CalibrationConfig::parse(&text, "test.toml").unwrap();
    cfg.pool_measured.push(skillcal::results::PoolMemberRow {
        name: "sf8".into(),
        elo: Some(2000.0),
        games: 500,
        ..Default::default()
    });
    let (dir, table, runner) = verify_setup("verify-measured-place", |e| {
        (e.option("Skill Level") == Some("8")).then_some(2000.0)
    });
    calibrate::verify::verify(&cfg, &table, &dir, &[2000.0], 100, &runner).unwrap();
    assert_eq!(
        level_opponents(&dir.join("matches/v01-2000")),
        vec!["sf4", "sf8"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A level playing far above its nearest members (the table 600 Elo off, so it scores nearly
/// every game against them) plays a second match against the members
/// nearest where it played, and its rating comes from both: within its interval of the truth.
/// A level within the band plays no second match.
#[test]
fn verify_follows_a_level_that_outscores_its_opponents() {
    use skillcal::calibrate::play::EngineSpec;
    use skillcal::calibrate::play::SimRunner;
    let text = crate::support::calibrate::config_text(100, 50.0, "linear")
        + "\n[[pool.member]]\nname = \"weak\"\nguess = 600\noptions = { Hash = 1 }\n"
        + "\n[[pool.member]]\nname = \"weaker\"\nguess = 750\noptions = { Hash = 2 }\n";
    let cfg = CalibrationConfig::parse(&text, "test.toml").unwrap();
    let dir = tmpdir("verify-follow");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(&table, "elo,LimitNodes\n600,40\n2500,60000\n").unwrap();
    let runner = SimRunner {
        truth: Box::new(|e: &EngineSpec| {
            if let Some(l) = e.option("UCI_Elo") {
                let l: f64 = l.parse().unwrap();
                // 700 plays 600 Elo above its label; 1600 plays its label
                return if l < 1000.0 { l + 600.0 } else { l };
            }
            match e.name.as_str() {
                "weak" => return 600.0,
                "weaker" => return 750.0,
                _ => {}
            }
            let i: usize = e.option("Skill Level").unwrap().parse().unwrap();
            crate::support::calibrate::ANCHORS[i]
        }),
        draw_rate: 0.3,
        seconds: None,
    };
    let rows =
        calibrate::verify::verify(&cfg, &table, &dir, &[700.0, 1600.0], 100, &runner).unwrap();
    let opponents = |d: &str| -> std::collections::BTreeSet<String> {
        let games: Vec<skillcal::results::GameRow> =
            skillcal::results::read_csv(&dir.join("matches").join(d).join("games.csv")).unwrap();
        games
            .iter()
            .map(|g| {
                if g.white.starts_with("skillcal") {
                    g.black.clone()
                } else {
                    g.white.clone()
                }
            })
            .collect()
    };
    assert_eq!(
        opponents("v01-700"),
        ["weak", "weaker"].map(String::from).into()
    );
    // 1300 in truth: the members just above the ones it beat
    assert_eq!(
        opponents("v01-700-more"),
        ["sf0", "sf1"].map(String::from).into()
    );
    assert!(!dir.join("matches/v02-1600-more").exists());
    let r = &rows[0];
    assert_eq!(r.games, 400);
    assert!(r.lower < 1300.0 && 1300.0 < r.upper, "{r:?}");
    assert!(r.upper - r.lower < 150.0, "{r:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
