//! Move-matching in time trouble: `--max-clock` keeps only the moves a mover started with under
//! that many seconds, each with the clocks before it; `--match-limit clock` gives a real engine
//! those clocks (`go wtime btime winc binc`), and a game without clocks is named, not guessed.

use std::path::PathBuf;
use std::sync::Arc;

use skillcal::analysis::{run, stream, AnalyseOptions, AnalysisEngine, HumanFilter, Limit};

/// A 60+1 game with a clock after every move: White drops under 30 s before its 9th move,
/// Black never does.
const CLOCKED: &str = "[Event \"Rated Bullet game\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n[TimeControl \"60+1\"]\n\n\
1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:00]} 2. Nf3 {[%clk 0:00:55]} Nc6 {[%clk 0:00:58]} \
3. Bb5 {[%clk 0:00:50]} a6 {[%clk 0:00:57]} 4. Ba4 {[%clk 0:00:45]} Nf6 {[%clk 0:00:56]} \
5. O-O {[%clk 0:00:40]} Be7 {[%clk 0:00:55]} 6. Re1 {[%clk 0:00:35]} b5 {[%clk 0:00:54]} \
7. Bb3 {[%clk 0:00:31]} d6 {[%clk 0:00:53]} 8. c3 {[%clk 0:00:29]} O-O {[%clk 0:00:52]} \
9. h3 {[%clk 0:00:20]} Nb8 {[%clk 0:00:51]} 10. d4 {[%clk 0:00:12]} Nbd7 {[%clk 0:00:50]} *\n\n";

const UNCLOCKED: &str = "[Event \"Rated Blitz game\"]\n[White \"c\"]\n[Black \"d\"]\n[Result \"*\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *\n\n";

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-trouble-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn trouble() -> HumanFilter {
    let mut f = HumanFilter::new(100);
    f.min_clock = 0.0;
    f.max_clock = Some(30.0);
    f
}

#[test]
fn only_moves_started_under_the_clock_are_kept_with_their_clocks() {
    let dir = folder("filter");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, format!("{CLOCKED}{UNCLOCKED}")).unwrap();
    let mut probes = Vec::new();
    stream(
        std::slice::from_ref(&pgn),
        &trouble(),
        &Arc::new(Default::default()),
        |_, _| true,
        |g| {
            probes.extend(g.probes.iter().map(|p| (g.number, p.ply, p.clock)));
            Ok(())
        },
    )
    .unwrap();
    // White's 9th and 10th moves (plies 16, 18): started with 29 s and 20 s; the game without
    // clocks gives nothing
    let plies: Vec<(u64, usize)> = probes.iter().map(|&(n, p, _)| (n, p)).collect();
    assert_eq!(plies, vec![(1, 16), (1, 18)]);
    let c = probes[0].2.unwrap();
    assert_eq!((c.white, c.black, c.increment), (29.0, 52.0, 1.0));
    assert_eq!(c.go(), "go wtime 29000 btime 52000 winc 1000 binc 1000");
    let _ = std::fs::remove_dir_all(&dir);
}

fn options(human: PathBuf, out: PathBuf, filter: HumanFilter) -> AnalyseOptions {
    let mut o = AnalyseOptions::new(vec![], out).unwrap();
    o.human = vec![human];
    o.matching_only = true;
    o.filter = filter;
    o.bootstrap = 100;
    o.quiet = true;
    o.match_engines = vec![AnalysisEngine {
        program: PathBuf::from(env!("CARGO_BIN_EXE_skillcal")),
        args: vec!["uci".into()],
        options: vec![
            ("UCI_LimitStrength".into(), "true".into()),
            ("HumanTime".into(), "true".into()),
            ("HumanTimeScale".into(), "1".into()),
            ("RandomSeed".into(), "1".into()),
        ],
        limit: Limit::Clock,
    }];
    o
}

#[test]
fn a_clocked_engine_matches_on_the_persons_clock_and_a_game_without_one_is_named() {
    let dir = folder("clock");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, CLOCKED).unwrap();
    let r = run(&options(pgn, dir.join("out"), trouble())).unwrap();
    let positions: usize = r.matching.iter().map(|m| m.positions).sum();
    assert_eq!(positions, 2, "{:?}", r.matching);

    let bare = dir.join("bare.pgn");
    std::fs::write(&bare, UNCLOCKED).unwrap();
    let err = run(&options(bare, dir.join("out2"), HumanFilter::new(100)))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--match-limit clock: game 1 of input 1 has no clock before ply"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
