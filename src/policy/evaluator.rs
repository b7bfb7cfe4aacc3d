//! Evaluating positions: the encoder, the forward pass and the policy over the legal moves.

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use super::net::Net;
use super::{encode, forward, moves};

/// The network's view of one position: each legal move's logit and the value.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// The legal moves, in shakmaty's generation order.
    pub moves: Vec<Move>,
    /// The policy's raw output for each move.
    pub logits: Vec<f32>,
    /// Win, draw, loss for the side to move.
    pub wdl: [f32; 3],
}

impl Evaluation {
    /// Each move's probability, softmax of the logits over the legal moves at `temperature`
    /// (lc0's `PolicyTemperature`; 1 is the network's own distribution). `temperature` > 0.
    pub fn probabilities_into(&self, temperature: f32, out: &mut Vec<f32>) {
        out.clear();
        let max = self
            .logits
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        out.extend(self.logits.iter().map(|&l| ((l - max) / temperature).exp()));
        let sum: f32 = out.iter().sum();
        if sum > 0.0 {
            out.iter_mut().for_each(|p| *p /= sum);
        }
    }

    pub fn probabilities(&self, temperature: f32) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.logits.len());
        self.probabilities_into(temperature, &mut out);
        out
    }

    /// The moves with their probabilities at `temperature`, most likely first (ties in move
    /// generation order).
    pub fn sorted(&self, temperature: f32) -> Vec<(Move, f32)> {
        let mut v: Vec<(Move, f32)> = self
            .moves
            .iter()
            .copied()
            .zip(self.probabilities(temperature))
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        v
    }

    /// The policy's top move (the first of equal logits); None when there is no legal move.
    pub fn best(&self) -> Option<Move> {
        let mut best: Option<(usize, f32)> = None;
        for (i, &l) in self.logits.iter().enumerate() {
            if best.is_none_or(|(_, b)| l > b) {
                best = Some((i, l));
            }
        }
        best.map(|(i, _)| self.moves[i])
    }

    /// Win minus loss, in [-1, 1].
    pub fn q(&self) -> f32 {
        self.wdl[0] - self.wdl[2]
    }
}

/// Evaluates positions with one network, with buffers for up to `max_batch` positions at once.
pub struct Evaluator {
    net: Arc<Net>,
    forward: forward::Forward,
    encoder: encode::Encoder,
}

impl Evaluator {
    pub fn new(net: Arc<Net>, max_batch: usize) -> Evaluator {
        let forward = forward::Forward::new(&net.layers, max_batch.max(1));
        Evaluator {
            net,
            forward,
            encoder: encode::Encoder::default(),
        }
    }

    pub fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Evaluates the last position of `game` (the game's positions, oldest first; the earlier
    /// ones are its history). Panics on an empty slice.
    pub fn evaluate(&mut self, game: &[Chess]) -> Evaluation {
        let mut out = [Evaluation::default()];
        self.evaluate_batch(&[game], &mut out);
        let [e] = out;
        e
    }

    /// Evaluates the last position of each game into `out` (as long as `games`), reusing the
    /// vectors `out` already holds; batches of up to `max_batch` go through the network at once.
    pub fn evaluate_batch(&mut self, games: &[&[Chess]], out: &mut [Evaluation]) {
        assert_eq!(games.len(), out.len());
        let max = self.forward.max_batch;
        for (chunk, outs) in games.chunks(max).zip(out.chunks_mut(max)) {
            let count = chunk.len();
            let n = count * 64;
            for (p, game) in chunk.iter().enumerate() {
                let planes = &mut self.forward.planes[p * 64..];
                self.encoder.encode(game, planes, n);
            }
            self.forward.run(&self.net.layers, count);
            for (p, (game, e)) in chunk.iter().zip(outs.iter_mut()).enumerate() {
                let pos = game.last().expect("a game has a position");
                let turn = pos.turn();
                e.moves.clear();
                e.logits.clear();
                for m in pos.legal_moves() {
                    let i = moves::policy_index(&m, turn);
                    let (plane, sq) = (i / 64, i % 64);
                    e.logits.push(self.forward.policy_logit(p, plane, sq));
                    e.moves.push(m);
                }
                e.wdl = self.forward.wdl[p];
            }
        }
    }
}
