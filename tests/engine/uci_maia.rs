//! `Style=maia` over a real pipe: the Maia net's own move at one node, a whole game of legal
//! moves with the game as the net's history, seeded sampling that replays, `go infinite`
//! waiting for `stop`.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use skillcal::policy::{Evaluator, Net};

use crate::support::uci_pipe::Engine;

const WAIT: Duration = Duration::from_secs(30);

fn maia_engine(opts: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let decls = e.until("uciok", WAIT);
    assert!(
        decls.iter().any(|l| l == "option name MaiaNet type combo default 1100 var 1100 var 1200 var 1300 var 1400 var 1500 var 1600 var 1700 var 1800 var 1900"),
        "{decls:#?}"
    );
    assert!(decls
        .iter()
        .any(|l| l.starts_with("option name Style ") && l.ends_with(" var maia")));
    e.send("setoption name Style value maia");
    for (k, v) in opts {
        e.send(&format!("setoption name {k} value {v}"));
    }
    e.send("isready");
    e.until("readyok", WAIT);
    e
}

/// The moves of a self-played game (`Engine::self_play`), each one evaluation: its last `info`
/// line at depth 1, one node, with the move as its pv.
fn self_play(e: &mut Engine, plies: usize, go: &str) -> Vec<String> {
    let played = e.self_play(plies, go, WAIT);
    for (best, lines) in &played {
        let info = &lines[lines.len() - 2];
        assert!(
            info.starts_with("info depth 1 ") && info.contains(" nodes 1 "),
            "{info}"
        );
        assert!(info.ends_with(&format!(" pv {best}")), "{info}");
    }
    played.into_iter().map(|(best, _)| best).collect()
}

#[test]
fn a_whole_game_of_the_policys_top_moves() {
    let mut e = maia_engine(&[("MaiaNet", "1500")]);
    let moves = self_play(
        &mut e,
        120,
        "go wtime 60000 btime 60000 winc 1000 binc 1000",
    );
    e.quit();
    assert!(moves.len() >= 20, "{moves:?}");
    // every move is the net's argmax given the game so far as history
    let mut eval = Evaluator::new(Net::maia(1500).unwrap(), 1);
    let mut game = vec![Chess::default()];
    for m in &moves {
        let pos = game.last().unwrap().clone();
        let best = eval.evaluate(&game).best().unwrap();
        assert_eq!(
            &best.to_uci(CastlingMode::Standard).to_string(),
            m,
            "after {game:?}"
        );
        let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        game.push(pos.play(mv).unwrap());
    }
}

#[test]
fn sampling_is_seeded_and_replays() {
    let opts = [("PolicyTemperature", "1"), ("RandomSeed", "7")];
    let play = || {
        let mut e = maia_engine(&opts);
        let moves = self_play(&mut e, 30, "go nodes 1");
        e.quit();
        moves
    };
    let a = play();
    assert_eq!(a, play(), "the same seed replays the game");
    let mut argmax = maia_engine(&[]);
    let b = self_play(&mut argmax, 30, "go nodes 1");
    argmax.quit();
    assert_ne!(
        a, b,
        "temperature 1 leaves the top move somewhere in 30 plies"
    );
}

#[test]
fn go_infinite_waits_for_stop_and_limit_strength_is_ignored_aloud() {
    let mut e = maia_engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", "1500")]);
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    let lines = e.until("info depth 1", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("UCI_LimitStrength and UCI_Elo are ignored under Style maia")),
        "{lines:#?}"
    );
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    e.send("stop");
    let lines = e.until("bestmove", WAIT);
    assert_eq!(lines.last().unwrap(), "bestmove e7e5");
    e.send("setoption name MaiaNet value 2000");
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("option MaiaNet: bad value '2000'")),
        "{lines:#?}"
    );
    e.quit();
}
