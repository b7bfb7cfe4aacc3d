//! `Style=maia`: at any `go` the engine answers a Maia network's move after one evaluation (one
//! node), as the Maia bots play: the policy's top move at `PolicyTemperature` 0, else a move
//! drawn from the policy's softmax at that temperature with the engine's seeded generator (the
//! seed, the position and the ply, as the other random choices), so games replay. The game's
//! moves (`position ... moves`) are the network's history. The net is decoded when chosen
//! (`Style`, `MaiaNet`) and kept.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::RngExt;
use shakmaty::{Chess, Move, Position};

use super::thread::{Answer, Wait};
use super::Uci;
use crate::engine::command::Go;
use crate::engine::position::{uci_string, Game};
use crate::policy::{Evaluation, Evaluator, Net, PolicyError};
use crate::strength::{move_seed, policy_rng};

/// The positions of the current game and the loaded network.
#[derive(Default)]
pub struct MaiaState {
    /// The game's positions, oldest first (the last is the one to play from).
    positions: Vec<Chess>,
    /// The band loaded and its evaluator (shared with the answering thread).
    evaluator: Option<(u32, Arc<Mutex<Evaluator>>)>,
}

impl MaiaState {
    pub fn reset(&mut self, root: &Chess) {
        self.positions.clear();
        self.positions.push(root.clone());
    }

    pub fn push(&mut self, pos: &Chess) {
        self.positions.push(pos.clone());
    }

    /// The evaluator of the net of `band`, loaded unless it is the one kept (then kept).
    pub fn evaluator(&mut self, band: u32) -> Result<Arc<Mutex<Evaluator>>, PolicyError> {
        match &self.evaluator {
            Some((b, e)) if *b == band => Ok(e.clone()),
            _ => {
                let e = Arc::new(Mutex::new(Evaluator::new(Net::maia(band)?, 1)));
                self.evaluator = Some((band, e.clone()));
                Ok(e)
            }
        }
    }

    /// The game's positions up to `root` (its history for the net), or `root` alone when the
    /// positions tracked by `position` do not end there.
    pub fn history(&self, root: &Chess) -> Vec<Chess> {
        match self.positions.last() {
            Some(p) if p == root => self.positions.clone(),
            _ => vec![root.clone()],
        }
    }
}

/// lc0's conversion of an expected score `q` (win minus loss) to centipawns.
pub(super) fn centipawns(q: f32) -> i32 {
    let q = f64::from(q).clamp(-0.999, 0.999);
    (90.0 * (1.563_754_189_7 * q).tan())
        .round()
        .clamp(-9999.0, 9999.0) as i32
}

/// The move played: the top move at temperature 0, else one drawn from the softmax.
pub(super) fn choose(e: &Evaluation, temperature: f64, seed: u64) -> Option<Move> {
    if temperature <= 0.0 {
        return e.best();
    }
    let probs = e.probabilities(temperature as f32);
    let mut u: f64 = policy_rng(seed).random::<f64>();
    for (m, p) in e.moves.iter().zip(&probs) {
        u -= f64::from(*p);
        if u < 0.0 {
            return Some(*m);
        }
    }
    e.moves.last().copied()
}

impl Uci {
    /// Loads the net `MaiaNet` names while `Style` is maia (once: kept until another is chosen).
    pub(super) fn maia_load(&mut self) {
        let maia = &self.settings.maia;
        if !maia.on
            || self
                .maia
                .evaluator
                .as_ref()
                .is_some_and(|(b, _)| *b == maia.net)
        {
            return;
        }
        match Net::maia(maia.net) {
            Ok(net) => {
                self.maia.evaluator = Some((maia.net, Arc::new(Mutex::new(Evaluator::new(net, 1)))))
            }
            Err(e) => self.say(&format!("info string MaiaNet: {e}")),
        }
    }

    /// `go` under `Style=maia`: whatever its limits, one evaluation. `bestmove` waits for
    /// `stop` or `ponderhit` after `go infinite` or `go ponder`, as UCI wants.
    pub(super) fn go_maia(&mut self, game: &Game, go: &Go) {
        self.maia_load();
        let Some((_, evaluator)) = self.maia.evaluator.clone() else {
            self.say("bestmove 0000");
            return;
        };
        let maia = self.settings.maia.clone();
        if maia.temperature > 0.0 {
            self.tell_seed();
        }
        if let Some(text) = self.settings.strength_info() {
            self.say(&format!("info string {text}"));
        }
        let positions = self.maia.history(&game.root);
        let seed = move_seed(self.seed, game.root_key, game.history.len() as u32);
        let wait = Wait {
            infinite: go.infinite,
            ponder: go.ponder,
        };
        self.spawn_search("maia", wait, move |_, _, say| {
            let start = Instant::now();
            let e = match evaluator.lock() {
                Ok(mut ev) => ev.evaluate(&positions),
                Err(poisoned) => poisoned.into_inner().evaluate(&positions),
            };
            let best = choose(&e, maia.temperature, seed);
            let ms = start.elapsed().as_millis();
            match best {
                Some(m) => say(&format!(
                    "info depth 1 seldepth 1 multipv 1 score cp {} nodes 1 nps {} time {ms} pv {}",
                    centipawns(e.q()),
                    1000 / ms.max(1),
                    uci_string(m)
                )),
                None => say(if positions[positions.len() - 1].is_check() {
                    "info depth 0 score mate 0"
                } else {
                    "info depth 0 score cp 0"
                }),
            }
            Answer {
                best,
                ..Answer::default()
            }
        });
    }
}
