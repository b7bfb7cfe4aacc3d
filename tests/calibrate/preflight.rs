//! What a run hands the arena (the opening book, its order, the adjudication table, the engines'
//! programs) and the verification settings are checked before a run makes a folder: a config copied away from
//! its book failed only in the first match, after the run folder and a match folder were made.

use std::path::Path;

use crate::support::arena::skillcal_stderr as skillcal;
use crate::support::arena::temp_dir;

const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/uci_elo_table.csv");

fn shipped(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("configs")
            .join(name),
    )
    .unwrap()
}

/// Runs `skillcal ARGS --out OUT` (OUT inside `dir`), expecting a failure naming every part
/// of `expect`, and no OUT.
fn refused(dir: &Path, args: &[&str], expect: &[&str]) {
    let out = dir.join("out");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--out", out.to_str().unwrap()]);
    let (ok, stderr) = skillcal(&all);
    assert!(!ok, "{args:?} succeeded");
    for e in expect {
        assert!(stderr.contains(e), "{args:?}: no `{e}` in {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!out.exists(), "{args:?}: a folder was made");
}

#[test]
fn a_config_without_its_book_or_with_bad_settings_fails_before_any_folder() {
    let dir = temp_dir("preflight");
    let cfg = dir.join("default.toml");
    let pool = dir.join("pool.toml");
    let c = cfg.to_str().unwrap();
    // copied away from configs/: the relative book path no longer resolves
    std::fs::write(&cfg, shipped("default.toml")).unwrap();
    std::fs::write(&pool, shipped("pool.toml")).unwrap();
    let book = ["default.toml", "openings.file", "2moves_v1.epd"];
    refused(&dir, &["calibrate", c], &book);
    refused(&dir, &["verify", TABLE, "--config", c], &book);
    refused(&dir, &["tc-check", TABLE, "--config", c], &book);
    refused(
        &dir,
        &["pool", pool.to_str().unwrap()],
        &["pool.toml", "openings.file"],
    );

    // the book found again; each bad setting is named by its key
    let fixed = shipped("default.toml").replace(
        "file = \"books/",
        &format!("file = \"{}/configs/books/", env!("CARGO_MANIFEST_DIR")),
    );
    assert_ne!(fixed, shipped("default.toml"));
    let cases = [
        (
            fixed.replace("order = \"random\"", "order = \"shuffle\""),
            "key `openings.order`: 'shuffle'",
        ),
        (
            fixed.replace("max_plies = 400", "max_plies = \"many\""),
            "key `adjudication`",
        ),
        (
            fixed.replace("opponents_per_level = 2", "opponents_per_level = 0"),
            "key `verify.opponents_per_level`",
        ),
        (
            fixed.replace(
                "opponents_per_level = 2",
                "opponents_per_level = 2\nalso_against = [\"sf15.1-skill0\", \"nobody\"]",
            ),
            "key `verify.also_against`: `nobody` is not a member of the pool",
        ),
        (
            fixed.replace(
                "levels = [1400, 1600, 1800, 2000, 2200]",
                "levels = [1400, 1600, 1400]",
            ),
            "key `verify.levels`: 1400 given twice",
        ),
    ];
    for (text, expect) in cases {
        assert_ne!(text, fixed, "{expect}: the replacement missed");
        std::fs::write(&cfg, &text).unwrap();
        refused(
            &dir,
            &["verify", TABLE, "--config", c],
            &["default.toml", expect],
        );
    }
    // an engine that is not there: named by its key before any folder (it failed in the first
    // match, after the run's folder, plan and match folders were written)
    let gone = fixed.replace(
        "command = \"/usr/games/stockfish\"",
        "command = \"/usr/games/nofish\"",
    );
    assert_ne!(gone, fixed);
    std::fs::write(&cfg, &gone).unwrap();
    for cmd in ["calibrate", "verify", "tc-check"] {
        let mut args = vec![cmd];
        if cmd != "calibrate" {
            args.extend([TABLE, "--config"]);
        }
        args.push(c);
        refused(
            &dir,
            &args,
            &["default.toml", "key `pool.command`", "/usr/games/nofish"],
        );
    }
    let subject = fixed.replace(
        "command = \"builtin\"",
        "command = \"/usr/games/nofish-subject\"",
    );
    assert_ne!(subject, fixed);
    std::fs::write(&cfg, &subject).unwrap();
    refused(
        &dir,
        &["calibrate", c],
        &["key `subject.command`", "nofish-subject"],
    );
    let pool_fixed = shipped("pool.toml").replace(
        "file = \"books/",
        &format!("file = \"{}/configs/books/", env!("CARGO_MANIFEST_DIR")),
    );
    let pool_gone = pool_fixed.replacen(
        "command = \"/usr/games/fairy-stockfish\"",
        "command = \"/usr/games/nofish\"",
        1,
    );
    assert_ne!(pool_gone, pool_fixed);
    std::fs::write(&pool, &pool_gone).unwrap();
    refused(
        &dir,
        &["pool", pool.to_str().unwrap()],
        &[
            "key `pool.member[0].command`",
            "fairy11.1-skill-12",
            "nofish",
        ],
    );
    // a level the table lacks, given on the command line: it left a folder holding only the
    // lock file
    std::fs::write(&cfg, &fixed).unwrap();
    for cmd in ["verify", "tc-check"] {
        refused(
            &dir,
            &[cmd, TABLE, "--config", c, "--levels", "1500.5"],
            &["--levels: 1500.5 is not a UCI_Elo"],
        );
    }
    // the book is only needed to play: rating a verification's games does not read it
    std::fs::write(&cfg, shipped("default.toml")).unwrap();
    let rated = dir.join("rated");
    std::fs::create_dir_all(rated.join("matches")).unwrap();
    let (ok, stderr) = skillcal(&[
        "verify",
        TABLE,
        "--config",
        c,
        "--rate-only",
        "--out",
        rated.to_str().unwrap(),
    ]);
    assert!(!stderr.contains("openings"), "{ok} {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--fit-only` and `--rate-only` play nothing, so a folder without a run is a mistyped --out:
/// it was made and fitted on no games (a pool file of no games, a summary of none).
#[test]
fn refits_of_a_folder_without_a_run_make_nothing() {
    let dir = temp_dir("refit-nothing");
    let root = env!("CARGO_MANIFEST_DIR");
    let blend = format!("{root}/configs/families/blend.toml");
    let pool = format!("{root}/configs/pool.toml");
    refused(
        &dir,
        &["calibrate", &blend, "--fit-only"],
        &["--fit-only", "no calibrate.toml"],
    );
    refused(
        &dir,
        &["pool", &pool, "--fit-only"],
        &["--fit-only", "no pool.toml"],
    );
    refused(
        &dir,
        &["verify", TABLE, "--config", &blend, "--rate-only"],
        &["--rate-only", "no verification games"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
