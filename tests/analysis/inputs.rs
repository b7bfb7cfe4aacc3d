//! Inputs and the cache without an engine: `[%clk]` parsing, position keys, book moves skipped,
//! and an eval-cache.csv torn by a kill (the torn line is dropped, the rest kept, appends work; a file from before the line column
//! gains it).

use skillcal::analysis::cache::EvalCache;
use skillcal::analysis::engine::{Eval, Limit};
use skillcal::analysis::games::{parse_clock, position_key, read_pgn_file};
use skillcal::analysis::lichess::Score;

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
        "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
    )
    .unwrap();
    let out = dir.join("out");
    for (args, expect) in [
        (&["--band", "0"][..], "--band"),
        (&["--concurrency", "0"], "--concurrency"),
        (&["--bootstrap", "1"], "at least 2"),
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
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_skillcal"))
            .arg("analyse")
            .arg(&pgn)
            .arg("--out")
            .arg(&out)
            .arg("--quiet")
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
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
        "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 {book} e5 {book} 2. Nf3 {+0.3/9 0.1s} Nc6 *\n\n\
         [White \"c\"]\n[Black \"d\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n",
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
        "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
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
