//! Bad values stop a match before its first game, naming the flag, key or file that gave them;
//! options are sent in the order written.

use super::*;

/// A bad value for an option is an error naming engine, option, value and what is allowed,
/// before any game is played.
#[test]
fn bad_option_values_stop_the_match_before_the_first_game() {
    let dir = temp_dir("hard-options");
    let out = dir.join("out");
    let d = dir.to_str().unwrap();
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            format!("builtin:StrengthTable={d}/bad.csv,UCI_LimitStrength=true"),
            vec!["StrengthTable", "bad.csv"],
        ),
        (
            "builtin:UCI_LimitStrength=true,UCI_Elo=5000".into(),
            vec!["UCI_Elo", "5000", "allowed"],
        ),
        (
            format!("{STOCKFISH}:Skill Level=99"),
            vec!["Skill Level", "99", "allowed", "0 to 20"],
        ),
        (
            format!("{MOCK}:Hash=17"),
            vec!["Hash", "17", "allowed", "1 to 16"],
        ),
    ];
    for (spec, words) in cases {
        let _ = std::fs::remove_dir_all(&out);
        let o = skillcal(
            &dir,
            &[
                "match",
                "--no-progress",
                "--engine",
                &spec,
                "--engine",
                MOCK,
                "--nodes",
                "10",
                "--rounds",
                "1",
                "--max-plies",
                "20",
                "--out",
                "out",
            ],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{spec}: {}", text(&o));
        assert!(err.contains("engines[0]"), "{spec}: {}", text(&o));
        for w in words {
            assert!(err.contains(w), "{spec}: no '{w}' in {}", text(&o));
        }
        assert_eq!(rows(&out), 0, "{spec}: games were played");
    }
    // good values still play
    let _ = std::fs::remove_dir_all(&out);
    let o = skillcal(
        &dir,
        &[
            "match",
            "--no-progress",
            "--engine",
            &format!("{MOCK}:Hash=16"),
            "--engine",
            "builtin:UCI_LimitStrength=true,UCI_Elo=1500",
            "--nodes",
            "50",
            "--rounds",
            "1",
            "--max-plies",
            "12",
            "--out",
            "out",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(rows(&out), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad value is blamed on where it was given: the flag that set it, else the config file; with
/// neither a config nor a limit flag, the flags that would set the missing limit.
#[test]
fn bad_values_name_the_flag_or_the_file_that_gave_them() {
    let dir = temp_dir("hard-where");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let two = ["match", "--engine", "builtin", "--engine", "builtin:Hash=8"];
    for (extra, expect) in [
        (&["--nodes", "0"][..], "--nodes: must be positive"),
        (
            &["--nodes", "5", "--max-plies", "0"],
            "--max-plies: must be positive",
        ),
        (
            &["--nodes", "5", "--games", "0"],
            "--games: must be at least 1",
        ),
        (
            &["--nodes", "5", "--concurrency", "0"],
            "--concurrency: must be at least 1",
        ),
        (
            &["--nodes", "5", "--sprt", "5,0"],
            "--sprt: elo0 must be below elo1",
        ),
        (
            &["--nodes", "5", "--sprt", "0,5,0.7,0.05"],
            "--sprt: alpha: must lie in (0, 0.5)",
        ),
        (&["--tc", "garbage"], "--tc: time control 'garbage'"),
        (
            &[],
            "no limit for the engines: give --nodes, --tc, --movetime or --depth",
        ),
    ] {
        let mut args = two.to_vec();
        args.extend(extra);
        args.extend(["--out", o]);
        let (ok, stderr) = skillcal_stderr(&args);
        assert!(!ok && stderr.contains(expect), "{extra:?}: {stderr}");
        assert!(!out.exists(), "{extra:?}: a folder was made");
    }
    let (ok, stderr) = skillcal_stderr(&[
        "match",
        "--engine",
        "builtin:Bogus=1",
        "--engine",
        "builtin",
        "--nodes",
        "5",
        "--out",
        o,
    ]);
    assert!(
        !ok && stderr.contains("--engine builtin:Bogus=1: engines[0]") && stderr.contains("Bogus"),
        "{stderr}"
    );
    // a value from the config file names the file
    let cfg = dir.join("m.toml");
    std::fs::write(
        &cfg,
        "[limits]\nnodes = 5\n[[engines]]\ncommand = \"builtin\"\nname = \"a\"\ndir = \"/nonexistent\"\n\
         [[engines]]\ncommand = \"builtin\"\nname = \"b\"\n",
    )
    .unwrap();
    let (ok, stderr) = skillcal_stderr(&["match", "--config", cfg.to_str().unwrap(), "--out", o]);
    assert!(
        !ok && stderr.contains(&format!("{}: engines[0].dir (a)", cfg.display())),
        "{stderr}"
    );
    let (ok, stderr) = skillcal_stderr(&[
        "match",
        "--config",
        cfg.to_str().unwrap(),
        "--concurrency",
        "0",
        "--out",
        o,
    ]);
    assert!(
        !ok && stderr.contains("--concurrency: must be at least 1"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// `--tc 0/10` (0 moves per period) was played as sudden death in 10 s; it is refused, naming
/// the flag or the config file and key. (The engines do not exist: the clock is checked first.)
#[test]
fn zero_moves_per_period_is_refused_naming_the_flag_or_key() {
    let dir = temp_dir("hard-tc-zero");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let (ok, stderr) = skillcal_stderr(&[
        "match",
        "--engine",
        "/nonexistent/a",
        "--engine",
        "/nonexistent/b",
        "--tc",
        "0/10",
        "--out",
        o,
    ]);
    assert!(
        !ok && stderr.contains("--tc: time control '0/10': 0 moves per period"),
        "{stderr}"
    );
    let cfg = dir.join("m.toml");
    std::fs::write(
        &cfg,
        "[limits]\ntc = \"0/10+0.1\"\n[[engines]]\ncommand = \"/nonexistent/a\"\nname = \"a\"\n\
         [[engines]]\ncommand = \"/nonexistent/b\"\nname = \"b\"\n",
    )
    .unwrap();
    let (ok, stderr) = skillcal_stderr(&["match", "--config", cfg.to_str().unwrap(), "--out", o]);
    let want = format!(
        "{}: limits.tc: time control '0/10+0.1': 0 moves per period",
        cfg.display()
    );
    assert!(!ok && stderr.contains(&want), "{stderr}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Options go out in the order a config writes them, as cutechess and fastchess send them (an
/// engine may need one before another: Fairy-Stockfish's `VariantPath` before a `UCI_Variant`
/// it defines); they went out sorted by name. The engine's name and games.csv settings stay
/// sorted, so the same options in another order are the same engine, and a folder resumes.
#[test]
fn options_are_sent_in_the_order_written() {
    let dir = temp_dir("option-order");
    let log = dir.join("options.log");
    let config = |order: &str| {
        format!(
            "rounds = 1\n[limits]\nnodes = 300\n[adjudication]\nmax_plies = 20\n\
             [[engines]]\ncommand = \"{MOCK}\"\nargs = [\"--option-log\", \"{}\"]\n\
             options = {{ {order} }}\n\
             [[engines]]\nname = \"other\"\ncommand = \"{MOCK}\"\n",
            log.display()
        )
    };
    std::fs::write(
        dir.join("m.toml"),
        config("Hash = 4, FailAfter = 90, DelayMs = 0"),
    )
    .unwrap();
    let play = |games: &str| {
        let args = ["match", "--no-progress", "--config", "m.toml", "--out", "m"];
        skillcal(&dir, &[&args[..], &["--games", games]].concat())
    };
    let o = play("1");
    assert!(o.status.success(), "{}", text(&o));
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| {
            l.split(" value ")
                .next()
                .unwrap()
                .replace("setoption name ", "")
        })
        .filter(|n| n != "Seed")
        .collect();
    // once in the preflight, once for the game
    assert!(sent.len() >= 6, "{sent:?}");
    for three in sent.chunks(3) {
        assert_eq!(three, ["Hash", "FailAfter", "DelayMs"], "{sent:?}");
    }
    let games = read_games_csv(&dir.join("m/games.csv")).unwrap();
    let ours = &games[0];
    let (name, settings) = if ours.white == "other" {
        (&ours.black, &ours.black_settings)
    } else {
        (&ours.white, &ours.white_settings)
    };
    assert_eq!(settings, "DelayMs=0;FailAfter=90;Hash=4");
    assert!(name.ends_with("[DelayMs=0,FailAfter=90,Hash=4]"), "{name}");
    // the same options written in another order: the same engine, the folder resumes
    std::fs::write(
        dir.join("m.toml"),
        config("DelayMs = 0, Hash = 4, FailAfter = 90"),
    )
    .unwrap();
    let o = play("2");
    assert!(o.status.success(), "{}", text(&o));
    let games = read_games_csv(&dir.join("m/games.csv")).unwrap();
    assert_eq!(games.len(), 2);
    let names = |g: &skillcal::results::GameRow| [g.white.clone(), g.black.clone()];
    let mut a = names(&games[0]);
    let mut b = names(&games[1]);
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The flags replace the config file's values, so the file is checked with them laid over it:
/// a file of adjudication rules alone, given engines and a limit by flags, was refused for having
/// no engines; one with engines but no limit, given --nodes, for having no limit; `games = 4`
/// with --rounds 2 for more games than the file's rounds.
#[test]
fn a_config_is_checked_with_the_flags_laid_over_it() {
    let dir = temp_dir("hard-merged");
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "[adjudication]\nmax_plies = 12\n").unwrap();
    let engines = dir.join("engines.toml");
    std::fs::write(
        &engines,
        "rounds = 1\ngames = 4\n[[engines]]\ncommand = \"builtin\"\nname = \"a\"\n\
         [[engines]]\ncommand = \"builtin\"\nname = \"b\"\n",
    )
    .unwrap();
    for (cfg, flags, out) in [
        (
            &rules,
            &[
                "--engine",
                "builtin",
                "--engine",
                "builtin:Hash=8",
                "--nodes",
                "50",
            ][..],
            "r",
        ),
        (&engines, &["--nodes", "50", "--rounds", "2"][..], "e"),
    ] {
        let o = dir.join(out);
        let mut args = vec!["match", "--no-progress", "--config", cfg.to_str().unwrap()];
        args.extend(flags);
        args.extend(["--max-plies", "12", "--out", o.to_str().unwrap()]);
        let (ok, stderr) = skillcal_stderr(&args);
        assert!(ok, "{args:?}: {stderr}");
        assert!(rows(&o) >= 2, "{args:?}");
    }
    // what the flags leave wrong is still blamed on the file
    let (ok, stderr) = skillcal_stderr(&[
        "match",
        "--config",
        engines.to_str().unwrap(),
        "--out",
        dir.join("x").to_str().unwrap(),
    ]);
    assert!(
        !ok && stderr.contains(&format!("{}: games: 4 is more than", engines.display())),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
