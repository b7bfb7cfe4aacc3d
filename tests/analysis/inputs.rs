//! Inputs and the cache without an engine: `[%clk]` parsing, position keys, book moves skipped,
//! and an eval-cache.csv torn by a kill (the torn line is dropped, the rest kept, appends work; a file from before the line column
//! gains it).

use skillcal::analysis::EvalCache;
use skillcal::analysis::Score;
use skillcal::analysis::{parse_clock, position_key, read_pgn_file};
use skillcal::analysis::{Eval, Limit};

#[test]
fn clocks_and_keys() {
    assert_eq!(parse_clock("[%clk 0:05:00]"), Some(300.0));
    assert_eq!(parse_clock(" [%eval 0.3] [%clk 1:02:03.5] "), Some(3723.5));
    assert_eq!(parse_clock("book"), None);
    let start = shakmaty::Chess::default();
    assert_eq!(
        position_key(&start),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    );
    assert_eq!(Limit::parse("nodes=20000").unwrap(), Limit::Nodes(20000));
    assert_eq!(Limit::parse("depth=12").unwrap().to_string(), "depth=12");
    assert!(Limit::parse("time=3").is_err());
    // 0 is no limit to Stockfish (it searches until stopped); a depth past any engine's is a typo
    for bad in [
        "nodes=0",
        "movetime=0",
        "depth=0",
        "depth=246",
        "depth=4294967297",
    ] {
        let e = Limit::parse(bad).unwrap_err().to_string();
        assert!(e.contains(bad) && e.contains("must be"), "{bad}: {e}");
    }
    assert_eq!(Limit::parse("depth=245").unwrap(), Limit::Depth(245));
}

/// Bad arguments and engine options fail at once, naming what is wrong, before anything is
/// searched with a value the engine would crash on or silently replace.
#[test]
fn bad_analyse_arguments_are_named() {
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n",
    )
    .unwrap();
    let out = dir.join("out");
    // `skillcal analyse PGN --out OUT --quiet ARGS`: (success, stderr)
    let analyse = |args: &[&str]| {
        let run = std::process::Command::new(crate::support::arena::skillcal_under_test())
            .arg("analyse")
            .arg(&pgn)
            .arg("--out")
            .arg(&out)
            .arg("--quiet")
            .args(args)
            .output()
            .unwrap();
        (
            run.status.success(),
            String::from_utf8_lossy(&run.stderr).into_owned(),
        )
    };
    for (args, expect) in [
        // as few as rate and report take: 5 resamples give no 2.5% tail to read
        (
            &["--bootstrap", "5"][..],
            "0 (no intervals) or 100 to 1000000",
        ),
        (&["--bootstrap", "1"], "0 (no intervals) or 100 to 1000000"),
        (&["--band", "0"], "--band"),
        (&["--concurrency", "0"], "--concurrency"),
        (
            &["--limit", "nodes=0"],
            "limit 'nodes=0': must be at least 1",
        ),
        (
            &["--engine", "builtin:Hash=abc"],
            "option Hash = 'abc' is not accepted",
        ),
        (&["--engine", "builtin:Hsh=3"], "unknown UCI option Hsh"),
        (
            &["--engine", "builtin", "--engine-option", "Style=odd"],
            "option Style = 'odd' is not accepted: allowed: one of",
        ),
    ] {
        let (ok, stderr) = analyse(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // an engine that refuses its options fails before the folder and its cache are made (it
    // failed inside the evaluation, "stopped after 0 of N positions", the cache written); the
    // move-matching flags need --human, and a bad --match-limit is named
    let _ = std::fs::remove_dir_all(&out);
    for (args, expect) in [
        (
            &["--engine", "builtin", "--engine-option", "Bogus=1"][..],
            "--engine builtin: engine",
        ),
        (
            &[
                "--human",
                pgn.to_str().unwrap(),
                "--match-engine",
                "builtin:Bogus=1",
            ],
            "--match-engine builtin:Bogus=1: engine",
        ),
        (&["--match-engine", "builtin"], "--human"),
        (&["--match-limit", "nodes=5"], "--human"),
        (&["--band", "50"], "--human"),
        (
            &["--human", pgn.to_str().unwrap(), "--match-limit", "xyz"],
            "--match-limit: limit 'xyz'",
        ),
    ] {
        let (ok, stderr) = analyse(args);
        assert!(!ok && stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?}: the output folder was made");
    }
    // a folder without games is named, and the output folder is not made for it
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let fresh = dir.join("fresh-out");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("analyse")
        .arg(&empty)
        .arg("--out")
        .arg(&fresh)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success() && stderr.contains("empty") && stderr.contains("no games.pgn"),
        "{stderr}"
    );
    assert!(!fresh.exists(), "an output folder was made for no games");
    // so is a file without a move to analyse (not PGN, every game skipped, book only): it was
    // analysed as "1 games (0 moves analysed)"
    let not_pgn = dir.join("notes.txt");
    std::fs::write(&not_pgn, "just some notes\n").unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("analyse")
        .arg(&not_pgn)
        .arg("--out")
        .arg(&fresh)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success()
            && stderr.contains("notes.txt")
            && stderr.contains("no move to analyse"),
        "{stderr}"
    );
    assert!(
        !fresh.exists(),
        "an output folder was made for a file without games"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_moves_are_replayed_not_analysed() {
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 {book} e5 {book} 2. Nf3 {+0.3/9 0.1s} Nc6 1-0\n\n\
         [White \"c\"]\n[Black \"d\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n",
    )
    .unwrap();
    let games = read_pgn_file(&pgn).unwrap();
    // The second game has an illegal move and is skipped with a warning.
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.moves.len(), 2);
    assert_eq!(g.moves[0].uci, "g1f3");
    assert_eq!(g.positions.len(), 3);
    assert_eq!(g.ply_offset, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn torn_cache_line_is_dropped() {
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-cache-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("eval-cache.csv");
    std::fs::write(
        &path,
        "fen,engine,limit,cp,mate,best,depth\n\
         8/8/8/8/8/8/8/K6k w - -,sf,nodes=1,12,,a1a2,3\n\
         8/8/8/8/8/8/8/K5k1 w - -,sf,nodes=1,,-2,a1b1,9\n\
         8/8/8/8/8/8/8/K4k2 w - -,sf,nod",
    )
    .unwrap();
    let mut c = EvalCache::open(&path).unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(
        c.get("8/8/8/8/8/8/8/K5k1 w - -", "sf", "nodes=1")
            .unwrap()
            .score,
        Score::Mate(-2)
    );
    assert!(c.get("8/8/8/8/8/8/8/K6k w - -", "sf", "nodes=2").is_none());
    let e = Eval {
        score: Score::Cp(-7),
        best: "a1b2".into(),
        depth: 5,
    };
    c.insert("8/8/8/8/8/8/8/K4k2 w - -", "sf", "nodes=1", e.clone())
        .unwrap();
    drop(c);
    // The file from before the line column was rewritten with it; its answers kept.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("fen,line,engine,limit,cp,mate,best,depth\n"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 4, "{text}");
    let c = EvalCache::open(&path).unwrap();
    assert_eq!(c.len(), 3);
    assert_eq!(c.get("8/8/8/8/8/8/8/K4k2 w - -", "sf", "nodes=1"), Some(&e));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The analysis engine gives way to a substitute (`SKILLCAL_ENGINE_SUBSTITUTE`) only after the
/// bench check: Fairy-Stockfish in Stockfish's place is refused, naming both.
#[test]
fn the_analysis_engine_takes_only_a_checked_substitute() {
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-subst-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n",
    )
    .unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("analyse")
        .arg(&pgn)
        .arg("--out")
        .arg(dir.join("out"))
        .args(["--quiet", "--limit", "nodes=2000"])
        .env(
            skillcal::arena::SUBSTITUTE_VAR,
            "/usr/games/stockfish=/usr/games/fairy-stockfish",
        )
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "{stderr}");
    assert!(
        stderr.contains("/usr/games/fairy-stockfish does not play as /usr/games/stockfish"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Human games whose tags or movetext are broken: a rating tag that is no rating is warned of
/// with file, game and line (`99999` made a band 99900-99999, `-50` was dropped silently), a
/// game cut short (no result token, left out as `rate` leaves it out; a token that is no move)
/// or with a tag line missing its `]` is named, and an illegal move's warning gives its line. `SKILLCAL_UNDER_TEST` runs this against
/// another build (it failed on main before).
#[test]
fn broken_human_games_are_named_by_file_game_and_line() {
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("h.pgn");
    let game = |tags: &str, moves: &str| format!("{tags}[White \"p\"]\n[Black \"q\"]\n\n{moves}\n");
    let text = [
        game(
            "[WhiteElo \"1500\"]\n[BlackElo \"99999\"]\n",
            "1. e4 e5 2. Nf3 Nc6 1-0",
        ),
        game(
            "[WhiteElo \"-50\"]\n[BlackElo \"1600\"]\n",
            "1. d4 d5 2. c4 e6 0-1",
        ),
        game("[Event \"x\"\n", "1. e4 e5 1/2-1/2"),
        game("", "1. e4 e5\n2. Ke3 Nc6 0-1"),
        game("[WhiteElo \"1510\"]\n", "1. e4 e5 2. Qh5"),
        game("", "1. e4 e5 2. Qh5 Nc"),
    ]
    .join("\n");
    std::fs::write(&pgn, text).unwrap();
    let out = dir.join("out");
    let run = std::process::Command::new(crate::support::arena::skillcal_under_test())
        .args(["analyse", "--human"])
        .arg(&pgn)
        .arg("--out")
        .arg(&out)
        .args([
            "--engine",
            "builtin",
            "--limit",
            "nodes=200",
            "--bootstrap",
            "0",
        ])
        .args([
            "--match-limit",
            "nodes=200",
            "--concurrency",
            "1",
            "--quiet",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let at = |game: usize, line: usize| format!("h.pgn#{game} (line {line}): ");
    for expect in [
        format!("{}BlackElo `99999` is not a rating (1 to 4000)", at(1, 2)),
        format!("{}WhiteElo `-50` is not a rating", at(2, 8)),
        format!(
            "{}skipped: tag line `[Event \"x\"` has no closing ]",
            at(3, 15)
        ),
        format!("{}skipped: illegal move Ke3", at(4, 25)),
        format!(
            "{}skipped: a cut game: the moves end without a result",
            at(5, 31)
        ),
        format!("{}skipped: `Nc` is not a move", at(6, 36)),
    ] {
        assert!(stderr.contains(&expect), "{expect}\n{stderr}");
    }
    let bands: Vec<skillcal::results::AnalysisRow> =
        skillcal::results::read_csv(&out.join("human.csv")).unwrap();
    let names: Vec<&str> = bands.iter().map(|b| b.player.as_str()).collect();
    assert_eq!(names, ["1500-1599", "1600-1699"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two analyses on one folder both did all the engine work and appended the same answers to
/// `eval-cache.csv`. The folder is held as match and calibrate hold theirs: a second run fails
/// naming the holder, and a lock left by a killed run is taken over, the cache without a
/// repeated row.
#[test]
fn analyse_holds_its_output_folder() {
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-lock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
         [White \"b\"]\n[Black \"a\"]\n\n1. e4 e5 2. Nf3 Nf6 0-1\n",
    )
    .unwrap();
    let out = dir.join("out");
    let analyse = || {
        std::process::Command::new(crate::support::arena::skillcal_under_test())
            .arg("analyse")
            .arg(&pgn)
            .arg("--out")
            .arg(&out)
            .args(["--engine", "builtin", "--limit", "nodes=200"])
            .args(["--bootstrap", "0", "--concurrency", "2", "--quiet"])
            .output()
            .unwrap()
    };
    let held = skillcal::arena::lock_dir(&out).unwrap();
    let run = analyse();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "{stderr}");
    assert!(
        stderr.contains("is in use by pid") && stderr.contains(&out.display().to_string()),
        "{stderr}"
    );
    assert!(!out.join("eval-cache.csv").exists());
    // the holder dies: its lock file stays behind, naming it, and is taken over
    drop(held);
    for _ in 0..2 {
        let run = analyse();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let text = std::fs::read_to_string(out.join("eval-cache.csv")).unwrap();
    let mut rows: Vec<_> = csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[0].to_string(),
                r[1].to_string(),
                r[2].to_string(),
                r[3].to_string(),
            )
        })
        .collect();
    let all = rows.len();
    rows.sort();
    rows.dedup();
    assert!(
        all > 0 && rows.len() == all,
        "{all} rows, {} distinct",
        rows.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
