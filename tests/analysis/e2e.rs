//! `analyse` end to end with real Stockfish 15.1 on two short arena-style games (book moves
//! marked `{book}`, settings in games.csv beside the PGN), then the cache: a second run asks the
//! engine nothing.

use std::path::{Path, PathBuf};

use skillcal::analysis::{find_program, AnalysisEngine, Limit};
use skillcal::analysis::{run, AnalyseOptions};

const PGN: &str = r#"[Event "t"]
[White "alpha"]
[Black "beta"]
[Result "1-0"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[SetUp "1"]
[GameId "1"]

1. e4 {book} e5 {book} 2. Qh5 {+0.10/10 0.1s} Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "t"]
[White "beta"]
[Black "alpha"]
[Result "1/2-1/2"]
[GameId "2"]

1. d4 {book} d5 {book} 2. c4 e6 3. Nc3 Nf6 1/2-1/2
"#;

const CSV: &str = "game_id,white,black,white_settings,black_settings\n\
1,alpha,beta,Skill Level=3,\n2,beta,alpha,,Skill Level=3\n";

fn stockfish() -> PathBuf {
    find_program("stockfish")
        .expect("Stockfish 15.1 on PATH or in /usr/games (apt-get install stockfish)")
}

fn options(input: &Path, out: &Path, sf: PathBuf) -> AnalyseOptions {
    let mut o = AnalyseOptions::new(vec![input.to_path_buf()], out.to_path_buf()).unwrap();
    o.engine = AnalysisEngine {
        program: sf,
        args: vec![],
        options: vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())],
        limit: Limit::Nodes(5000),
    };
    o.bootstrap = 200;
    o.quiet = true;
    o
}

fn rows(path: &Path) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(path)
        .unwrap()
        .records()
        .map(|r| r.unwrap())
        .collect()
}

fn column(path: &Path, name: &str) -> usize {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.headers().unwrap().iter().position(|h| h == name).unwrap()
}

#[test]
fn analyses_two_games_then_reuses_the_cache() {
    let sf = stockfish();
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run_dir = dir.join("run/matches/a");
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::write(run_dir.join("games.pgn"), PGN).unwrap();
    std::fs::write(run_dir.join("games.csv"), CSV).unwrap();
    let out = dir.join("out");

    // A run folder: every games.pgn below it.
    let first = run(&options(&dir.join("run"), &out, sf.clone())).unwrap();
    assert_eq!(first.games, 2);
    // Book moves are not analysed: 5 + 4 moves.
    assert_eq!(first.moves, 9);
    // Positions before each move and after the last (6 + 5), minus the final checkmate
    // (decided by the rules); each game's searched in order after one ucinewgame.
    assert_eq!(first.positions, 10);
    assert_eq!(first.engine_evaluations, 10);

    let csv = out.join("analysis.csv");
    let r = rows(&csv);
    assert_eq!(r.len(), 2);
    let (name, settings, games, moves) = (0, 1, 2, column(&csv, "moves"));
    let blunders = column(&csv, "blunders");
    let acpl = column(&csv, "acpl");
    let (lo, hi) = (column(&csv, "acpl_lower"), column(&csv, "acpl_upper"));
    let alpha = r.iter().find(|x| &x[name] == "alpha").unwrap();
    let beta = r.iter().find(|x| &x[name] == "beta").unwrap();
    assert_eq!(&alpha[settings], "Skill Level=3");
    assert_eq!(&alpha[games], "2");
    assert_eq!(&alpha[moves], "5");
    assert_eq!(&beta[moves], "4");
    // 3... Nf6?? allows mate in one.
    assert!(beta[blunders].parse::<usize>().unwrap() >= 1);
    for p in [alpha, beta] {
        let (v, l, u): (f64, f64, f64) = (
            p[acpl].parse().unwrap(),
            p[lo].parse().unwrap(),
            p[hi].parse().unwrap(),
        );
        assert!(l <= v && v <= u, "{v} outside [{l}, {u}]");
    }
    assert!(beta[acpl].parse::<f64>().unwrap() > alpha[acpl].parse::<f64>().unwrap());

    // moves.csv: the first analysed move is 2. Qh5; the mate is the engine's move.
    let mv = out.join("moves.csv");
    let m = rows(&mv);
    assert_eq!(m.len(), 9);
    let (col_move, col_top1, col_judg) = (
        column(&mv, "move"),
        column(&mv, "top1"),
        column(&mv, "judgement"),
    );
    assert_eq!(&m[0][col_move], "d1h5");
    assert_eq!(&m[3][col_move], "g8f6");
    assert_eq!(&m[3][col_judg], "blunder");
    assert_eq!(&m[4][col_move], "h5f7");
    assert_eq!(&m[4][col_top1], "1");
    let md = std::fs::read_to_string(out.join("analysis.md")).unwrap();
    assert!(md.contains("| alpha | 2 | 5 |"), "{md}");

    // Second run, same output folder: everything from eval-cache.csv.
    let again = run(&options(&dir.join("run"), &out, sf.clone())).unwrap();
    assert_eq!(again.engine_evaluations, 0);
    assert_eq!(rows(&csv), r);
    // The file itself, given twice, is deduplicated; an overlapping copy costs nothing.
    let copy = dir.join("copy.pgn");
    std::fs::copy(run_dir.join("games.pgn"), &copy).unwrap();
    let mut o = options(&copy, &out, sf);
    o.inputs.push(copy.clone());
    let third = run(&o).unwrap();
    assert_eq!(third.games, 2);
    assert_eq!(third.engine_evaluations, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows of moves.csv for one game, without the game column (its id names the file).
fn game_rows(path: &Path, game: &str) -> Vec<Vec<String>> {
    let g = column(path, "game");
    rows(path)
        .into_iter()
        .filter(|r| r[g].ends_with(game))
        .map(|r| {
            r.iter()
                .enumerate()
                .filter(|(i, _)| *i != g)
                .map(|(_, v)| v.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_games_answers_do_not_depend_on_its_company_or_the_process_count() {
    // Each game's positions share one process and its tables, so an answer depends on the game
    // up to it; the same game alone with one process, or beside another with two, or
    // after the other, reads the same.
    let sf = stockfish();
    let dir = std::env::temp_dir().join(format!("skillcal-analysis-line-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let both = dir.join("both.pgn");
    std::fs::write(&both, PGN).unwrap();
    let (first, second) = PGN.split_at(PGN.rfind("[Event").unwrap());
    let alone = dir.join("alone.pgn");
    std::fs::write(&alone, first).unwrap();
    let swapped = dir.join("swapped.pgn");
    std::fs::write(&swapped, format!("{second}\n{first}")).unwrap();

    let mut o = options(&alone, &dir.join("alone"), sf.clone());
    o.concurrency = 1;
    run(&o).unwrap();
    let reference = game_rows(&dir.join("alone/moves.csv"), "#1");
    assert_eq!(reference.len(), 5);
    for (input, out, n) in [(&both, "both", 2), (&swapped, "swapped", 1)] {
        let mut o = options(input, &dir.join(out), sf.clone());
        o.concurrency = n;
        run(&o).unwrap();
        let game = if out == "swapped" { "#2" } else { "#1" };
        assert_eq!(
            game_rows(&dir.join(out).join("moves.csv"), game),
            reference,
            "{out}"
        );
    }
    // The cache names each answer's line: the game's first position after ucinewgame gets the
    // digest of nothing, the next ones differ.
    let cache = dir.join("alone/eval-cache.csv");
    let line = column(&cache, "line");
    let lines: Vec<String> = rows(&cache).iter().map(|r| r[line].to_string()).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0], "cbf29ce484222325");
    let distinct: std::collections::BTreeSet<&String> = lines.iter().collect();
    assert_eq!(distinct.len(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}
