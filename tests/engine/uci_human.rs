//! `Style=human` over a real pipe: the option declared, legal moves over a game at points of
//! the schedule's three stretches (mistakes at 0 and 100, said, each losing more than its
//! weight allows), Maia-1900's own moves at 500, a game replaying whatever the seed, and
//! `UCI_Elo` read from the family's table.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use skillcal::policy::{Evaluator, Net};
use skillcal::strength::human_expected_score as expected;

use crate::support::uci_pipe::Engine;

const WAIT: Duration = Duration::from_secs(60);
const CLOCK: &str = "go wtime 60000 btime 60000 winc 1000 binc 1000";

fn human_engine(opts: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let decls = e.until("uciok", WAIT);
    assert!(
        decls
            .iter()
            .any(|l| l == "option name HumanStrength type spin default 1000 min 0 max 1000"),
        "{decls:#?}"
    );
    assert!(decls
        .iter()
        .any(|l| l.starts_with("option name Style ") && l.contains(" var human")));
    e.send("setoption name Style value human");
    for (k, v) in opts {
        e.send(&format!("setoption name {k} value {v}"));
    }
    e.send("isready");
    e.until("readyok", WAIT);
    e
}

/// The moves of a self-played game (`Engine::self_play`) and every line the engine said.
fn self_play(e: &mut Engine, plies: usize, go: &str) -> (Vec<String>, Vec<String>) {
    let (moves, said): (Vec<String>, Vec<Vec<String>>) =
        e.self_play(plies, go, WAIT).into_iter().unzip();
    (moves, said.concat())
}

#[test]
fn legal_moves_over_a_game_at_points_of_both_halves() {
    let mut mistakes_at = Vec::new();
    for h in ["0", "100", "250", "650", "850"] {
        let mut e = human_engine(&[("HumanStrength", h), ("RandomSeed", "3")]);
        let (moves, said) = self_play(&mut e, 40, CLOCK);
        e.quit();
        // every move legal, and the game 20 plies long or over (Maia-1200's own top moves
        // fall for the Fried Liver Attack in 17 plies)
        let mut pos = Chess::default();
        for m in &moves {
            let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos = pos.play(mv).unwrap();
        }
        assert!(
            moves.len() >= 20 || pos.is_game_over(),
            "HumanStrength {h}: {moves:?}"
        );
        // 0: a mistake wherever a plausible move scores worse than the top move; 100: where one
        // loses more than its weight (1) times the policy it gives up; 250: a net's top move;
        // 650 and 850: the candidates searched
        let lines: Vec<&String> = said
            .iter()
            .filter(|l| l.starts_with("info string human: a mistake"))
            .collect();
        for l in &lines {
            let (p, s, q, t, w) = mistake_line(l);
            assert!(
                expected(t) - expected(s) > w * (q - p) - 1e-3 * w.max(1.0),
                "HumanStrength {h}: {l}"
            );
        }
        let mistakes = lines.len();
        mistakes_at.push(mistakes);
        let searched = said
            .iter()
            .any(|l| l.starts_with("info string human: ") && l.contains("candidates within"));
        assert_eq!(
            mistakes > 0,
            h == "0" || h == "100",
            "HumanStrength {h}: {mistakes} mistakes"
        );
        assert_eq!(searched, h == "650" || h == "850", "HumanStrength {h}");
    }
    assert!(
        mistakes_at[0] > 10 && mistakes_at[0] > mistakes_at[1],
        "{mistakes_at:?}"
    );
}

/// A mistake's line read back: the move's policy (0..1) and score, the top move's, the weight.
fn mistake_line(l: &str) -> (f64, i32, f64, i32, f64) {
    let num = |s: &str| -> f64 {
        s.trim_matches(|c: char| !c.is_ascii_digit() && c != '-' && c != '.')
            .parse()
            .unwrap_or_else(|_| panic!("{s} in {l}"))
    };
    let w: Vec<&str> = l.split_whitespace().collect();
    let at = |key: &str, nth: usize| {
        w.iter()
            .enumerate()
            .filter(|(_, t)| **t == key)
            .nth(nth)
            .unwrap_or_else(|| panic!("{key} in {l}"))
            .0
    };
    let (p0, p1) = (at("(policy", 0), at("(policy", 1));
    (
        num(w[p0 + 1]) / 100.0,
        num(w[p0 + 2]) as i32,
        num(w[p1 + 1]) / 100.0,
        num(w[p1 + 2]) as i32,
        num(w[at("weight", 0) + 1]),
    )
}

#[test]
fn at_500_and_temperature_0_every_move_is_maia_1900s_top_move() {
    let mut e = human_engine(&[("HumanStrength", "500"), ("HumanTemperature", "0")]);
    let (moves, _) = self_play(&mut e, 30, CLOCK);
    e.quit();
    let mut eval = Evaluator::new(Net::maia(1900).unwrap(), 1);
    let mut game = vec![Chess::default()];
    for m in &moves {
        let pos = game.last().unwrap().clone();
        let best = eval.evaluate(&game).best().unwrap();
        assert_eq!(best.to_uci(CastlingMode::Standard).to_string(), *m);
        let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        game.push(pos.play(mv).unwrap());
    }
}

#[test]
fn a_seed_replays_its_game_and_temperature_0_ignores_the_seed() {
    // at HumanTemperature 0 no choice is random (mistakes and candidates come from node-bounded
    // searches); above it the choice is drawn from the seed, so each seed is its own game
    for h in ["50", "700"] {
        let play = |seed: &str, t: &str| {
            let mut e = human_engine(&[
                ("HumanStrength", h),
                ("RandomSeed", seed),
                ("HumanTemperature", t),
            ]);
            let (moves, _) = self_play(&mut e, 30, CLOCK);
            e.quit();
            moves
        };
        let a = play("11", "0");
        assert_eq!(a, play("11", "0"), "HumanStrength {h}: the game replays");
        assert_eq!(
            a,
            play("12", "0"),
            "HumanStrength {h}: the seed changes nothing"
        );
        let b = play("11", "0.35");
        assert_eq!(
            b,
            play("11", "0.35"),
            "HumanStrength {h}: the seed's game replays"
        );
        assert_ne!(
            b,
            play("12", "0.35"),
            "HumanStrength {h}: another seed, another game"
        );
    }
}

#[test]
fn uci_elo_reads_the_human_table() {
    let mut e = human_engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", "1500")]);
    e.send("position startpos");
    e.send("go nodes 1000");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string UCI_Elo 1500 (Style human")
                && l.contains("HumanStrength=")),
        "{lines:#?}"
    );
    e.send("setoption name HumanStrength value 1001");
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("option HumanStrength: bad value '1001'")),
        "{lines:#?}"
    );
    e.quit();
}
