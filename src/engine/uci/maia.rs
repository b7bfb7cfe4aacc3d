//! `Style=maia`: at any `go` the engine answers a Maia network's move after one evaluation (one
//! node), as the Maia bots play: the policy's top move at `PolicyTemperature` 0, else a move
//! drawn from the policy's softmax at that temperature with the engine's seeded generator (the
//! seed, the position and the ply, as the other random choices), so games replay. The game's
//! moves (`position ... moves`) are the network's history. The net is decoded when chosen
//! (`Style`, `MaiaNet`) and kept.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngExt;
use shakmaty::{Chess, Move};

use super::Uci;
use crate::engine::position::{uci_string, Game};
use crate::engine::search::{Control, Engine};
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
    pub(super) fn go_maia(&mut self, game: &Game, wait: bool) {
        self.maia_load();
        let Some((_, evaluator)) = self.maia.evaluator.clone() else {
            self.say("bestmove 0000");
            return;
        };
        let maia = self.settings.maia.clone();
        if maia.temperature > 0.0 && self.settings.random_seed == 0 && !self.seed_told {
            self.say(&format!(
                "info string RandomSeed 0: seeded from the clock with {} (set RandomSeed to replay)",
                self.seed
            ));
            self.seed_told = true;
        }
        if let Some(text) = self.settings.strength_info() {
            self.say(&format!("info string {text}"));
        }
        // positions tracked by `position`; the game's root must be their last
        let positions = match self.maia.positions.last() {
            Some(p) if *p == game.root => self.maia.positions.clone(),
            _ => vec![game.root.clone()],
        };
        let seed = move_seed(self.seed, game.root_key, game.history.len() as u32);
        let engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.opts.hash_mb));
        self.control = Control::default();
        self.control.ponder.store(wait, Ordering::SeqCst);
        let control = self.control.clone();
        let answered = Arc::new(std::sync::atomic::AtomicBool::new(false));
        self.answered = answered.clone();
        let out = self.out.clone();
        let handle = std::thread::Builder::new()
            .name("maia".into())
            .spawn(move || {
                let start = Instant::now();
                let e = match evaluator.lock() {
                    Ok(mut ev) => ev.evaluate(&positions),
                    Err(poisoned) => poisoned.into_inner().evaluate(&positions),
                };
                let best = choose(&e, maia.temperature, seed);
                let ms = start.elapsed().as_millis();
                match best {
                    Some(m) => out.say(&format!(
                        "info depth 1 seldepth 1 multipv 1 score cp {} nodes 1 nps {} time {ms} pv {}",
                        centipawns(e.q()),
                        1000 / ms.max(1),
                        uci_string(m)
                    )),
                    None => out.say(if shakmaty::Position::is_check(&positions[positions.len() - 1]) {
                        "info depth 0 score mate 0"
                    } else {
                        "info depth 0 score cp 0"
                    }),
                }
                while control.ponder.load(Ordering::SeqCst) && !control.stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                out.say(&match best {
                    Some(m) => format!("bestmove {}", uci_string(m)),
                    None => "bestmove 0000".to_string(),
                });
                answered.store(true, Ordering::SeqCst);
                engine
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => self.say(&format!("info string cannot start the maia thread: {e}")),
        }
    }
}
