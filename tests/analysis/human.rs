//! Human comparison on the fixture (tests/data/human_fixture.pgn, invented games with Elo
//! headers): figures per 100-point band, and move-matching of the built-in engine at
//! UCI_Elo = band middle under Maia's filters (first 10 plies, moves under 30 s skipped).

use std::path::PathBuf;

use skillcal::analysis::{find_program, AnalysisEngine, Limit};
use skillcal::analysis::{run, AnalyseOptions};

#[test]
fn bands_and_move_matching_on_the_fixture() {
    let sf = find_program("stockfish")
        .expect("Stockfish 15.1 on PATH or in /usr/games (apt-get install stockfish)");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/human_fixture.pgn");
    let out = std::env::temp_dir().join(format!("skillcal-analysis-human-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut o = AnalyseOptions::new(vec![], out.clone()).unwrap();
    o.engine = AnalysisEngine {
        program: sf,
        args: vec![],
        options: vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())],
        limit: Limit::Nodes(2000),
    };
    o.human = vec![fixture];
    o.match_engines = vec![AnalysisEngine {
        program: PathBuf::from(env!("CARGO_BIN_EXE_skillcal")),
        args: vec!["uci".into()],
        options: vec![("RandomSeed".into(), "1".into())],
        limit: Limit::Nodes(2000),
    }];
    o.bootstrap = 200;
    o.quiet = true;
    let r = run(&o).unwrap();

    let bands: Vec<&str> = r.human_bands.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(bands, ["1500-1599", "1800-1899"]);
    // Band 1500: game 1 both sides (20 moves), game 3 White (10), game 4 both (7).
    assert_eq!(r.human_bands[0].counts[0], 37);
    // Band 1800: game 2 both sides (20), game 3 Black (10).
    assert_eq!(r.human_bands[1].counts[0], 30);
    // 4. Qxf7# after 3... Nf6??: a blunder in band 1500.
    assert!(r.human_bands[0].counts[3] >= 1);

    // Matching: band 1500 has plies 10-19 of game 1 minus 10. d4 (25 s left) = 9, and game 3's
    // White plies 10-18 = 5; band 1800: game 2 plies 10-19 = 10 and game 3's Black = 5.
    assert_eq!(r.matching.len(), 2);
    assert_eq!(r.matching[0].band, "1500-1599");
    assert_eq!(r.matching[0].positions, 14);
    assert!(r.matching[0].setting.contains("UCI_Elo=1550"));
    assert!(r.matching[0].setting.contains("UCI_LimitStrength=true"));
    // the program's file name and arguments, not its path
    assert!(
        !r.matching[0].engine.contains('/') && r.matching[0].engine.ends_with(" uci"),
        "{}",
        r.matching[0].engine
    );
    assert_eq!(r.matching[1].positions, 15);
    assert!(r.matching[1].setting.contains("UCI_Elo=1850"));
    for m in &r.matching {
        assert!(m.matches <= m.positions as f64 && m.matches.fract() == 0.0);
        let v = m.rate.value.unwrap();
        assert!((v - m.matches / m.positions as f64).abs() < 1e-12);
        assert!(m.rate.lower.unwrap() <= v && v <= m.rate.upper.unwrap());
    }
    assert!(r.match_evaluations > 0);
    for f in ["human.csv", "matching.csv", "analysis.md"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    // Rerun: the matching answers are cached too.
    let again = run(&o).unwrap();
    assert_eq!(again.engine_evaluations, 0);
    assert_eq!(again.match_evaluations, 0);
    assert_eq!(
        again.matching.iter().map(|m| m.matches).collect::<Vec<_>>(),
        r.matching.iter().map(|m| m.matches).collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The default matcher plays each table row at the row's own node limit: its `go nodes` stays
/// above every family's largest LimitNodes (the default was 50,000, which cut every row above
/// about 2150 and the 65,536-node families short). Other engines keep 50,000.
#[test]
fn the_default_matcher_lets_every_table_row_play_its_own_node_limit() {
    use skillcal::analysis::default_match_limit;
    use skillcal::strength::{Family, Knob, Value};
    let o = AnalyseOptions::new(vec![], std::env::temp_dir()).unwrap();
    let [matcher] = o.match_engines.as_slice() else {
        panic!("one default matcher: {:?}", o.match_engines)
    };
    let Limit::Nodes(cap) = matcher.limit else {
        panic!("a node limit: {:?}", matcher.limit)
    };
    assert_eq!(matcher.limit, default_match_limit("builtin:RandomSeed=1"));
    for family in Family::ALL {
        let most = family
            .table()
            .rows()
            .iter()
            .flat_map(|r| &r.values)
            .filter_map(|(k, v)| match (k, v) {
                (Knob::LimitNodes, Value::Num(n)) => Some(*n),
                _ => None,
            })
            .fold(0.0, f64::max);
        // Style human's nodes are its schedule's (HumanStrength has no LimitNodes column)
        let most = match family {
            Family::Human => skillcal::strength::HUMAN_NODES_RANGE.1,
            _ => most,
        };
        assert!(most > 0.0, "{family}: every table is node-bounded");
        assert!(
            (cap as f64) > most,
            "{family}: go nodes {cap} cuts LimitNodes {most}"
        );
    }
    assert_eq!(default_match_limit("stockfish"), Limit::Nodes(50_000));
    assert_eq!(default_match_limit("builtin"), matcher.limit);
}
