//! `skillcal rate` end to end on files: a cutechess/fastchess-style PGN, the arena's games.csv,
//! and readable errors for bad lines.

use std::path::PathBuf;
use std::process::Command;

use skillcal::rating::{head_to_head, load_games, load_games_report, LoadOptions};

mod refusals;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn skillcal(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args(args)
        .output()
        .expect("run skillcal");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn pgn_loads_with_opening_pairs() {
    let games = load_games(&[data("rating_cutechess.pgn")], &LoadOptions::default()).unwrap();
    assert_eq!(games.len(), 24);
    assert!(games.iter().all(|g| g.pair.is_some()));
    // Pairs from Skill 4's side: (1, 1/2) WD, (1, 1) WW, (1/2, 0) LD, (1, 1/2) WD.
    let h = head_to_head(&games, "Stockfish Skill 4", "skillcal nodes=2000");
    assert_eq!(h.pentanomial.counts, [0, 1, 0, 2, 1]);
    assert_eq!((h.wins, h.draws, h.losses), (4, 3, 1));
    assert_eq!(h.unpaired_games, 0);
}

#[test]
fn fastchess_pgn_loads_with_opening_pairs() {
    // fastchess's layout: FEN + SetUp, Black-to-move movetext ("3... Nc6"), comments with
    // quoted PVs and termination reasons, both games of a pair under one Round.
    let pgn = data("rating_fastchess.pgn");
    let games = load_games(&[&pgn], &LoadOptions::default()).unwrap();
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.pair.is_some()));
    // From skillcal's side: pair 1 lost then drew (LD), pair 2 won both (WW).
    let h = head_to_head(&games, "skillcal elo=1500", "sf-skill-3");
    assert_eq!(h.pentanomial.counts, [0, 1, 0, 0, 1]);
    assert_eq!((h.wins, h.draws, h.losses), (2, 1, 1));
    let (ok, stdout, stderr) = skillcal(&[
        "rate",
        pgn.to_str().unwrap(),
        "--anchor",
        "sf-skill-3=1400",
        "--bootstrap",
        "0",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("skillcal elo=1500") && stdout.contains("62.5%"),
        "{stdout}"
    );
}

#[test]
fn rate_command_on_cutechess_pgn() {
    let dir = std::env::temp_dir().join(format!("skillcal-rating-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_csv = dir.join("ratings.csv");
    let pgn = data("rating_cutechess.pgn");
    let (ok, stdout, stderr) = skillcal(&[
        "rate",
        pgn.to_str().unwrap(),
        "--anchor",
        "Stockfish Skill 4=1923:30",
        "--csv",
        out_csv.to_str().unwrap(),
        "--bootstrap",
        "200",
        "--head-to-head",
        "Stockfish Skill 4",
        "skillcal nodes=2000",
        "--sprt",
        "0,100",
    ]);
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("parametric bootstrap, 200 simulations"),
        "{stdout}"
    );
    assert!(stdout.contains("skillcal nodes=8000"), "{stdout}");
    assert!(
        stdout.contains("pentanomial [LL, LD, DD+WL, WD, WW] = [0, 1, 0, 2, 1]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("SPRT (logistic Elo, pentanomial results)"),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(&out_csv).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for col in ["name", "elo", "lower", "upper", "games"] {
        assert!(header.contains(&col), "{header:?}");
    }
    assert_eq!(lines.count(), 3);
    let mut rdr = csv::Reader::from_path(&out_csv).unwrap();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let elo: f64 = rec[1].parse().unwrap();
        let (lo, hi): (f64, f64) = (rec[2].parse().unwrap(), rec[3].parse().unwrap());
        assert!(lo <= elo && elo <= hi, "{rec:?}");
        assert_eq!(&rec[5], "16");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unfinished_game_is_an_error_with_file_and_line() {
    let csv = data("rating_arena.csv");
    let (ok, _, stderr) = skillcal(&["rate", csv.to_str().unwrap(), "--bootstrap", "0"]);
    assert!(!ok);
    assert!(
        stderr.contains("rating_arena.csv:6:") && stderr.contains("result '*'"),
        "{stderr}"
    );
}

/// A PGN game without a result (`*`, what cutechess and fastchess write for a game a stopped
/// match cut off) is left out and noted, as Ordo and BayesElo do; other results stay errors.
#[test]
fn an_unfinished_pgn_game_is_left_out_and_noted() {
    let pgn = data("rating_bad.pgn");
    let r = skillcal::rating::load_games_report(&[&pgn], &LoadOptions::default()).unwrap();
    assert_eq!(r.games.len(), 1, "{:?}", r.games);
    assert_eq!(r.unfinished.len(), 1);
    assert!(
        r.unfinished[0].ends_with("rating_bad.pgn:8: B - A"),
        "{:?}",
        r.unfinished
    );
    let (ok, _, stderr) = skillcal(&["rate", pgn.to_str().unwrap(), "--bootstrap", "0"]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(
            "note: 1 unfinished game (result *, or cut without a result) left out, the first at"
        ) && stderr.contains("rating_bad.pgn:8: B - A"),
        "{stderr}"
    );
    let dir = std::env::temp_dir().join(format!("skillcal-unfinished-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let other = dir.join("other.pgn");
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(
        &other,
        text.replacen("[Result \"*\"]", "[Result \"2-0\"]", 1),
    )
    .unwrap();
    let err = load_games(&[&other], &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("other.pgn:8:") && err.contains("'2-0'"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn skip_bad_lines_skips_and_reports() {
    let opts = LoadOptions {
        skip_bad_lines: true,
        ..LoadOptions::default()
    };
    let r = load_games_report(&[data("rating_arena.csv")], &opts).unwrap();
    assert_eq!(r.games.len(), 4);
    assert_eq!(r.skipped.len(), 1);
    // pair_id column: two complete pairs.
    let h = head_to_head(&r.games, "subject", "sf-skill-0");
    assert_eq!(h.pentanomial.pairs(), 2);
    // Pair 1: subject loses as Black, draws as White (LD); pair 2: wins both (WW).
    assert_eq!(h.pentanomial.counts, [0, 1, 0, 0, 1]);

    let csv = data("rating_arena.csv");
    let (ok, stdout, stderr) = skillcal(&[
        "rate",
        csv.to_str().unwrap(),
        "--skip-bad-lines",
        "--anchor",
        "sf-skill-0=1320",
        "--bootstrap",
        "0",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("skipped:") && stderr.contains(":6:"),
        "{stderr}"
    );
    assert!(stdout.contains("subject"), "{stdout}");
}

/// The arena writes games as they finish, so with concurrency a pair's two games need not be
/// neighbours in games.pgn: its `PairId` tags pair them as games.csv's column does. (Read by
/// neighbours, its 600 level's games against Fairy-Stockfish Skill -12 formed 19 pairs and left 22
/// games outside any, against games.csv's 30 and none: pentanomial Elo and the SPRT differed.)
#[test]
fn the_arenas_pgn_pairs_as_its_csv_does() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("results/range/verify-20261128-0125/matches/v01-600");
    let pairs = |file: &str| {
        let games = load_games(&[dir.join(file)], &LoadOptions::default()).unwrap();
        let mut ids: Vec<u64> = games.iter().filter_map(|g| g.pair).collect();
        assert_eq!(ids.len(), games.len(), "{file}: every game in a pair");
        ids.sort();
        ids.dedup();
        (games.len(), ids.len())
    };
    assert_eq!(pairs("games.pgn"), (120, 60));
    assert_eq!(pairs("games.csv"), pairs("games.pgn"));
}

/// Without PairId (cutechess, fastchess), a game pairs with the latest unpaired game of the
/// same opening with colours swapped, so two pairings played at once still pair; a name that
/// is not UTF-8 is read as Latin-1, the PGN standard's character set, and stays its own player.
#[test]
fn pgn_pairs_interleaved_games_and_reads_latin1_names() {
    let game = |white: &[u8], black: &[u8], result: &str, fen: &str| {
        let mut g = b"[Event \"t\"]\n[White \"".to_vec();
        g.extend_from_slice(white);
        g.extend_from_slice(b"\"]\n[Black \"");
        g.extend_from_slice(black);
        g.extend_from_slice(
            format!("\"]\n[Result \"{result}\"]\n[FEN \"{fen}\"]\n\n{result}\n\n").as_bytes(),
        );
        g
    };
    let (f1, f2) = (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
    );
    // M\xfcller and M\xe4ller: two players whose names differ in a Latin-1 byte
    let (mu, ma) = (&b"M\xfcller"[..], &b"M\xe4ller"[..]);
    let mut text = Vec::new();
    text.extend(game(mu, b"X", "1-0", f1));
    text.extend(game(ma, b"Y", "0-1", f2));
    text.extend(game(b"X", mu, "0-1", f1));
    text.extend(game(b"Y", ma, "1-0", f2));
    let path = std::env::temp_dir().join(format!("skillcal-latin1-{}.pgn", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let games = load_games(&[&path], &LoadOptions::default()).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(games[0].white, "Müller");
    assert_eq!(games[1].white, "Mäller");
    assert_eq!(games[0].pair, games[2].pair);
    assert_eq!(games[1].pair, games[3].pair);
    assert!(games[0].pair.is_some() && games[1].pair.is_some() && games[0].pair != games[1].pair);
}
