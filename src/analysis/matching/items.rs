//! What move-matching evaluates: one item per probe of a human game (the position with the
//! last few before it, the human's move, the mover's band and the game it came from), and the
//! seeded sample of a fixed number of positions per band, drawn while streaming.

use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::hash::Hasher;

use fnv::FnvHasher;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use crate::analysis::input::{full_fen, Clock, HumanGame};

/// Positions kept up to each probe's, oldest first: a policy network's input reads the last
/// eight, and whether each of them occurred before (back to its last irreversible move, so
/// those positions are kept too).
pub const HISTORY: usize = 8;

/// One position to match.
#[derive(Clone, Debug)]
pub struct Item {
    /// The game: its file's index and its number there.
    pub game: (usize, u64),
    pub band: u32,
    /// At least [`HISTORY`] positions (fewer from the game's start), the last the one the
    /// human moved from.
    pub history: Vec<Chess>,
    /// The moves from the history's first position to the last.
    pub moves: Vec<Move>,
    pub played: Move,
    /// Its plies from the start of the game's text.
    pub ply: usize,
    /// The clocks before the move, when the game has them.
    pub clock: Option<Clock>,
}

impl Item {
    /// The position as `position fen` takes it, with its history: the history's first
    /// position and the moves from it (`FEN moves e2e4 ...`), so an engine sees what it sees in a
    /// game (a Maia net reads the last eight positions; a search, repetitions).
    pub fn with_history(&self) -> String {
        let fen = full_fen(&self.history[0]);
        if self.moves.is_empty() {
            return fen;
        }
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| UciMove::from_standard(*m).to_string())
            .collect();
        format!("{fen} moves {}", moves.join(" "))
    }

    /// The human's move in UCI notation (castling as the king's two-square move).
    pub fn played_uci(&self) -> String {
        UciMove::from_standard(self.played).to_string()
    }
}

/// The item of one probe (`k` = the probe's index in `g.probes`).
pub fn item(g: &HumanGame, k: usize) -> Item {
    let p = g.probes[k];
    let last8 = (p.ply + 1).saturating_sub(HISTORY);
    // a kept position's repetition plane looks back to its last irreversible move
    let from = (last8..=p.ply)
        .map(|q| q.saturating_sub(g.positions[q].halfmoves() as usize))
        .min()
        .unwrap_or(last8);
    Item {
        game: (g.file, g.number),
        band: p.band,
        history: g.positions[from..=p.ply].to_vec(),
        moves: g.moves[from..p.ply].to_vec(),
        played: g.moves[p.ply],
        ply: p.ply,
        clock: p.clock,
    }
}

/// Every probe of a game as an item.
pub fn items(g: &HumanGame) -> Vec<Item> {
    (0..g.probes.len()).map(|k| item(g, k)).collect()
}

/// A probe's draw in the sample: an FNV-1a digest (the same on every platform and build) of
/// the seed, the file's name, the game's number and the ply. The sample of a band is its
/// positions with the smallest draws: a uniform sample without replacement, the same whatever
/// the reading order, and each prefix of it (by draw) a uniform sample too.
pub fn draw(seed: u64, file: &str, number: u64, ply: usize) -> u64 {
    let mut h = FnvHasher::default();
    h.write_u64(seed);
    h.write(file.as_bytes());
    h.write_u64(number);
    h.write_u64(ply as u64);
    h.finish()
}

/// The `n` smallest draws of each band, gathered one probe at a time.
pub struct Sampler {
    n: usize,
    seed: u64,
    /// Per band, a max-heap of (draw, file, game number, ply).
    heaps: BTreeMap<u32, BinaryHeap<(u64, usize, u64, usize)>>,
}

impl Sampler {
    pub fn new(n: usize, seed: u64) -> Sampler {
        Sampler {
            n,
            seed,
            heaps: BTreeMap::new(),
        }
    }

    /// Offers every probe of a game (`file_name`: its file's name, part of the draw).
    pub fn offer(&mut self, file_name: &str, g: &HumanGame) {
        for p in &g.probes {
            let d = draw(self.seed, file_name, g.number, p.ply);
            let heap = self.heaps.entry(p.band).or_default();
            if heap.len() < self.n {
                heap.push((d, g.file, g.number, p.ply));
            } else if heap.peek().is_some_and(|top| d < top.0) {
                heap.pop();
                heap.push((d, g.file, g.number, p.ply));
            }
        }
    }

    /// The chosen probes: per game (file, number), its plies with their draws.
    pub fn chosen(&self) -> HashMap<(usize, u64), Vec<(usize, u64)>> {
        let mut out: HashMap<(usize, u64), Vec<(usize, u64)>> = HashMap::new();
        for heap in self.heaps.values() {
            for &(d, f, n, ply) in heap {
                out.entry((f, n)).or_default().push((ply, d));
            }
        }
        out
    }
}

/// The chosen items of a game: its probes at the plies `chosen` names, each with its draw.
pub fn chosen_items(g: &HumanGame, chosen: &[(usize, u64)]) -> Vec<(u64, Item)> {
    (0..g.probes.len())
        .filter_map(|k| {
            let ply = g.probes[k].ply;
            let d = chosen.iter().find(|c| c.0 == ply)?.1;
            Some((d, item(g, k)))
        })
        .collect()
}
