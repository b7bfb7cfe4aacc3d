//! Malformed game files are errors naming the file, the line and (PGN) the game: each case was
//! read silently before (audit cases 59, 70, 73, 85, 87, 91, 92, 95).

use std::path::PathBuf;
use std::process::Command;

use skillcal::rating::{load_games, load_games_report, LoadOptions};

/// A file of this name and text in a folder of the test's own.
fn file(test: &str, name: &str, text: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("skillcal-malformed-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn load_error(path: &PathBuf) -> String {
    load_games(&[path], &LoadOptions::default())
        .unwrap_err()
        .to_string()
}

fn game(white: &str, black: &str, tags: &str, movetext: &str) -> String {
    format!("[White \"{white}\"]\n[Black \"{black}\"]\n{tags}\n{movetext}\n\n")
}

#[test]
fn a_pgn_token_that_is_no_move_is_an_error() {
    let text = game(
        "A",
        "B",
        "[Result \"1-0\"]\n",
        "1. e4 e5 2. Qh5 Nc6\n3. Qxz9 1-0",
    ) + &game("B", "A", "[Result \"0-1\"]\n", "1. e4 e5 0-1");
    let path = file("token", "g.pgn", &text);
    let err = load_error(&path);
    assert!(
        err.contains("g.pgn:6:") && err.contains("game 1 (A - B): `Qxz9` is not a move"),
        "{err}"
    );
    // --skip-bad-lines leaves the game out and says so
    let opts = LoadOptions {
        skip_bad_lines: true,
        ..LoadOptions::default()
    };
    let r = load_games_report(&[&path], &opts).unwrap();
    assert_eq!((r.games.len(), r.skipped.len()), (1, 1), "{r:?}");
}

#[test]
fn a_pgn_tag_line_without_its_bracket_is_an_error() {
    let text = "[White \"A\"\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
    let err = load_error(&file("tag", "g.pgn", text));
    assert!(
        err.contains("g.pgn:1:") && err.contains("game 1") && err.contains("has no closing ]"),
        "{err}"
    );
}

#[test]
fn a_result_tag_the_moves_contradict_is_an_error() {
    let text = game("A", "B", "[Result \"1-0\"]\n", "1. e4 e5 2. Nf3 0-1")
        + &game("B", "A", "[Result \"1-0\"]\n", "1. d4 1-0");
    let err = load_error(&file("mismatch", "g.pgn", &text));
    assert!(
        err.contains("g.pgn:5:")
            && err
                .contains("game 1 (A - B): the Result tag (line 3) says 1-0 but the moves end 0-1"),
        "{err}"
    );
    // a `*` against a written result is as contradictory
    let text = game("A", "B", "[Result \"*\"]\n", "1. e4 1/2-1/2");
    let err = load_error(&file("mismatch-star", "g.pgn", &text));
    assert!(err.contains("says * but the moves end 1/2-1/2"), "{err}");
}

#[test]
fn a_repeated_result_tag_is_an_error() {
    let text = game("A", "B", "[Result \"1-0\"]\n[Result \"0-1\"]\n", "1. e4 e5");
    let err = load_error(&file("duptag", "g.pgn", &text));
    assert!(
        err.contains("g.pgn:4:")
            && err.contains("game 1 (A - B): a second Result tag (the first on line 3)"),
        "{err}"
    );
}

/// The same reader still reads what tools write: comments, NAGs, variations, `0-0`, clock
/// commands, and the arena's own games; a game with a Result tag but no terminator is a cut
/// game, left out and noted.
#[test]
fn well_formed_pgn_still_reads() {
    let text = game(
        "A",
        "B",
        "[Result \"1-0\"]\n",
        "1. e4 {[%clk 0:03:00]} e5 $1 2. Nf3 (2. Qh5 Nc6) Nc6!? 3. Bc4 Nf6 4. 0-0 Bc5 ; note\n5. d3 1-0",
    ) + &game("B", "A", "[Result \"1/2-1/2\"]\n", "1. d4 d5");
    let r = load_games_report(&[file("good", "g.pgn", &text)], &LoadOptions::default()).unwrap();
    assert_eq!((r.games.len(), r.unfinished.len()), (1, 1));
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let arena = root.join("results/range/verify-20261128-0125/matches/v03-1000/games.pgn");
    assert!(!load_games(&[&arena], &LoadOptions::default())
        .unwrap()
        .is_empty());
}

#[test]
fn a_csv_header_naming_a_column_twice_is_an_error() {
    let path = file("dupcol", "g.csv", "white,black,result,White\nA,B,1-0,C\n");
    let err = load_error(&path);
    assert!(
        err.contains("g.csv:1:") && err.contains("names the column white twice (columns 1 and 4)"),
        "{err}"
    );
}

#[test]
fn a_csv_quote_never_closed_is_an_error() {
    let path = file("quote", "g.csv", "white,black,result\nA,B,1-0\nA,B,\"0-1\n");
    let err = load_error(&path);
    assert!(
        err.contains("g.csv:3:") && err.contains("a quoted field opens here and is never closed"),
        "{err}"
    );
    // in the header too; closed quotes, doubled quotes inside them and quotes inside a field
    // are no such thing
    let path = file("quote-header", "h.csv", "white,black,\"result\n");
    assert!(load_error(&path).contains("h.csv:1: a quoted field"));
    let path = file(
        "quote-good",
        "ok.csv",
        "white,black,result\n\"A \"\"x\"\"\",B,\"1-0\"\nA,B\"y,0-1\n",
    );
    let games = load_games(&[&path], &LoadOptions::default()).unwrap();
    assert_eq!(games[0].white, "A \"x\"");
    assert_eq!(games[1].black, "B\"y");
}

#[test]
fn rate_without_games_names_the_file() {
    for (name, text) in [("header.csv", "white,black,result\n"), ("empty.pgn", "")] {
        let path = file("nogames", name, text);
        let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
            .args(["rate", "--bootstrap", "0"])
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains(&format!("no games to rate in {}", path.display())),
            "{err}"
        );
    }
    // and what was left out, when there were games
    let path = file(
        "nogames",
        "star.pgn",
        &game("A", "B", "[Result \"*\"]\n", "1. e4 *"),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args(["rate", "--bootstrap", "0"])
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("(left out: 1 unfinished)"), "{err}");
}

fn rate(path: &std::path::Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args(["rate", path.to_str().unwrap(), "--bootstrap", "0"])
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A last game whose movetext ends at a move boundary, without a result token (a file cut
/// there), was rated by its Result tag without a word: it is a cut game, left out as `*` is,
/// with a note naming it.
#[test]
fn a_game_cut_without_a_result_token_is_left_out_and_named() {
    let text = game("A", "B", "[Result \"1-0\"]\n", "1. e4 e5 1-0")
        + &game("B", "A", "[Result \"0-1\"]\n", "1. d4 d5 0-1")
        + &game("A", "B", "[Result \"1-0\"]\n", "1. c4 e5 2. Nc3");
    let path = file("cut", "g.pgn", &text);
    let r = load_games_report(&[&path], &LoadOptions::default()).unwrap();
    assert_eq!(r.games.len(), 2, "{:?}", r.games);
    assert_eq!(r.unfinished.len(), 1);
    assert!(
        r.unfinished[0].ends_with("g.pgn:13: A - B"),
        "{:?}",
        r.unfinished
    );
    let (ok, _, stderr) = rate(&path);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("1 unfinished game (result *, or cut without a result) left out")
            && stderr.contains("g.pgn:13: A - B"),
        "{stderr}"
    );
}

/// A player's name holding a newline (a quoted CSV field may) broke `rate`'s table into two
/// rows: it is printed escaped, on its row.
#[test]
fn a_name_holding_a_newline_stays_on_its_row() {
    let head = "game_id,pair_id,round,white,black,white_settings,black_settings,opening_id,\
                opening_fen,result,termination,plies,seconds,seed\n";
    let row = |id: u32, w: &str, b: &str, r: &str| {
        format!("{id},{id},{id},{w},{b},,,1,,{r},checkmate,40,1.0,{id}\n")
    };
    let text = [
        head.to_string(),
        row(1, "\"A\nB\"", "C", "1-0"),
        row(2, "C", "\"A\nB\"", "1/2-1/2"),
        row(3, "C", "\"A\nB\"", "0-1"),
    ]
    .concat();
    let path = file("newline", "games.csv", &text);
    let (ok, stdout, stderr) = rate(&path);
    assert!(ok, "{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.contains("A\\nB"))
        .unwrap_or_else(|| panic!("no row names A\\nB:\n{stdout}"));
    assert!(row.ends_with('%'), "{row}\n{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with('B')), "{stdout}");
}
