//! Each failure kind of the mock engine is classified, the offender loses, its process is
//! restarted, and the run completes (an engine crashing in three games in a row stops it).

use crate::support::arena::{check_run_dir, temp_dir, MOCK, STOCKFISH};
use skillcal::arena::{
    read_games_csv, run_match, AdjudicationConfig, EngineConfig, GoLimits, MatchConfig, RunOptions,
    Timeouts, UciOptions,
};

fn mock(name: &str, options: &[(&str, &str)]) -> EngineConfig {
    EngineConfig {
        name: Some(name.into()),
        command: MOCK.into(),
        options: UciOptions::from(
            options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>(),
        ),
        ..Default::default()
    }
}

fn config(bad: EngineConfig, limits: GoLimits) -> MatchConfig {
    MatchConfig {
        engines: vec![bad, mock("good", &[])],
        limits,
        rounds: 2,
        concurrency: 2,
        adjudication: AdjudicationConfig {
            max_plies: Some(30),
            ..Default::default()
        },
        timeouts: Timeouts {
            handshake_ms: 2000,
            stall_ms: 400,
        },
        ..Default::default()
    }
}

fn nodes() -> GoLimits {
    GoLimits {
        nodes: Some(10),
        ..Default::default()
    }
}

/// Runs a match where engine "bad" fails in `mode` at its 3rd `go` of every process, and
/// checks that every game ended with `expect`, lost by "bad", at the expected ply.
fn failure_case(mode: &str, limits: GoLimits, expect: &str) {
    let dir = temp_dir(&format!("fail-{mode}-{expect}"));
    let cfg = config(mock("bad", &[("Fail", mode), ("FailAfter", "3")]), limits);
    let summary = run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    assert_eq!((summary.planned, summary.done), (4, 4));
    let rows = read_games_csv(&dir.join("games.csv")).unwrap();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.termination.as_str(), expect, "game {}: {r:?}", r.game_id);
        let bad_white = r.white == "bad";
        assert_eq!(
            r.result_str(),
            if bad_white { "0-1" } else { "1-0" },
            "{r:?}"
        );
        // Fails at its own 3rd move of each game: a fresh process every game (restarted).
        assert_eq!(r.plies, if bad_white { 4 } else { 5 }, "{r:?}");
        assert_eq!(r.white_settings.is_empty(), !bad_white);
    }
    check_run_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that crashes in every game: each game is its loss by `crash`, and the third in
/// a row stops the match (rather than losing every game to the end and exiting 0).
#[test]
fn crash_is_classified_and_three_in_a_row_stop_the_match() {
    let dir = temp_dir("fail-crash-stops");
    let mut cfg = config(
        mock("bad", &[("Fail", "crash"), ("FailAfter", "3")]),
        nodes(),
    );
    cfg.rounds = 3;
    cfg.concurrency = 1;
    let err = run_match(&cfg, &dir, &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("engine bad failed to start or crashed in 3 games in a row"),
        "{err}"
    );
    let rows = read_games_csv(&dir.join("games.csv")).unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for r in &rows {
        assert_eq!(r.termination.as_str(), "crash", "{r:?}");
        assert_eq!(
            r.result_str(),
            if r.white == "bad" { "0-1" } else { "1-0" },
            "{r:?}"
        );
    }
    check_run_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A crash names what the engine said last: Stockfish told of a network it could not load,
/// in `info string` lines, and exited at its first `go`.
#[test]
fn a_crash_names_the_engines_last_words() {
    let dir = temp_dir("fail-crash-words");
    let sf = EngineConfig {
        name: Some("sf".into()),
        command: STOCKFISH.into(),
        options: UciOptions::from(vec![("EvalFile".into(), "/nonexistent.nnue".into())]),
        ..Default::default()
    };
    let mut cfg = config(sf, nodes());
    cfg.concurrency = 1;
    let err = run_match(&cfg, &dir, &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("crashed in 3 games in a row"), "{err}");
    assert!(
        err.contains("it said last: info string ERROR")
            && err.contains("/nonexistent.nnue was not loaded"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hang_without_clock_is_a_stall() {
    failure_case("hang", nodes(), "stall");
}

/// A stall says which bare limit the engine was given: an engine may ignore `go nodes` (Toga
/// II, GNU Chess), and a deep `go depth` may outlast the stall limit (Toga II at depth 12).
#[test]
fn a_stall_names_the_limit_it_was_given() {
    let depth = GoLimits {
        depth: Some(3),
        ..Default::default()
    };
    for (limits, says) in [
        (nodes(), "given `go nodes` alone"),
        (depth, "given `go depth` alone"),
    ] {
        let dir = temp_dir(&format!("fail-stall-{}", says.len()));
        let mut cfg = config(mock("bad", &[("Fail", "hang"), ("FailAfter", "1")]), limits);
        cfg.rounds = 1;
        run_match(&cfg, &dir, &RunOptions::default()).unwrap();
        let games = crate::support::arena::read_pgn(&dir.join("games.pgn"));
        assert_eq!(games.len(), 2);
        for g in &games {
            let last = g.comments.last().map(|c| c.1.as_str()).unwrap_or("");
            assert!(last.contains(says), "{last}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn hang_with_clock_is_a_time_forfeit() {
    let tc = GoLimits {
        tc: Some("0.3+0".into()),
        time_margin_ms: Some(50),
        ..Default::default()
    };
    failure_case("hang", tc, "time_forfeit");
}

#[test]
fn slow_answer_is_a_time_forfeit() {
    let tc = GoLimits {
        tc: Some("0.2+0.01".into()),
        time_margin_ms: Some(50),
        ..Default::default()
    };
    failure_case("timeout", tc, "time_forfeit");
}

#[test]
fn illegal_move_is_classified() {
    failure_case("illegal", nodes(), "illegal_move");
}

#[test]
fn garbage_bestmove_is_an_illegal_move() {
    failure_case("garbage", nodes(), "illegal_move");
}

#[test]
fn noise_lines_do_not_disturb_a_game() {
    let dir = temp_dir("fail-noise");
    let cfg = config(mock("noisy", &[("Fail", "noise")]), nodes());
    run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    let rows = read_games_csv(&dir.join("games.csv")).unwrap();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.plies > 4), "{rows:?}");
    assert!(rows
        .iter()
        .all(|r| !["crash", "stall", "illegal_move", "time_forfeit"]
            .contains(&r.termination.as_str())));
    check_run_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_that_never_starts_is_a_config_error() {
    let dir = temp_dir("fail-nostart");
    let mut cfg = config(mock("dead", &[]), nodes());
    cfg.engines[0].args = vec!["--fail".into(), "nostart".into()];
    cfg.timeouts.handshake_ms = 300;
    let err = format!(
        "{:#}",
        run_match(&cfg, &dir, &RunOptions::default()).unwrap_err()
    );
    assert!(
        err.contains("engines[0]: engine dead") && err.contains("uciok"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_option_and_missing_binary_are_config_errors() {
    let dir = temp_dir("fail-option");
    let cfg = config(mock("typo", &[("Hsah", "8")]), nodes());
    let err = format!(
        "{:#}",
        run_match(&cfg, &dir, &RunOptions::default()).unwrap_err()
    );
    assert!(
        err.contains("unknown UCI option(s) Hsah") && err.contains("Hash"),
        "{err}"
    );
    let mut cfg = config(mock("x", &[]), nodes());
    cfg.engines[0].command = "/nonexistent/engine".into();
    let err = format!(
        "{:#}",
        run_match(&cfg, &dir, &RunOptions::default()).unwrap_err()
    );
    assert!(
        err.contains("engines[0].command") && err.contains("/nonexistent/engine"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_book_is_blamed_on_the_config_file_that_names_it() {
    let dir = temp_dir("fail-book");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.epd"), "not a position\n").unwrap();
    let config = dir.join("m.toml");
    std::fs::write(
        &config,
        format!(
            "[[engines]]\nname = \"a\"\ncommand = \"{MOCK}\"\n[[engines]]\nname = \"b\"\ncommand = \"{MOCK}\"\n\
             [limits]\nnodes = 10\n[openings]\nfile = \"{}\"\n",
            dir.join("bad.epd").display()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args(["match", "--no-progress", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("{}", config.display())) && err.contains("bad.epd:1"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shipped_match_configs_parse() {
    for name in ["smoke-match", "fairy-levels"] {
        let path = std::path::PathBuf::from(format!("configs/{name}.toml"));
        let cfg = MatchConfig::from_file(&path).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert!(cfg.engines.len() >= 2, "{name}");
        if let Some(book) = &cfg.openings.file {
            assert!(book.exists(), "{name}: {} missing", book.display());
        }
    }
}

/// Options are checked against the engine's declarations before any is sent: Stockfish 15.1
/// aborts on `Hash` = `abc`, and its crash named no option.
#[test]
fn options_are_checked_before_any_is_sent() {
    let dir = temp_dir("fail-option-first");
    for (k, v, allowed) in [
        ("Hash", "abc", "an integer from 1 to 33554432"),
        ("Threads", "1.5", "an integer from 1 to 1024"),
    ] {
        let sf = EngineConfig {
            name: Some("sf".into()),
            command: STOCKFISH.into(),
            options: UciOptions::from(vec![(k.to_string(), v.to_string())]),
            ..Default::default()
        };
        let err = format!(
            "{:#}",
            run_match(&config(sf, nodes()), &dir.join(k), &RunOptions::default()).unwrap_err()
        );
        assert!(
            err.contains(&format!(
                "engines[0] (sf): option {k} = '{v}' is not accepted: allowed: {allowed}"
            )),
            "{err}"
        );
    }
    // the engine was sent no option at all
    let log = dir.join("options.txt");
    let mut bad = mock("bad", &[("Hash", "abc")]);
    bad.args = vec!["--option-log".into(), log.to_string_lossy().into_owned()];
    let err = format!(
        "{:#}",
        run_match(
            &config(bad, nodes()),
            &dir.join("mock"),
            &RunOptions::default()
        )
        .unwrap_err()
    );
    assert!(err.contains("option Hash = 'abc' is not accepted"), "{err}");
    assert!(
        !log.exists(),
        "sent before the check: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A named `seed_option` the engine lacks, or of a type a seed cannot go into, is an error
/// before the match: the games sent it anyway, every one.
#[test]
fn seed_option_must_be_a_declared_spin_or_string_option() {
    let dir = temp_dir("fail-seed-option");
    let run = |e: EngineConfig| {
        format!(
            "{:#}",
            run_match(&config(e, nodes()), &dir, &RunOptions::default()).unwrap_err()
        )
    };
    let mut unknown = mock("typo", &[]);
    unknown.seed_option = Some("NoSuchSeed".into());
    let err = run(unknown);
    assert!(
        err.contains("engines[0].seed_option (typo): unknown UCI option 'NoSuchSeed'")
            && err.contains("the engine offers: Fail, FailAfter, DelayMs, Hash, Seed"),
        "{err}"
    );
    let mut check = EngineConfig::from_spec(STOCKFISH).unwrap();
    check.name = Some("sf".into());
    check.seed_option = Some("Ponder".into());
    let err = run(check);
    assert!(
        err.contains("engines[0].seed_option (sf): option 'Ponder' is of type check")
            && err.contains("spin or string"),
        "{err}"
    );
    // "" is still "no seed option", and a string option takes the seed as it is
    for opt in ["", "Fail"] {
        let mut ok = mock("ok", &[]);
        ok.seed_option = Some(opt.into());
        let out = dir.join(format!("ok-{opt}"));
        let cfg = MatchConfig {
            rounds: 1,
            ..config(ok, nodes())
        };
        // the mock takes a seed in `Fail` as an unknown failure mode: it plays normally
        let s = run_match(&cfg, &out, &RunOptions::default()).unwrap();
        assert_eq!(s.done, 2, "seed_option '{opt}'");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The preflight sends the seed option the values a game's seed can give it: an engine that
/// dies on one it declares valid (the mock above 999 of its 0..1000) fails there, naming the
/// option, not as a crash in every game.
#[test]
fn an_engine_dying_on_a_seed_value_fails_the_preflight() {
    let dir = temp_dir("fail-seed-value");
    let mut bad = mock("bad", &[]);
    bad.args = vec!["--die-above-seed".into(), "999".into()];
    bad.seed_option = Some("Seed".into());
    let out = dir.join("out");
    let err = format!(
        "{:#}",
        run_match(&config(bad, nodes()), &out, &RunOptions::default()).unwrap_err()
    );
    assert!(
        err.contains("engines[0].seed_option: after `setoption name Seed value 1000`")
            && err.contains("exit status: 3"),
        "{err}"
    );
    assert!(!out.exists(), "a folder was made");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine gone before a write is named with its exit status, not only a broken pipe. This
/// one closes its input before it answers `uciok`, so the next write surely fails.
#[test]
fn an_engine_that_exits_is_named_with_its_status() {
    let dir = temp_dir("fail-exit-status");
    let script = dir.join("closes-input.sh");
    std::fs::write(&script, "read line\nexec 0<&-\necho uciok\nexit 3\n").unwrap();
    // run by /bin/sh: a file just written may be busy for exec while another test forks
    let gone = EngineConfig {
        name: Some("gone".into()),
        command: "/bin/sh".into(),
        args: vec![script.to_string_lossy().into_owned()],
        ..Default::default()
    };
    let err = format!(
        "{:#}",
        run_match(
            &config(gone, nodes()),
            &dir.join("out"),
            &RunOptions::default()
        )
        .unwrap_err()
    );
    assert!(
        err.contains(
            "engines[0]: engine gone: exited (exit status: 3) before it was sent 'isready'"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
