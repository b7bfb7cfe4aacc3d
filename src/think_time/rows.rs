//! Every move of the clocked games as a row: the clocks before it, the time it took, and the
//! position as the mover's Maia net sees it. Evaluating the positions is the slow part, so the
//! games go to `concurrency` threads, each with its own evaluators; the rows come back in the
//! games' order, so a run gives the same rows whatever the threads.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use shakmaty::{Chess, Move, Position};

use crate::policy::{Evaluator, Net, MAIA_BANDS};
use crate::strength::{MoveContext, THINK_SENSIBLE as SENSIBLE};

use super::error::{Error, Result};
use super::games::{read_games, ClockedGame, ReadCounts};
use super::half::Half;

/// The first ply whose time the clock shows: Lichess starts each side's clock after its first
/// move.
pub const FIRST_TIMED_PLY: u32 = 2;

/// A position as the mover's net sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct View {
    pub top_prob: f64,
    pub entropy: f64,
    pub sensible: u32,
    pub legal: u32,
    pub in_check: bool,
    pub recapture: bool,
    /// The net's probability of the move played (the engine knows its own choice before it
    /// answers, as a person knows the move they are about to make).
    pub played_prob: f64,
    /// The net's expected score for the mover, win less loss (-1 ... 1).
    pub q: f64,
    /// The net's draw probability.
    pub draw: f64,
    /// Captures among the legal moves.
    pub captures: u32,
    /// Pieces on the board, both sides, kings included.
    pub pieces: u32,
}

/// One timed move of a rated mover.
#[derive(Clone, Debug)]
pub struct MoveRow {
    /// Plies before it.
    pub ply: u32,
    /// The mover's rating.
    pub rating: u32,
    /// The mover's clock before the move and the opponent's, in seconds.
    pub own_clock: f64,
    pub opp_clock: f64,
    /// Seconds taken: the clock before, less the clock after, plus the increment (never below
    /// 0; Lichess clocks are whole seconds, so 0 is under a second).
    pub seconds: f64,
    /// The opponent's seconds on its last move (none before its clock ran).
    pub opp_last: Option<f64>,
    pub view: View,
}

/// One game's rows, both sides, in ply order.
#[derive(Clone, Debug)]
pub struct GameRows {
    /// `file:line`.
    pub at: String,
    pub base: f64,
    pub increment: f64,
    pub rows: Vec<MoveRow>,
}

impl GameRows {
    /// The rows of the side that moves at even plies (`white`) or odd ones.
    pub fn side(&self, white: bool) -> impl Iterator<Item = &MoveRow> {
        self.rows
            .iter()
            .filter(move |r| (r.ply.is_multiple_of(2)) == white)
    }

    /// The mover's context at `row`, with its clock and last times (the latest first) as given.
    pub fn context(&self, row: &MoveRow, own_clock: f64, previous: &[f64]) -> MoveContext {
        MoveContext {
            own_clock,
            opp_clock: row.opp_clock,
            increment: self.increment,
            start_clock: self.base,
            ply: row.ply,
            rating: f64::from(row.rating),
            top_prob: row.view.top_prob,
            entropy: row.view.entropy,
            sensible: row.view.sensible,
            legal: row.view.legal,
            in_check: row.view.in_check,
            recapture: row.view.recapture,
            previous: previous.to_vec(),
            opp_last: row.opp_last,
            played_prob: row.view.played_prob,
            q: row.view.q,
            draw: row.view.draw,
            captures: row.view.captures,
            pieces: row.view.pieces,
        }
    }
}

/// What to read.
#[derive(Clone, Debug)]
pub struct Selection {
    pub files: Vec<PathBuf>,
    pub half: Half,
    /// Stop after this many games of the half.
    pub max_games: Option<usize>,
    /// Read only games whose `TimeControl` base is at least this (seconds).
    pub min_base: Option<f64>,
    /// Read only games of these Lichess speeds (all when empty).
    pub speeds: Vec<super::Speed>,
    pub concurrency: usize,
    /// Where to write every row read (CSV), if anywhere.
    pub rows_csv: Option<PathBuf>,
}

/// The rows of every game read, and what the read kept.
pub struct Collected {
    pub games: Vec<GameRows>,
    pub counts: ReadCounts,
}

impl Collected {
    pub fn moves(&self) -> usize {
        self.games.iter().map(|g| g.rows.len()).sum()
    }
}

/// The Maia band nearest a rating.
pub fn nearest_band(rating: u32) -> u32 {
    let b = (rating + 50) / 100 * 100;
    b.clamp(MAIA_BANDS[0], MAIA_BANDS[MAIA_BANDS.len() - 1])
}

/// Reads the selected games and turns them into rows on `concurrency` threads.
pub fn collect(sel: &Selection) -> Result<Collected> {
    let threads = sel.concurrency.max(1);
    let (game_tx, game_rx) = mpsc::sync_channel::<(usize, ClockedGame)>(threads * 4);
    let game_rx = Arc::new(Mutex::new(game_rx));
    let (row_tx, row_rx) = mpsc::channel::<(usize, Result<GameRows>)>();
    let mut taken = 0usize;
    let counts = std::thread::scope(|s| {
        for _ in 0..threads {
            let rx = Arc::clone(&game_rx);
            let tx = row_tx.clone();
            s.spawn(move || {
                let mut nets = Nets::default();
                loop {
                    let next = rx.lock().map(|r| r.recv());
                    let Ok(Ok((i, game))) = next else { break };
                    if tx.send((i, nets.rows(&game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(row_tx);
        let counts = read_games(
            &sel.files,
            |site, clock| {
                sel.half.holds(site)
                    && sel
                        .min_base
                        .is_none_or(|m| clock.is_some_and(|(b, _)| b >= m))
                    && (sel.speeds.is_empty()
                        || clock.is_some_and(|(b, i)| sel.speeds.contains(&super::Speed::of(b, i))))
            },
            |game| {
                if sel.max_games.is_some_and(|m| taken >= m) {
                    return Ok(false);
                }
                game_tx
                    .send((taken, game))
                    .map_err(|_| Error("a worker thread stopped".into()))?;
                taken += 1;
                Ok(true)
            },
        );
        drop(game_tx);
        counts
    })?;
    let mut games: Vec<(usize, Result<GameRows>)> = row_rx.into_iter().collect();
    if games.len() != taken {
        return Err(Error(format!(
            "{} of {taken} games came back from the threads",
            games.len()
        )));
    }
    games.sort_by_key(|g| g.0);
    let games = games
        .into_iter()
        .map(|(_, g)| g)
        .collect::<Result<Vec<_>>>()?;
    if let Some(path) = &sel.rows_csv {
        write_rows(path, &games)?;
    }
    Ok(Collected { games, counts })
}

/// One thread's evaluators, one per Maia band, made when first needed.
#[derive(Default)]
struct Nets {
    by_band: HashMap<u32, Evaluator>,
}

impl Nets {
    fn evaluator(&mut self, band: u32) -> Result<&mut Evaluator> {
        Ok(match self.by_band.entry(band) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let net = Net::maia(band).map_err(|e| Error(format!("maia-{band}: {e}")))?;
                e.insert(Evaluator::new(net, 8))
            }
        })
    }

    /// The game's timed moves by rated movers, each with its position's view.
    fn rows(&mut self, g: &ClockedGame) -> Result<GameRows> {
        let mut rows = Vec::new();
        for k in 0..g.moves.len() {
            let ply = k as u32;
            let Some(rating) = g.elo[k % 2] else { continue };
            if ply < FIRST_TIMED_PLY {
                continue;
            }
            let taken = |j: usize| (g.clocks[j - 2] - g.clocks[j] + g.increment).max(0.0);
            let before = g.clocks[k - 2];
            let seconds = taken(k);
            let opp_last = (k > FIRST_TIMED_PLY as usize).then(|| taken(k - 1));
            rows.push(MoveRow {
                ply,
                rating,
                own_clock: before,
                opp_clock: g.clocks[k - 1],
                seconds,
                opp_last,
                view: View::default(),
            });
        }
        // the positions of each band's movers in one batch
        let mut by_band: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, r) in rows.iter().enumerate() {
            by_band.entry(nearest_band(r.rating)).or_default().push(i);
        }
        let mut bands: Vec<_> = by_band.into_iter().collect();
        bands.sort_by_key(|b| b.0);
        for (band, idx) in bands {
            let histories: Vec<&[Chess]> = idx
                .iter()
                .map(|&i| &g.positions[..=rows[i].ply as usize])
                .collect();
            let mut evals = vec![Default::default(); histories.len()];
            self.evaluator(band)?.evaluate_batch(&histories, &mut evals);
            for (&i, e) in idx.iter().zip(&evals) {
                let k = rows[i].ply as usize;
                let last = k.checked_sub(1).map(|j| g.moves[j]);
                let probs = e.probabilities(1.0);
                let mut v = view(&g.positions[k], last, &probs);
                v.played_prob = e
                    .moves
                    .iter()
                    .position(|m| *m == g.moves[k])
                    .map_or(0.0, |j| f64::from(probs[j]));
                v.q = f64::from(e.q());
                v.draw = f64::from(e.wdl[1]);
                rows[i].view = v;
            }
        }
        Ok(GameRows {
            at: g.at.clone(),
            base: g.base,
            increment: g.increment,
            rows,
        })
    }
}

/// The position's view from the net's probabilities over its legal moves (in legal-move order).
fn view(pos: &Chess, last: Option<Move>, probs: &[f32]) -> View {
    let top = probs.iter().copied().fold(0.0f32, f32::max);
    let entropy = probs
        .iter()
        .filter(|&&p| p > 0.0)
        .map(|&p| -f64::from(p) * f64::from(p).ln())
        .sum();
    let recapture = last.is_some_and(|m| {
        m.is_capture()
            && pos
                .legal_moves()
                .iter()
                .any(|r| r.is_capture() && r.to() == m.to())
    });
    View {
        top_prob: f64::from(top),
        entropy,
        sensible: probs.iter().filter(|&&p| f64::from(p) >= SENSIBLE).count() as u32,
        legal: probs.len() as u32,
        in_check: pos.is_check(),
        recapture,
        captures: pos.legal_moves().iter().filter(|m| m.is_capture()).count() as u32,
        pieces: pos.board().occupied().count() as u32,
        ..View::default()
    }
}

/// A row as `--rows` writes it.
#[derive(serde::Serialize)]
struct RowOut<'a> {
    at: &'a str,
    base: f64,
    increment: f64,
    ply: u32,
    rating: u32,
    own_clock: f64,
    opp_clock: f64,
    seconds: f64,
    top_prob: f64,
    entropy: f64,
    sensible: u32,
    legal: u32,
    in_check: bool,
    recapture: bool,
    played_prob: f64,
    q: f64,
    draw: f64,
    captures: u32,
    pieces: u32,
}

/// Every row, one a move, for a look outside skillcal.
fn write_rows(path: &std::path::Path, games: &[GameRows]) -> Result<()> {
    let out: Vec<RowOut> = games
        .iter()
        .flat_map(|g| {
            g.rows.iter().map(move |r| RowOut {
                at: &g.at,
                base: g.base,
                increment: g.increment,
                ply: r.ply,
                rating: r.rating,
                own_clock: r.own_clock,
                opp_clock: r.opp_clock,
                seconds: r.seconds,
                top_prob: r.view.top_prob,
                entropy: r.view.entropy,
                sensible: r.view.sensible,
                legal: r.view.legal,
                in_check: r.view.in_check,
                recapture: r.view.recapture,
                played_prob: r.view.played_prob,
                q: r.view.q,
                draw: r.view.draw,
                captures: r.view.captures,
                pieces: r.view.pieces,
            })
        })
        .collect();
    crate::results::write_csv(path, &out).map_err(|e| Error(e.to_string()))
}
