//! lc0-format networks (Maia) in Rust: reading a `.pb.gz` network, encoding a position with
//! its history into the 112 input planes, the SE-ResNet forward pass, the convolutional policy
//! over the legal moves and the WDL value. Format facts and the checks against lc0 itself:
//! docs/policy.md. Uses no other room of the project.
//!
//! ```no_run
//! use skillcal::policy::{Evaluator, Net};
//! let net = Net::maia(1100).unwrap();
//! let mut eval = Evaluator::new(net, 1);
//! let game = [shakmaty::Chess::default()];
//! let e = eval.evaluate(&game);
//! println!("{:?} {:?}", e.best(), e.wdl);
//! ```

pub mod encode;
pub mod error;
pub mod forward;
pub mod game;
pub mod moves;
pub mod proto;
pub mod weights;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use shakmaty::{Chess, Move, Position};

pub use error::PolicyError;
use weights::Weights;

/// The Maia-1 nets shipped in `nets/maia/` (GPL-3.0, CSSLab), one per 100-point rating band.
pub const MAIA_BANDS: [u32; 9] = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900];

const MAIA_FILES: [&[u8]; 9] = [
    include_bytes!("../../nets/maia/maia-1100.pb.gz"),
    include_bytes!("../../nets/maia/maia-1200.pb.gz"),
    include_bytes!("../../nets/maia/maia-1300.pb.gz"),
    include_bytes!("../../nets/maia/maia-1400.pb.gz"),
    include_bytes!("../../nets/maia/maia-1500.pb.gz"),
    include_bytes!("../../nets/maia/maia-1600.pb.gz"),
    include_bytes!("../../nets/maia/maia-1700.pb.gz"),
    include_bytes!("../../nets/maia/maia-1800.pb.gz"),
    include_bytes!("../../nets/maia/maia-1900.pb.gz"),
];

/// A decoded network, shared between evaluators.
#[derive(Debug)]
pub struct Net {
    pub name: String,
    weights: Weights,
}

impl Net {
    /// Reads an lc0 network file.
    pub fn load(path: &Path) -> Result<Arc<Net>, PolicyError> {
        Ok(Arc::new(Net {
            name: path.display().to_string(),
            weights: weights::load_file(path)?,
        }))
    }

    /// An embedded Maia net by its band (1100, ..., 1900), decoded once per process.
    pub fn maia(band: u32) -> Result<Arc<Net>, PolicyError> {
        static NETS: [OnceLock<Arc<Net>>; 9] = [const { OnceLock::new() }; 9];
        let i = MAIA_BANDS
            .iter()
            .position(|&b| b == band)
            .ok_or_else(|| PolicyError::NoSuchMaia(band.to_string()))?;
        if let Some(net) = NETS[i].get() {
            return Ok(net.clone());
        }
        let name = format!("embedded maia-{band}");
        let weights = weights::load_bytes(MAIA_FILES[i], Path::new(&name))?;
        Ok(NETS[i]
            .get_or_init(|| Arc::new(Net { name, weights }))
            .clone())
    }

    /// `--net` as the command line takes it: a Maia band (`1100`) or a file's path.
    pub fn from_arg(arg: &str) -> Result<Arc<Net>, PolicyError> {
        match arg.trim().parse::<u32>() {
            Ok(band) if MAIA_BANDS.contains(&band) => Net::maia(band),
            _ if Path::new(arg).exists() => Net::load(Path::new(arg)),
            Ok(_) => Err(PolicyError::NoSuchMaia(arg.to_string())),
            Err(_) => Net::load(Path::new(arg)),
        }
    }
}

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
        let forward = forward::Forward::new(&net.weights, max_batch.max(1));
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
            self.forward.run(&self.net.weights, count);
            for (p, (game, e)) in chunk.iter().zip(outs.iter_mut()).enumerate() {
                let pos = game.last().expect("a game has a position");
                let turn = pos.turn();
                e.moves.clear();
                e.logits.clear();
                for m in pos.legal_moves() {
                    let i = moves::policy_index(&m, turn);
                    let (plane, sq) = (i / 64, i % 64);
                    e.logits.push(self.forward.policy[plane * n + p * 64 + sq]);
                    e.moves.push(m);
                }
                e.wdl = self.forward.wdl[p];
            }
        }
    }
}
