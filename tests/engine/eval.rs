//! Evaluation and recognizer tests.
//!
//! Positions: `configs/books/2moves_v1.epd` and `tests/engine_eval_endgames.epd` (every 500th
//! line of the Stockfish project's `endgames.epd`); both CC0 1.0 from the Stockfish `books`
//! collection.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use skillcal::engine::evaluate;
use skillcal::engine::Bound;
use skillcal::engine::{recognize, Expense, Recognition};
use skillcal::score::{KNOWN_WIN, MATE_BOUND, MAX_EVAL};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("illegal position {fen}: {e}"))
}

fn book(path: &str, step: usize) -> Vec<Chess> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .step_by(step)
        .filter(|l| !l.trim().is_empty())
        .map(pos)
        .collect()
}

/// The same position with colours swapped and the board flipped top to bottom.
fn mirrored(p: &Chess) -> Chess {
    p.to_setup(EnPassantMode::Legal)
        .into_mirrored()
        .position(CastlingMode::Standard)
        .expect("mirrored position is legal")
}

fn books() -> Vec<Chess> {
    let mut all = book("configs/books/2moves_v1.epd", 20);
    all.extend(book("tests/engine_eval_endgames.epd", 1));
    assert!(all.len() > 2000, "too few positions: {}", all.len());
    all
}

#[test]
fn evaluation_is_colour_symmetric() {
    for p in books() {
        let m = mirrored(&p);
        assert_eq!(
            evaluate(&p),
            evaluate(&m),
            "{} vs {}",
            Fen::from_position(&p, EnPassantMode::Legal),
            Fen::from_position(&m, EnPassantMode::Legal)
        );
    }
}

#[test]
fn evaluation_stays_in_heuristic_range() {
    for p in books() {
        assert!(evaluate(&p).abs() <= MAX_EVAL);
    }
    // Nine queens against a bare king: huge but still heuristic.
    let p = pos("QQQQ4/QQQQQ3/8/7k/8/8/8/K7 w - - 0 1");
    assert!(evaluate(&p) > 8000 && evaluate(&p) <= MAX_EVAL);
    assert_eq!(evaluate(&mirrored(&p)), evaluate(&p));
}

#[test]
fn start_position_is_balanced_and_material_counts() {
    let start = Chess::default();
    assert!(evaluate(&start).abs() <= 30, "{}", evaluate(&start));
    // White without the queen, either side to move.
    let w = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
    let b = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1");
    assert!(evaluate(&w) < -700, "{}", evaluate(&w));
    assert!(evaluate(&b) > 700, "{}", evaluate(&b));
}

#[test]
fn pawn_structure_terms_have_the_right_sign() {
    // Same material: healthy pawns against doubled isolated ones.
    let healthy = pos("4k3/8/8/8/8/8/5PP1/4K3 w - - 0 1");
    let doubled = pos("4k3/8/8/8/8/6P1/6P1/4K3 w - - 0 1");
    assert!(evaluate(&healthy) > evaluate(&doubled));
    // A passed pawn against one that is held by an enemy pawn.
    let passed = pos("4k3/p7/8/8/4P3/8/8/4K3 w - - 0 1");
    let held = pos("4k3/3p4/8/8/4P3/8/8/4K3 w - - 0 1");
    assert!(evaluate(&passed) > evaluate(&held));
}

#[test]
fn mop_up_drives_the_bare_king_to_the_edge() {
    // KQK, Black to move: a king on the edge is worse for Black than one in the centre.
    let edge = pos("3k4/8/8/8/8/8/8/3QK3 b - - 0 1");
    let centre = pos("8/8/8/3k4/8/8/8/3QK3 b - - 0 1");
    assert!(evaluate(&edge) < evaluate(&centre));
    // KRK, White to move: the own king close to the bare king is better.
    let near = pos("8/8/8/8/3k4/8/3K4/7R w - - 0 1");
    let far = pos("8/8/8/8/3k4/8/8/R6K w - - 0 1");
    assert!(evaluate(&near) > evaluate(&far));
}

#[test]
fn drawish_endgames_are_scaled_down() {
    let krkn = evaluate(&pos("8/8/3k4/8/3n4/8/3K4/7R w - - 0 1"));
    let krk = evaluate(&pos("8/8/3k4/8/8/8/3K4/7R w - - 0 1"));
    assert!(krkn < 200, "KRKN {krkn}");
    assert!(krk > 500, "KRK {krk}");
    let knnk = evaluate(&pos("8/8/3k4/8/8/8/3KNN2/8 w - - 0 1"));
    assert!(knnk.abs() < 100, "KNNK {knnk}");
}

fn exact_draw(r: Option<Recognition>) -> bool {
    r == Some(Recognition {
        bound: Bound::Exact,
        score: 0,
        eval: 0,
        expense: Expense::Cheap,
    })
}

#[test]
fn insufficient_material_is_an_exact_draw() {
    for fen in [
        "8/8/3k4/8/8/8/3K4/8 w - - 0 1",
        "8/8/3k4/8/8/8/3K4/6N1 b - - 0 1",
        "8/8/3k4/8/8/8/3K4/6B1 w - - 0 1",
        // same-coloured bishops, any number
        "8/8/3k1b2/8/8/8/3K4/6B1 w - - 0 1",
        "8/8/3k4/8/8/8/3K1B2/6B1 b - - 0 1",
    ] {
        let p = pos(fen);
        assert!(p.is_insufficient_material(), "{fen}");
        assert!(exact_draw(recognize(&p)), "{fen}: {:?}", recognize(&p));
        assert!(exact_draw(recognize(&mirrored(&p))), "{fen} mirrored");
        assert_eq!(evaluate(&p), 0, "{fen}");
    }
    // Mate is still possible: not a dead draw, and not a recognized win.
    for fen in [
        "8/8/3k4/8/8/8/3KNN2/8 w - - 0 1",   // KNNK
        "8/8/3k1n2/8/8/8/3K4/6B1 w - - 0 1", // KBKN
        "8/8/3k4/8/8/8/3K4/4B1B1 w - - 0 1", // same colour: exact after all
        "8/8/3k1b2/8/8/8/3K4/5B2 w - - 0 1", // opposite bishops, one each
        "8/8/3k4/8/8/3p4/3K4/6B1 w - - 0 1", // KBKP
    ] {
        let p = pos(fen);
        let r = recognize(&p);
        if p.is_insufficient_material() {
            assert!(exact_draw(r), "{fen}");
        } else {
            assert_eq!(r, None, "{fen}");
        }
    }
}

/// KBNK, dark-squared bishop (c1): the target corners are a1 and h8.
const KBNK_W: &str = "8/8/8/4k3/8/8/8/1NB1K3 w - - 0 1";
const KBNK_B: &str = "8/8/8/4k3/8/8/8/1NB1K3 b - - 0 1";

#[test]
fn kbnk_is_a_known_win_for_either_side_to_move() {
    let w = recognize(&pos(KBNK_W)).expect("KBNK recognized, White to move");
    assert_eq!(w.bound, Bound::Lower);
    assert_eq!(w.expense, Expense::Cheap);
    assert!(w.score >= KNOWN_WIN && w.score <= MAX_EVAL && w.score < MATE_BOUND);
    let b = recognize(&pos(KBNK_B)).expect("KBNK recognized, Black to move");
    assert_eq!(b.bound, Bound::Upper);
    // The winner to move: the material as the bound; the lone king to move: the static score
    // (material plus progress) as the bound (see the recognizer's documentation).
    assert_eq!(b.score, -w.eval);
    assert_eq!(b.eval, -w.eval);
    assert!(w.eval >= w.score);
    // Colours swapped (Black wins, White to move): the same recognition. The mirrored bishop
    // stands on the light c8 and targets a8/h1, the mirror images of a1/h8.
    assert_eq!(recognize(&mirrored(&pos(KBNK_B))), Some(b));
    assert_eq!(recognize(&mirrored(&pos(KBNK_W))), Some(w));
}

#[test]
fn kbnk_prefers_the_bishops_corner_and_close_kings() {
    // The static score carries the progress; the bound is the material alone.
    let score = |fen: &str| recognize(&pos(fen)).expect(fen).eval;
    // Bare king in the right (dark, a1/h8) corner, in the wrong (a8) corner, in the centre: the
    // edge is progress too (the king is driven to an edge first, then along it).
    let h8 = score("7k/8/8/8/8/8/8/1NB1K3 w - - 0 1");
    let a8 = score("k7/8/8/8/8/8/8/1NB1K3 w - - 0 1");
    let centre = score("8/8/8/3k4/8/8/8/1NB1K3 w - - 0 1");
    assert!(h8 > a8 && a8 > centre, "h8 {h8} centre {centre} a8 {a8}");
    // Along the edge from the wrong corner to the right one the score rises step by step.
    let edge: Vec<i32> = ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"]
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let mut rank8 = String::new();
            if i > 0 {
                rank8.push_str(&i.to_string());
            }
            rank8.push('k');
            if i < 7 {
                rank8.push_str(&(7 - i).to_string());
            }
            score(&format!("{rank8}/8/8/8/8/8/8/1NB1K3 w - - 0 1"))
        })
        .collect();
    assert!(edge.windows(2).all(|w| w[0] < w[1]), "{edge:?}");
    // Bringing the strong king closer raises the score.
    let far = score("7k/8/8/8/8/8/8/1NB1K3 w - - 0 1");
    let near = score("7k/8/5K2/8/8/8/8/1NB5 w - - 0 1");
    assert!(near > far, "near {near} far {far}");
}

#[test]
fn kbbk_needs_bishops_on_both_colours() {
    let opposite = recognize(&pos("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1")).expect("KBBK");
    assert_eq!(opposite.bound, Bound::Lower);
    assert!((KNOWN_WIN..=MAX_EVAL).contains(&opposite.score));
    // Bishops on one colour never mate: a dead draw, not a win.
    let same = recognize(&pos("8/8/8/4k3/8/8/8/2B1K1B1 w - - 0 1"));
    assert!(exact_draw(same), "{same:?}");
    // KBBK is the easier win: it outscores KBNK with the same king placement.
    let kbnk = recognize(&pos("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1")).expect("KBNK");
    assert!(opposite.score > kbnk.score && opposite.eval > kbnk.eval);
    // Nearer a corner is better for the winner (any corner).
    let corner = recognize(&pos("k7/8/8/8/8/8/8/2B1KB2 w - - 0 1")).expect("KBBK corner");
    assert!(corner.eval > opposite.eval && corner.score == opposite.score);
}

#[test]
fn more_material_and_queens_outrank_kbnk() {
    let kbnk = recognize(&pos(KBNK_W)).expect("KBNK").score;
    let kqbnk = recognize(&pos("8/8/8/4k3/8/8/8/1NBQK3 w - - 0 1"))
        .expect("KQBNK")
        .score;
    assert!(kqbnk > kbnk);
    let kqk = recognize(&pos("8/8/8/4k3/8/8/8/3QK3 b - - 0 1")).expect("KQK");
    assert_eq!(kqk.bound, Bound::Upper);
    assert!(kqk.score <= -KNOWN_WIN && kqk.score >= -MAX_EVAL);
}

#[test]
fn immediate_escapes_are_left_to_the_search() {
    // The bare king can take the knight.
    assert_eq!(recognize(&pos("8/8/8/8/8/8/1k6/1NB1K3 b - - 0 1")), None);
    // Stalemate: Black to move has no legal move.
    assert_eq!(recognize(&pos("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")), None);
    // Fork: both loose minors next to the bare king, White to move.
    assert_eq!(recognize(&pos("8/8/8/8/3k4/2NB4/8/7K w - - 0 1")), None);
    // The same pieces defended by the king are fine.
    assert!(recognize(&pos("8/8/8/8/3k4/2NB4/2K5/8 w - - 0 1")).is_some());
    // Positions with pawns on both sides or material for both are not recognized.
    assert_eq!(recognize(&Chess::default()), None);
    assert_eq!(recognize(&pos("8/8/3k4/8/8/8/3KR3/5r2 w - - 0 1")), None);
}
