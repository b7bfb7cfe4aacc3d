//! Issue 11, the arena's half: defects found from outside, each shown through the command line.
//!
//! Every test here failed on the build before the fix; `SKILLCAL_UNDER_TEST=/path/to/old/skillcal
//! cargo test --release --test arena_hardening` runs them against another build.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::arena::{
    check_run_dir, skillcal_stderr, skillcal_under_test, temp_dir, MOCK, STOCKFISH,
};
use skillcal::arena::read_games_csv;

fn skillcal(cwd: &Path, args: &[&str]) -> Output {
    Command::new(skillcal_under_test())
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn rows(dir: &Path) -> usize {
    match read_games_csv(&dir.join("games.csv")) {
        Ok(r) => r.len(),
        Err(_) => 0,
    }
}

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

/// Engine output the arena's old parser panicked on (depth past 255, numbers past 64 bits,
/// an option whose range overflows) and extreme limits (`--depth 256`, `--tc 300/10+0`) play
/// normal games, and `go` carries well-formed values.
#[test]
fn deep_reports_and_extreme_limits_do_not_crash_the_arena() {
    let dir = temp_dir("hard-deep");
    let log = dir.join("go.log");
    let deep = MOCK.to_string();
    for limits in [vec!["--depth", "256"], vec!["--tc", "300/10+0"]] {
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_dir_all(dir.join("out"));
        // the mock's own arguments cannot go through --engine, so use its environment
        let mut cmd = Command::new(skillcal_under_test());
        cmd.current_dir(&dir)
            .env("MOCK_FAIL", "deep")
            .env("MOCK_GO_LOG", &log)
            .args([
                "match",
                "--no-progress",
                "--engine",
                &deep,
                "--engine",
                &format!("{MOCK}:Hash=3"),
                "--rounds",
                "2",
                "--max-plies",
                "40",
                "--out",
                "out",
            ])
            .args(&limits)
            .stdin(Stdio::null());
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{limits:?}: {}", text(&o));
        let (n, terms) = check_run_dir(&dir.join("out"));
        assert_eq!(n, 4, "{limits:?}");
        for bad in ["crash", "illegal_move", "stall", "time_forfeit"] {
            assert!(!terms.contains_key(bad), "{limits:?}: {terms:?}");
        }
        // every `go` is `go` then keyword / non-negative integer pairs
        let gos = std::fs::read_to_string(&log).unwrap();
        assert!(gos.lines().count() >= 8, "{gos}");
        for line in gos.lines() {
            let toks: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(toks[0], "go", "{line}");
            assert!(toks.len() % 2 == 1, "{line}");
            for pair in toks[1..].chunks(2) {
                assert!(
                    [
                        "wtime",
                        "btime",
                        "winc",
                        "binc",
                        "movestogo",
                        "depth",
                        "nodes",
                        "movetime"
                    ]
                    .contains(&pair[0])
                        && pair[1].parse::<u64>().is_ok(),
                    "{line}"
                );
            }
            if limits[0] == "--depth" {
                assert!(line.contains("depth 256"), "{line}");
            } else {
                let mtg: u64 = toks[toks.iter().position(|t| *t == "movestogo").unwrap() + 1]
                    .parse()
                    .unwrap();
                assert!((1..=300).contains(&mtg), "{line}");
            }
        }
    }
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

/// The same engine twice on the command line (self-play) has no way to be named there: the
/// second gets `#2`. It was refused, asking for a `name` only a config file can give.
#[test]
fn the_same_engine_twice_on_the_command_line_plays_itself() {
    let dir = temp_dir("self-play");
    let o = skillcal(
        &dir,
        &[
            "match",
            "--out",
            "run",
            "--engine",
            MOCK,
            "--engine",
            MOCK,
            "--engine",
            MOCK,
            "--round-robin",
            "--rounds",
            "1",
            "--nodes",
            "5",
            "--max-plies",
            "10",
            "--no-progress",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let rows = read_games_csv(&dir.join("run/games.csv")).unwrap();
    let mut names: Vec<String> = rows
        .iter()
        .flat_map(|r| [r.white.clone(), r.black.clone()])
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(
        names,
        [
            "skillcal-mock-engine",
            "skillcal-mock-engine#2",
            "skillcal-mock-engine#3"
        ]
    );
    assert_eq!(rows.len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--games N` plays N games a pairing, as cutechess's `-games` does (it played the one round's
/// 2 and said nothing); `games` above what the rounds play is an error naming both; an EPD
/// book that starts with a byte order mark reads as without it (it failed as a bad FEN).
#[test]
fn games_counts_as_asked_and_a_bom_book_reads() {
    let dir = temp_dir("games-count");
    let book = dir.join("bom.epd");
    std::fs::write(
        &book,
        b"\xef\xbb\xbfrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let common = [
        "match",
        "--engine",
        MOCK,
        "--engine",
        MOCK,
        "--nodes",
        "5",
        "--max-plies",
        "10",
    ];
    let o = skillcal(
        &dir,
        &[
            &common[..],
            &[
                "--games",
                "6",
                "--book",
                "bom.epd",
                "--out",
                "six",
                "--no-progress",
            ],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(rows(&dir.join("six")), 6);
    let o = skillcal(
        &dir,
        &[
            &common[..],
            &[
                "--games",
                "6",
                "--rounds",
                "2",
                "--out",
                "capped",
                "--no-progress",
            ],
        ]
        .concat(),
    );
    assert!(!o.status.success());
    assert!(
        text(&o).contains("games: 6 is more than the 4 games a pairing plays in 2 round(s)"),
        "{}",
        text(&o)
    );
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
