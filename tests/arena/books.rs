//! A PGN book's errors name the game and its line: an illegal move, a bad FEN tag and a game
//! with neither moves nor a FEN said only the game before (audit cases 171, 173, 174).

use skillcal::arena::{check_book, OpeningsConfig};

fn book_error(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("skillcal-books-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.pgn"));
    std::fs::write(&path, text).unwrap();
    let err = check_book(&OpeningsConfig {
        file: Some(path),
        ..OpeningsConfig::default()
    })
    .unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    format!("{err:#}")
}

#[test]
fn pgn_book_errors_name_the_line() {
    let first = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n";
    let err = book_error(
        "illegal",
        &format!("{first}[Event \"y\"]\n\n1. d4 d5\n2. Ke3 *\n"),
    );
    assert!(
        err.contains("illegal.pgn: game 2 (line 8): move Ke3: illegal san"),
        "{err}"
    );
    let err = book_error(
        "badfen",
        &format!("{first}[Event \"y\"]\n[FEN \"garbage\"]\n[SetUp \"1\"]\n\n1. e4 *\n"),
    );
    assert!(
        err.contains("badfen.pgn: game 2 (line 6): FEN tag: invalid board part in fen"),
        "{err}"
    );
    let err = book_error("nomoves", &format!("{first}[Event \"y\"]\n\n*\n"));
    assert!(
        err.contains("nomoves.pgn: game 2 (line 5): neither a move nor a FEN tag"),
        "{err}"
    );
    // an opening that ends the game is named at the move that ends it
    let err = book_error(
        "mate",
        &format!("{first}[Event \"y\"]\n\n1. f3 e5 2. g4\nQh4# *\n"),
    );
    assert!(
        err.contains("mate.pgn: game 2 (line 8): the opening ends the game"),
        "{err}"
    );
}
