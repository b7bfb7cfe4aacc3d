//! Match folders: one run a folder, a PGN cut mid-game repaired on resume, config paths relative
//! to the config's folder, a folder without a game taking a corrected config, a folder of foreign
//! games refused untouched.

use super::*;

/// Two runs on one output folder: the second fails at once naming the first; a lock left by a
/// killed run is taken over.
#[test]
fn a_second_run_on_the_same_folder_fails_and_names_the_holder() {
    let dir = temp_dir("hard-lock");
    let args = [
        "match",
        "--no-progress",
        "--engine",
        &format!("{MOCK}:DelayMs=40"),
        "--engine",
        MOCK,
        "--nodes",
        "10",
        "--rounds",
        "3",
        "--max-plies",
        "24",
        "--concurrency",
        "1",
        "--out",
        "out",
    ];
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let start = || {
        Command::new(skillcal_under_test())
            .current_dir(&dir)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = start();
    // wait until the first run has started its games
    let t0 = Instant::now();
    while !dir.join("out/games.csv").exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "first run never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = start().wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{}", text(&second));
    assert!(
        err.contains(&format!("pid {}", first.id())) && err.contains("in use"),
        "{}",
        text(&second)
    );
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", text(&first));
    let (n, _) = check_run_dir(&dir.join("out"));
    assert_eq!(n, 6, "{}", text(&first));

    // a run killed while holding the lock does not block the next one
    let extra: Vec<String> = args
        .iter()
        .map(|a| if a == "3" { "5".to_string() } else { a.clone() })
        .collect();
    let mut killed = Command::new(skillcal_under_test())
        .current_dir(&dir)
        .args(&extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    killed.kill().unwrap();
    killed.wait().unwrap();
    let o = skillcal(&dir, &extra.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o));
    let (n, _) = check_run_dir(&dir.join("out"));
    assert_eq!(n, 10);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PGN cut in the middle of a game whose CSV row is intact: on resume the row is dropped and
/// the game played again, so games.csv and games.pgn hold the same games.
#[test]
fn a_pgn_cut_mid_game_is_repaired_on_resume() {
    let dir = temp_dir("hard-pgn");
    let args = [
        "match",
        "--no-progress",
        "--engine",
        MOCK,
        "--engine",
        &format!("{MOCK}:Hash=2"),
        "--nodes",
        "10",
        "--rounds",
        "3",
        "--max-plies",
        "30",
        "--out",
        "out",
    ];
    let o = skillcal(&dir, &args);
    assert!(o.status.success(), "{}", text(&o));
    let pgn_path = dir.join("out/games.pgn");
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    let last = pgn.rfind("[Event ").unwrap();
    let cut = last + (pgn.len() - last) * 2 / 3;
    std::fs::write(&pgn_path, &pgn[..cut]).unwrap();
    assert_eq!(rows(&dir.join("out")), 6);

    let o = skillcal(&dir, &args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("(1 played now"),
        "{}",
        text(&o)
    );
    let (n, _) = check_run_dir(&dir.join("out"));
    assert_eq!(n, 6);
    // the replayed game is the same game (the mock plays by the position)
    assert_eq!(std::fs::read_to_string(&pgn_path).unwrap().len(), pgn.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Paths inside a config are relative to the config's folder; paths on the command line to
/// the working directory.
#[test]
fn paths_in_a_config_are_relative_to_its_folder() {
    let dir = temp_dir("hard-paths");
    let cfg_dir = dir.join("cfg");
    let elsewhere = dir.join("elsewhere");
    for d in [
        &cfg_dir.join("books"),
        &cfg_dir.join("engines"),
        &cfg_dir.join("tables"),
        &elsewhere,
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(
        cfg_dir.join("books/two.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(MOCK, cfg_dir.join("engines/mock")).unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        manifest.join("configs/uci_elo_table.csv"),
        cfg_dir.join("tables/t.csv"),
    )
    .unwrap();
    std::fs::write(
        cfg_dir.join("m.toml"),
        r#"
rounds = 2
[limits]
nodes = 40
[openings]
file = "books/two.epd"
order = "sequential"
[adjudication]
max_plies = 16
[[engines]]
name = "mock"
command = "engines/mock"
[[engines]]
name = "weak"
command = "builtin"
options = { UCI_LimitStrength = true, UCI_Elo = 1200, StrengthTable = "tables/t.csv" }
"#,
    )
    .unwrap();
    let config = cfg_dir.join("m.toml");
    let o = skillcal(
        &elsewhere,
        &[
            "match",
            "--no-progress",
            "--config",
            config.to_str().unwrap(),
            "--out",
            "out",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let (n, _) = check_run_dir(&elsewhere.join("out"));
    assert_eq!(n, 4);

    // `--book` on the command line is relative to the working directory: a position of its
    // own (1. c4), not in the config's book, so its games show which book they were played from
    let mine = "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -";
    std::fs::write(elsewhere.join("mine.epd"), format!("{mine}\n")).unwrap();
    let o = skillcal(
        &elsewhere,
        &[
            "match",
            "--no-progress",
            "--config",
            config.to_str().unwrap(),
            "--book",
            "mine.epd",
            "--out",
            "out2",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let (n, _) = check_run_dir(&elsewhere.join("out2"));
    assert_eq!(n, 4);
    for g in read_games_csv(&elsewhere.join("out2/games.csv")).unwrap() {
        assert!(g.opening_fen.starts_with(mine), "{}", g.opening_fen);
    }

    // a shipped config, from another folder
    let shipped: PathBuf = manifest.join("configs/sf-skill2-vs-4.toml");
    let o = skillcal(
        &elsewhere,
        &[
            "match",
            "--no-progress",
            "--config",
            shipped.to_str().unwrap(),
            "--rounds",
            "1",
            "--games",
            "1",
            "--nodes",
            "300",
            "--max-plies",
            "20",
            "--out",
            "out3",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(rows(&elsewhere.join("out3")), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match that stops in its preflight (an engine that would not start) leaves no folder (it
/// left one holding match.toml and the lock file alone); a folder that holds no game takes the
/// corrected command instead of refusing it as "a different config"; once a game is in, another
/// config is refused as before.
#[test]
fn a_folder_without_a_game_takes_the_corrected_config() {
    let dir = temp_dir("hardening-corrected");
    let run = |engine: &str, nodes: &str| {
        skillcal(
            &dir,
            &[
                "match",
                "--out",
                "m",
                "--engine",
                engine,
                "--engine",
                STOCKFISH,
                "--games",
                "2",
                "--nodes",
                nodes,
                "--max-plies",
                "40",
            ],
        )
    };
    let o = run("/bin/true", "300");
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("engine true"), "{}", text(&o));
    assert!(!dir.join("m").exists());
    // a folder an earlier build left after its preflight failed
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(
        dir.join("m/match.toml"),
        "rounds = 1\n[[engines]]\nname = \"x\"\ncommand = \"/bin/true\"\n",
    )
    .unwrap();
    let o = run(MOCK, "300");
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(rows(&dir.join("m")), 2);
    let o = run(MOCK, "301");
    assert!(
        !o.status.success() && text(&o).contains("different config (limits differ"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder holding games but no match.toml is not this match's: a cutechess PGN there was
/// erased by the repair (it keeps only games with a skillcal `GameId`), a merged games.csv lost
/// its rows with repeated ids, and another match's games were adopted as this one's. Refused now,
/// the files untouched.
#[test]
fn a_folder_of_foreign_games_is_refused_untouched() {
    let dir = temp_dir("hardening-foreign");
    let run = || {
        skillcal(
            &dir,
            &[
                "match",
                "--out",
                "m",
                "--engine",
                MOCK,
                "--engine",
                MOCK,
                "--games",
                "2",
                "--nodes",
                "300",
                "--max-plies",
                "20",
            ],
        )
    };
    std::fs::create_dir_all(dir.join("m")).unwrap();
    let pgn = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    std::fs::write(dir.join("m/games.pgn"), pgn).unwrap();
    let o = run();
    assert!(
        !o.status.success() && text(&o).contains("holds games but no match.toml"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("m/games.pgn")).unwrap(),
        pgn
    );
    assert!(!dir.join("m/match.toml").exists());
    // a match's games.csv copied into a new folder without its match.toml: refused too
    std::fs::remove_dir_all(dir.join("m")).unwrap();
    assert!(run().status.success());
    std::fs::remove_file(dir.join("m/match.toml")).unwrap();
    let csv = std::fs::read_to_string(dir.join("m/games.csv")).unwrap();
    let o = run();
    assert!(!o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("m/games.csv")).unwrap(),
        csv
    );
    let _ = std::fs::remove_dir_all(&dir);
}
