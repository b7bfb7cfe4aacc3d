//! The network's speed: positions evaluated a second, one thread, at a given batch size, over
//! the positions of a game the net plays against itself from the start position (each with its
//! history), so the encoder and the policy over legal moves are timed with the network.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use super::evaluator::{Evaluation, Evaluator};
use super::net::Net;

/// Plies of the benchmark's game.
const PLIES: usize = 64;

/// What one benchmark measured.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub evaluations: usize,
    pub batch: usize,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn per_second(&self) -> f64 {
        self.evaluations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The positions of the net's own game (argmax moves), as growing histories.
pub fn game(net: &Arc<Net>) -> Vec<Vec<Chess>> {
    let mut eval = Evaluator::new(net.clone(), 1);
    let mut game = vec![Chess::default()];
    let mut all = Vec::with_capacity(PLIES);
    while all.len() < PLIES {
        all.push(game.clone());
        let pos = game.last().expect("never empty").clone();
        match eval.evaluate(&game).best() {
            Some(m) => game.push(pos.play(m).expect("the policy's move is legal")),
            None => break,
        }
    }
    all
}

/// Evaluates `evaluations` positions (rounded up to whole batches of `batch`), after one
/// warm-up pass over the game.
pub fn run(net: &Arc<Net>, batch: usize, evaluations: usize) -> BenchResult {
    let batch = batch.max(1);
    let positions = game(net);
    let mut eval = Evaluator::new(net.clone(), batch);
    let mut out = vec![Evaluation::default(); batch];
    // the game's positions in a ring long enough that every batch is one contiguous window
    let slices: Vec<&[Chess]> = positions.iter().map(Vec::as_slice).collect();
    let ring: Vec<&[Chess]> = slices
        .iter()
        .cycle()
        .take(slices.len() + batch)
        .copied()
        .collect();
    let mut next = 0;
    let mut round = |eval: &mut Evaluator, out: &mut [Evaluation]| {
        eval.evaluate_batch(&ring[next..next + batch], out);
        next = (next + batch) % slices.len();
    };
    for _ in 0..positions.len().div_ceil(batch) {
        round(&mut eval, &mut out);
    }
    let rounds = evaluations.max(1).div_ceil(batch);
    let start = Instant::now();
    for _ in 0..rounds {
        round(&mut eval, &mut out);
    }
    BenchResult {
        evaluations: rounds * batch,
        batch,
        elapsed: start.elapsed(),
    }
}
