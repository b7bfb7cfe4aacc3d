//! The pool's files as written: the committed pool loads, and damage to pool.csv, pool-pairs.csv
//! or the covariance is named by file and line.

use super::*;

/// The shipped measured pool (its config, ratings, pairs and covariance) copied
/// beside a calibration config that names it, with `edit` applied to the lines of its `file`;
/// the config loaded, or its error.
fn load_edited_pool(
    name: &str,
    file: &str,
    edit: impl FnOnce(&mut Vec<String>),
) -> Result<skillcal::calibrate::config::CalibrationConfig, String> {
    load_edited_pool_files(name, |pool| edit_lines(&pool.join(file), edit))
}

/// The lines of `path`, edited in place.
fn edit_lines(path: &std::path::Path, edit: impl FnOnce(&mut Vec<String>)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    edit(&mut lines);
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// [`load_edited_pool`], `edit` given the copied pool folder.
fn load_edited_pool_files(
    name: &str,
    edit: impl FnOnce(&std::path::Path),
) -> Result<skillcal::calibrate::config::CalibrationConfig, String> {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/pool");
    let dir = tmpdir(name);
    let pool = dir.join("pool");
    std::fs::create_dir_all(&pool).unwrap();
    for f in [
        "pool.toml",
        "pool.csv",
        "pool-pairs.csv",
        "pool-covariance.csv",
    ] {
        std::fs::copy(from.join(f), pool.join(f)).unwrap();
    }
    edit(&pool);
    let cfg_path = dir.join("cal.toml");
    std::fs::write(&cfg_path, calibration_text(3, 400, (1000, 1800), 65536)).unwrap();
    let out = skillcal::calibrate::config::CalibrationConfig::load(&cfg_path)
        .map_err(|e| format!("{e:#}"));
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

/// Field `i` of a CSV line of the pool files (no quoted fields there).
fn field(line: &str, i: usize) -> String {
    line.split(',').nth(i).unwrap().to_string()
}

/// `line` with field `i` replaced by `v`.
fn with_field(line: &str, i: usize, v: &str) -> String {
    let mut f: Vec<&str> = line.split(',').collect();
    f[i] = v;
    f.join(",")
}

/// The committed pool file loads whole: every member rated, its covariance symmetric to the
/// three decimals it is written with (so the checks below pass real files).
#[test]
fn the_committed_pool_file_loads() {
    let cfg = load_edited_pool("pool-file-as-committed", "pool.csv", |_| {}).unwrap();
    let n = cfg.pool.members.len();
    assert!(n > 2);
    assert_eq!(cfg.pool_measured.len(), n);
    assert_eq!(cfg.pool_covariance.as_ref().map(|c| c.nrows()), Some(n));
    // a cell off from its mirror by the last written digit is rounding, not damage
    let cfg = load_edited_pool("pool-file-rounding", "pool-covariance.csv", |l| {
        let v: f64 = field(&l[3], 1).parse().unwrap();
        l[3] = with_field(&l[3], 1, &format!("{:.3}", v + 0.001));
    })
    .unwrap();
    assert_eq!(cfg.pool_covariance.map(|c| c.nrows()), Some(n));
}

/// pool.csv: a rating that is not a finite number (a NaN made every member NaN, and the run
/// exited 0 with a note about a singular matrix), or a member of pool.toml without its row
/// (the pool was then refitted from its games instead of held), is refused by file, line and
/// member.
#[test]
fn pool_csv_nan_or_a_missing_member_is_named() {
    let mut member = String::new();
    let err = load_edited_pool("pool-csv-nan", "pool.csv", |l| {
        member = field(&l[3], 0);
        l[3] = with_field(&l[3], 1, "NaN");
    })
    .unwrap_err();
    assert!(
        err.contains("pool.csv:4: ")
            && err.contains(&format!("member `{member}`"))
            && err.contains("elo NaN is not a finite number"),
        "{err}"
    );
    let err = load_edited_pool("pool-csv-missing", "pool.csv", |l| {
        member = field(&l[3], 0);
        l.remove(3);
    })
    .unwrap_err();
    assert!(
        err.contains("pool.csv: ")
            && err.contains(&format!("member `{member}`"))
            && err.contains("pool.toml has no row"),
        "{err}"
    );
}

/// pool-pairs.csv: a pair given twice (its games counted twice), a member paired with itself,
/// and a negative count (it said only "field 2: invalid digit found in string") are refused by
/// file, line and member or column.
#[test]
fn pool_pairs_twice_self_or_negative_are_named() {
    let mut pair = (String::new(), String::new());
    let mut last = 0;
    let err = load_edited_pool("pool-pairs-twice", "pool-pairs.csv", |l| {
        pair = (field(&l[2], 0), field(&l[2], 1));
        let again = l[2].clone();
        l.push(again);
        last = l.len();
    })
    .unwrap_err();
    assert!(
        err.contains(&format!("pool-pairs.csv:{last}: "))
            && err.contains(&format!(
                "`{}` – `{}` again (first on line 3)",
                pair.0, pair.1
            )),
        "{err}"
    );
    let err = load_edited_pool("pool-pairs-self", "pool-pairs.csv", |l| {
        pair.0 = field(&l[1], 0);
        l[1] = with_field(&l[1], 1, &pair.0);
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-pairs.csv:2: `{}` is paired with itself",
            pair.0
        )),
        "{err}"
    );
    let err = load_edited_pool("pool-pairs-negative", "pool-pairs.csv", |l| {
        l[1] = with_field(&l[1], 2, "-20");
    })
    .unwrap_err();
    assert!(
        err.contains("pool-pairs.csv:2: column `games`: `-20` is not a whole number >= 0"),
        "{err}"
    );
}

/// pool-covariance.csv: an off-diagonal cell unlike its mirror (99999), a variance that is
/// negative or zero, a NaN cell (it said "a member has no row") and a member without its row
/// are refused by file, line and members.
#[test]
fn pool_covariance_damage_is_named() {
    let mut names = (String::new(), String::new());
    let err = load_edited_pool("pool-cov-asym", "pool-covariance.csv", |l| {
        names = (field(&l[3], 0), field(&l[0], 1));
        l[3] = with_field(&l[3], 1, "99999");
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-covariance.csv:4: member `{}`, column `{}`: 99999 where member `{}`, column `{}` (line 2)",
            names.0, names.1, names.1, names.0
        )) && err.contains("symmetric"),
        "{err}"
    );
    for v in ["-5", "0"] {
        let err = load_edited_pool("pool-cov-variance", "pool-covariance.csv", |l| {
            names.0 = field(&l[2], 0);
            l[2] = with_field(&l[2], 2, v);
        })
        .unwrap_err();
        assert!(
            err.contains(&format!(
                "pool-covariance.csv:3: member `{}`: variance {v} (column `{}`) is not positive",
                names.0, names.0
            )),
            "{err}"
        );
    }
    // zero is the variance of a hard anchor (a constant): with the anchors' prior SD 0 the
    // anchored member's zero loads
    let anchored = load_edited_pool_files("pool-cov-hard", |pool| {
        edit_lines(&pool.join("pool.toml"), |l| {
            let at = l.iter().position(|x| x.starts_with("anchor_sd =")).unwrap();
            l[at] = "anchor_sd = 0.0".into();
        });
        edit_lines(&pool.join("pool-covariance.csv"), |l| {
            // an anchored member's row (row k holds the member of column k)
            let at = l
                .iter()
                .position(|x| x.starts_with("sf15.1-skill0,"))
                .unwrap();
            names.0 = field(&l[at], 0);
            l[at] = with_field(&l[at], at, "0.000");
        });
    })
    .unwrap();
    let i = anchored
        .pool
        .members
        .iter()
        .position(|m| m.name == names.0)
        .unwrap();
    assert!(anchored.pool.members[i].elo.is_some(), "{}", names.0);
    assert_eq!(anchored.pool_covariance.unwrap()[(i, i)], 0.0);
    let err = load_edited_pool("pool-cov-nan", "pool-covariance.csv", |l| {
        names = (field(&l[3], 0), field(&l[0], 3));
        l[3] = with_field(&l[3], 3, "NaN");
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-covariance.csv:4: member `{}`, column `{}`: `NaN` is not a finite number",
            names.0, names.1
        )),
        "{err}"
    );
    let err = load_edited_pool("pool-cov-missing", "pool-covariance.csv", |l| {
        names.0 = field(&l[3], 0);
        l.remove(3);
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-covariance.csv: member `{}` has no row",
            names.0
        )),
        "{err}"
    );
}
