//! Move-matching at scale: human games streamed from plain, zstd and gzip PGN alike, filtered by
//! rating, time control and clock; a matching run resumed after a kill measures only what it
//! had not recorded, a folder refuses other filters, and a sample that covers every position
//! agrees with the full run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use skillcal::analysis::{draw, Sampler};
use skillcal::analysis::{run, AnalyseOptions};
use skillcal::analysis::{stream, time_control, Counts, HumanFilter};
use skillcal::analysis::{AnalysisEngine, Limit};

const RUY: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7";

/// Seven invented games: kept (one move in time trouble), bullet, out of the ratings, unrated,
/// illegal, one side rated, too short.
fn pgn() -> String {
    let game = |white: &str, black: &str, tc: &str, moves: &str| {
        let tc = if tc.is_empty() {
            String::new()
        } else {
            format!("[TimeControl \"{tc}\"]\n")
        };
        format!(
            "[Event \"Rated Blitz game\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[WhiteElo \"{white}\"]\n[BlackElo \"{black}\"]\n{tc}\n{moves} *\n\n"
        )
    };
    let hurried = RUY.replace("7. Bb3", "7. Bb3 {[%clk 0:00:25]}");
    [
        game("1520", "1580", "300+0", &hurried),
        game("1850", "1810", "60+0", RUY),
        game("700", "2600", "300+0", RUY),
        game("?", "?", "300+0", RUY),
        game("1500", "1500", "300+0", "1. e4 e5 2. Ke3 Nc6 *"),
        game("1500", "?", "600+5", RUY),
        game("1500", "1500", "300+0", "1. e4 e5 2. Nf3"),
    ]
    .concat()
}

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-matching-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The fixture as plain, zstd and gzip files.
fn files(dir: &Path) -> [PathBuf; 3] {
    let text = pgn();
    let plain = dir.join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    let zst = dir.join("games.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
    let gz = dir.join("games.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(text.as_bytes()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    [plain, zst, gz]
}

fn filter() -> HumanFilter {
    let mut f = HumanFilter::new(100);
    f.min_elo = 800;
    f.max_elo = 2499;
    f.tc_min_base = Some(180);
    f
}

#[test]
fn plain_zstd_and_gzip_stream_alike_through_the_filters() {
    let dir = folder("stream");
    let mut seen = Vec::new();
    for f in files(&dir) {
        let read = Arc::new(Default::default());
        let mut kept = Vec::new();
        let counts = stream(
            std::slice::from_ref(&f),
            &filter(),
            &read,
            |_, _| true,
            |g| {
                kept.push((
                    g.number,
                    g.probes.iter().map(|p| (p.ply, p.band)).collect::<Vec<_>>(),
                ));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            read.load(std::sync::atomic::Ordering::Relaxed),
            std::fs::metadata(&f).unwrap().len(),
            "{f:?}: every byte of the file read"
        );
        seen.push((counts, kept));
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
    let (counts, kept) = &seen[0];
    let expected = Counts {
        games: 7,
        kept: 2,
        unrated: 1,
        out_of_range: 1,
        time_control: 1,
        unplayable: 1,
        no_probe: 1,
        passed: 0,
        probes: 14,
    };
    assert_eq!(counts, &expected);
    // game 1: plies 10-19 but 7. Bb3 (ply 12) with 25 s left; game 6: White's plies only
    let g1: Vec<(usize, u32)> = [10, 11, 13, 14, 15, 16, 17, 18, 19]
        .iter()
        .map(|&p| (p, 1500))
        .collect();
    let g6: Vec<(usize, u32)> = [10, 12, 14, 16, 18].iter().map(|&p| (p, 1500)).collect();
    assert_eq!(kept, &vec![(1, g1), (6, g6)]);

    // games passed over are not replayed
    let read = Arc::new(Default::default());
    let counts = stream(
        &[dir.join("games.pgn.zst")],
        &filter(),
        &read,
        |_, n| n != 1,
        |g| {
            assert_eq!(g.number, 6);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!((counts.passed, counts.kept), (1, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_controls_and_draws() {
    assert_eq!(time_control("300+3"), Ok(Some((300, 3))));
    assert_eq!(time_control("600"), Ok(Some((600, 0))));
    assert_eq!(time_control("-"), Ok(None));
    assert!(time_control("?").unwrap_err().contains("`?`"));
    assert!(time_control("40/7200").is_err());
    // a draw depends on every part of its input, and on nothing else
    let d = draw(1, "a.pgn", 3, 12);
    assert_eq!(d, draw(1, "a.pgn", 3, 12));
    for other in [
        draw(2, "a.pgn", 3, 12),
        draw(1, "b.pgn", 3, 12),
        draw(1, "a.pgn", 4, 12),
        draw(1, "a.pgn", 3, 13),
    ] {
        assert_ne!(d, other);
    }
    let _ = Sampler::new(1, 1);
}

fn options(human: PathBuf, out: PathBuf) -> AnalyseOptions {
    let mut o = AnalyseOptions::new(vec![], out).unwrap();
    o.human = vec![human];
    o.matching_only = true;
    o.filter = filter();
    o.chunk_games = 2;
    o.bootstrap = 200;
    o.quiet = true;
    o.match_engines = vec![AnalysisEngine {
        program: PathBuf::from(env!("CARGO_BIN_EXE_skillcal")),
        args: vec!["uci".into()],
        options: vec![("RandomSeed".into(), "1".into())],
        limit: Limit::Nodes(2000),
    }];
    o
}

#[test]
fn a_killed_run_resumes_and_a_folder_keeps_its_filters() {
    let dir = folder("resume");
    let [_, zst, _] = files(&dir);
    let out = dir.join("out");
    let o = options(zst.clone(), out.clone());
    let r = run(&o).unwrap();
    assert_eq!(r.match_evaluations, 14);
    let [row] = r.matching.as_slice() else {
        panic!("one band: {:?}", r.matching)
    };
    assert_eq!(
        (row.band.as_str(), row.games, row.positions),
        ("1500-1599", 2, 14)
    );
    assert!(row.setting.ends_with("UCI_LimitStrength=true;UCI_Elo=1550"));
    assert_eq!(row.selection, "all");
    let rate = row.rate.value.unwrap();
    assert!((rate - row.matches / 14.0).abs() < 1e-12);
    for f in ["matching.csv", "matching.md", "matching-chunks.csv"] {
        assert!(out.join(f).is_file(), "{f}");
    }

    // a kill while the chunk of games 5-6 was written: its line torn
    let chunks = out.join("matching-chunks.csv");
    let text = std::fs::read_to_string(&chunks).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "a header, chunks 1-2 and 5-6: {text}");
    assert!(lines[2].contains("games.pgn.zst#5-6"), "{text}");
    std::fs::write(
        &chunks,
        format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]),
    )
    .unwrap();
    let again = run(&o).unwrap();
    assert_eq!(again.match_evaluations, 5, "game 6's positions only");
    assert_eq!(again.human_counts.passed, 2, "games 1-2 passed over unread");
    assert_eq!(again.matching[0].matches, row.matches);
    assert_eq!(run(&o).unwrap().match_evaluations, 0);

    // the same folder with other filters would mix two measurements
    let mut other = o.clone();
    other.filter.max_elo = 2000;
    let e = run(&other).unwrap_err().to_string();
    assert!(
        e.contains("matching-filters.csv") && e.contains("max_elo"),
        "{e}"
    );

    // a sample covering every position measures what the full run did
    let mut s = o.clone();
    s.sample_positions = Some(5);
    let sampled = run(&s).unwrap();
    assert_eq!(sampled.match_evaluations, 14);
    let rows: Vec<_> = sampled
        .matching
        .iter()
        .map(|m| (m.selection.as_str(), m.positions, m.matches))
        .collect();
    assert_eq!(
        rows,
        [
            ("all", 14, row.matches),
            ("sample, seed 1", 14, row.matches)
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The probes of the fixture's kept games as (positions up to the probe, the human's move).
fn fixture_probes() -> Vec<(Vec<shakmaty::Chess>, shakmaty::Move, Vec<String>)> {
    use shakmaty::{san::San, uci::UciMove, Chess, Position};
    let sans: Vec<&str> = RUY
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .collect();
    let mut positions = vec![Chess::default()];
    let mut moves = Vec::new();
    for s in &sans {
        let pos = positions.last().unwrap().clone();
        let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
        moves.push(m);
        positions.push(pos.play(m).unwrap());
    }
    let game1 = [10, 11, 13, 14, 15, 16, 17, 18, 19];
    let game6 = [10, 12, 14, 16, 18];
    game1
        .iter()
        .chain(&game6)
        .map(|&k| {
            let ucis = moves[..k]
                .iter()
                .map(|m| UciMove::from_standard(*m).to_string())
                .collect();
            (positions[..=k].to_vec(), moves[k], ucis)
        })
        .collect()
}

/// Maia in-process: the top move is what the engine plays at `go nodes 1` over UCI, and the
/// temperature-1 figure is the policy's probability of the human's move, summed.
#[test]
fn maia_settings_match_in_process_as_the_engine_plays() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    use skillcal::policy::{Evaluator, Net};

    let dir = folder("maia");
    let [_, zst, _] = files(&dir);
    let mut o = options(zst, dir.join("out"));
    let spec = |s: &str| AnalysisEngine::parse_spec(s, Limit::Nodes(1)).unwrap();
    o.match_engines = vec![
        spec("builtin:Style=maia,MaiaNet=1100"),
        spec("builtin:Style=maia,MaiaNet=1100,PolicyTemperature=1"),
    ];
    let r = run(&o).unwrap();
    assert_eq!(
        r.match_evaluations, 14,
        "one evaluation serves both settings"
    );
    let [top, t1] = r.matching.as_slice() else {
        panic!("two rows: {:?}", r.matching)
    };
    assert_eq!((top.positions, t1.positions), (14, 14));
    assert!(top.setting.ends_with("MaiaNet=1100") && !top.setting.contains("UCI_Elo"));
    assert!(t1.setting.ends_with("PolicyTemperature=1"));

    // the oracle: every position with its whole game before it, and the engine over UCI
    let mut eval = Evaluator::new(Net::maia(1100).unwrap(), 1);
    let mut engine = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = engine.stdin.take().unwrap();
    let mut stdout = BufReader::new(engine.stdout.take().unwrap());
    writeln!(
        stdin,
        "uci\nsetoption name Style value maia\nsetoption name MaiaNet value 1100"
    )
    .unwrap();
    let (mut hits, mut expected) = (0.0, 0.0);
    for (positions, played, ucis) in fixture_probes() {
        let e = eval.evaluate(&positions);
        let best = e.best().unwrap();
        hits += f64::from(u8::from(best == played));
        let i = e.moves.iter().position(|m| *m == played).unwrap();
        expected += f64::from(e.probabilities(1.0)[i]);
        writeln!(
            stdin,
            "position startpos moves {}\ngo nodes 1",
            ucis.join(" ")
        )
        .unwrap();
        let answer = loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "the engine ended");
            if let Some(m) = line.strip_prefix("bestmove ") {
                break m.split_whitespace().next().unwrap().to_string();
            }
        };
        let uci = shakmaty::uci::UciMove::from_standard(best).to_string();
        assert_eq!(answer, uci, "after {}", ucis.join(" "));
    }
    writeln!(stdin, "quit").unwrap();
    let _ = engine.wait();
    assert_eq!(top.matches, hits);
    assert!(
        (t1.matches - expected).abs() < 1e-4,
        "{} vs {expected}",
        t1.matches
    );
    assert!(t1.matches.fract() != 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--match-as-given`: the engine plays at its own options' strength, no per-band `UCI_Elo`
/// (the row's setting says so), a separate measurement from the per-band one in one folder.
#[test]
fn as_given_engines_keep_their_options_and_are_their_own_rows() {
    let dir = folder("as-given");
    let [_, zst, _] = files(&dir);
    let out = dir.join("out");
    let mut o = options(zst, out);
    o.match_engines[0]
        .options
        .push(("LimitDepth".into(), "3".into()));
    o.match_as_given = true;
    let given = run(&o).unwrap();
    let [row] = given.matching.as_slice() else {
        panic!("one row: {:?}", given.matching)
    };
    assert_eq!(row.setting, "RandomSeed=1;LimitDepth=3");
    assert_eq!(given.match_evaluations, 14);
    // the same engine per band is another setting: measured anew, both rows kept
    o.match_as_given = false;
    let per_band = run(&o).unwrap();
    assert_eq!(per_band.match_evaluations, 14);
    let settings: Vec<&str> = per_band
        .matching
        .iter()
        .map(|m| m.setting.as_str())
        .collect();
    assert_eq!(settings.len(), 2, "{settings:?}");
    assert!(
        settings.contains(&"RandomSeed=1;LimitDepth=3"),
        "{settings:?}"
    );
    assert!(
        settings
            .iter()
            .any(|s| s.ends_with("LimitDepth=3;UCI_LimitStrength=true;UCI_Elo=1550")),
        "{settings:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A UCI engine is given each position with the moves that led to it, as in a game: the
/// built-in engine playing Maia-1100's top move over UCI (`Style=human` at HumanStrength 200)
/// matches the humans exactly where the net in-process does (which reads the history). Given
/// the position alone, the net lost its history planes and matched about 4 points less.
#[test]
fn a_uci_engine_sees_the_history_a_net_in_process_sees() {
    let dir = folder("history");
    let [_, zst, _] = files(&dir);
    let mut o = options(zst, dir.join("out"));
    let spec = |s: &str| AnalysisEngine::parse_spec(s, Limit::Nodes(1)).unwrap();
    o.match_engines = vec![
        spec("builtin:Style=maia,MaiaNet=1100"),
        spec("builtin:Style=human,HumanStrength=200,HumanTemperature=0,RandomSeed=1"),
    ];
    o.match_as_given = true;
    let r = run(&o).unwrap();
    let [net, uci] = r.matching.as_slice() else {
        panic!("two rows: {:?}", r.matching)
    };
    assert!(net.engine.contains("in-process") && !uci.engine.contains("in-process"));
    assert_eq!((net.positions, uci.positions), (14, 14));
    assert_eq!(net.matches, uci.matches, "{net:?} {uci:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
