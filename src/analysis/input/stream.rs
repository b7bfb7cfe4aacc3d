//! Human games streamed from PGN files, plain, zstd (`.zst`) or gzip (`.gz`): one game in
//! memory at a time, so a Lichess monthly file (tens of millions of games) reads like a small
//! one. Games are filtered by the players' ratings and the time control before their moves are
//! replayed, and each kept game carries its probes: the moves to match, under Maia's protocol
//! (plies from `min_ply` on; a move made with under `min_clock` seconds left is skipped when a
//! `[%clk]` comment gives the clock; McIlroy-Young et al., KDD 2020).

use std::cell::Cell;
use std::io::{self, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::filter::{time_control, HumanFilter};
use super::games::{parse_clock, rating};
use crate::analysis::error::{AnalysisError, Result};

/// One move to match: the ply's index in the game (`positions[ply]` is before it), the
/// mover's band (its low end) and the clocks before it when the game has them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    pub ply: usize,
    pub band: u32,
    pub clock: Option<Clock>,
}

/// The clocks before a move, in seconds, as a UCI `go` gives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub white: f64,
    pub black: f64,
    pub increment: f64,
}

impl Clock {
    /// `go wtime W btime B winc I binc I` (milliseconds).
    pub fn go(&self) -> String {
        let ms = |s: f64| (s * 1000.0).round() as u64;
        let inc = ms(self.increment);
        format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            ms(self.white),
            ms(self.black)
        )
    }
}

/// One kept game.
#[derive(Clone, Debug)]
pub struct HumanGame {
    /// Index of its file among the inputs.
    pub file: usize,
    /// Its number in the file, from 1 (every game counts, kept or not).
    pub number: u64,
    /// The positions before each move, and after the last.
    pub positions: Vec<Chess>,
    pub moves: Vec<Move>,
    pub probes: Vec<Probe>,
}

/// What the reading skipped and kept, for the run's summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub kept: u64,
    /// Neither side rated.
    pub unrated: u64,
    /// No rated side in `min_elo..=max_elo`.
    pub out_of_range: u64,
    /// Time control outside the bounds, or unknown while a bound is set.
    pub time_control: u64,
    /// An illegal move, a bad FEN or rating tag.
    pub unplayable: u64,
    /// Kept by the tags but no move to match (too short, or time trouble throughout).
    pub no_probe: u64,
    /// Games passed over unread (the caller had them already).
    pub passed: u64,
    pub probes: u64,
}

#[derive(Default)]
struct Tags {
    white_elo: Option<String>,
    black_elo: Option<String>,
    time_control: Option<String>,
    fen: Option<String>,
}

struct Movetext {
    elo: [Option<u32>; 2],
    pos: Chess,
    positions: Vec<Chess>,
    moves: Vec<Move>,
    clocks: Vec<Option<f64>>,
    start_ply: usize,
    /// The `TimeControl` (base, increment) when readable.
    tc: Option<(u32, u32)>,
}

enum Outcome {
    Game(Box<Movetext>),
    Unrated,
    OutOfRange,
    TimeControl,
    Unplayable(String),
}

struct FilterVisitor<'a> {
    filter: &'a HumanFilter,
}

impl FilterVisitor<'_> {
    fn tc_ok(&self, tag: Option<&str>) -> bool {
        let f = self.filter;
        if f.tc_min_base.is_none() && f.tc_max_base.is_none() {
            return true;
        }
        match tag.map(time_control) {
            Some(Ok(Some((base, _)))) => {
                f.tc_min_base.is_none_or(|m| base >= m) && f.tc_max_base.is_none_or(|m| base <= m)
            }
            _ => false,
        }
    }

    fn start(&self, tags: Tags) -> std::result::Result<Movetext, Outcome> {
        let elo = |v: &Option<String>, tag: &str| {
            rating(v.as_deref().unwrap_or(""))
                .map_err(|e| Outcome::Unplayable(format!("{tag} {e}")))
        };
        let raw = [
            elo(&tags.white_elo, "WhiteElo")?,
            elo(&tags.black_elo, "BlackElo")?,
        ];
        if raw.iter().all(Option::is_none) {
            return Err(Outcome::Unrated);
        }
        let elo = raw.map(|e| self.filter.rated_in_range(e));
        if elo.iter().all(Option::is_none) {
            return Err(Outcome::OutOfRange);
        }
        if !self.tc_ok(tags.time_control.as_deref()) {
            return Err(Outcome::TimeControl);
        }
        let pos = match &tags.fen {
            None => Chess::default(),
            Some(f) => f
                .parse::<Fen>()
                .map_err(|e| e.to_string())
                .and_then(|f| {
                    f.into_position(CastlingMode::Standard)
                        .map_err(|e| e.to_string())
                })
                .map_err(|e| Outcome::Unplayable(format!("bad FEN tag '{f}': {e}")))?,
        };
        let start_ply =
            (pos.fullmoves().get() as usize - 1) * 2 + usize::from(pos.turn() == Color::Black);
        Ok(Movetext {
            elo,
            positions: vec![pos.clone()],
            pos,
            moves: Vec::new(),
            clocks: Vec::new(),
            start_ply,
            tc: tags
                .time_control
                .as_deref()
                .and_then(|t| time_control(t).ok().flatten()),
        })
    }
}

impl Visitor for FilterVisitor<'_> {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Outcome;

    fn begin_tags(&mut self) -> ControlFlow<Outcome, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Outcome> {
        let v = || Some(value.decode_utf8_lossy().trim().to_string());
        match name {
            b"WhiteElo" => tags.white_elo = v(),
            b"BlackElo" => tags.black_elo = v(),
            b"TimeControl" => tags.time_control = v(),
            b"FEN" => tags.fen = v(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Outcome, Movetext> {
        // a game the filter drops is not replayed
        match self.start(tags) {
            Ok(m) => ControlFlow::Continue(m),
            Err(o) => ControlFlow::Break(o),
        }
    }

    fn san(&mut self, m: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Outcome> {
        match san_plus.san.to_move(&m.pos) {
            Ok(mv) => {
                m.pos.play_unchecked(mv);
                m.positions.push(m.pos.clone());
                m.moves.push(mv);
                m.clocks.push(None);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Outcome::Unplayable(format!(
                "illegal move {san_plus} after {} plies: {e}",
                m.moves.len()
            ))),
        }
    }

    fn comment(&mut self, m: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<Outcome> {
        if let (Some(last), Some(c)) = (
            m.clocks.last_mut(),
            parse_clock(&String::from_utf8_lossy(comment.as_bytes())),
        ) {
            *last = Some(c);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _m: &mut Movetext) -> ControlFlow<Outcome, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, m: Movetext) -> Outcome {
        Outcome::Game(Box::new(m))
    }
}

/// The clocks before move `k` (the mover's after its previous move, the opponent's after its
/// last; the base before a side's first move), when the game has a `TimeControl` and clocks.
fn clock_before(m: &Movetext, k: usize) -> Option<Clock> {
    let (base, inc) = m.tc?;
    let at = |j: Option<usize>| match j {
        None => Some(f64::from(base)),
        Some(j) => m.clocks[j],
    };
    let mover = at(k.checked_sub(2))?;
    let other = at(k.checked_sub(1))?;
    let white_moves = m.positions[k].turn() == Color::White;
    let (white, black) = if white_moves {
        (mover, other)
    } else {
        (other, mover)
    };
    Some(Clock {
        white,
        black,
        increment: f64::from(inc),
    })
}

/// The probes of a replayed game under the filter.
fn probes(m: &Movetext, f: &HumanFilter) -> Vec<Probe> {
    (0..m.moves.len())
        .filter_map(|k| {
            let side = usize::from(m.positions[k].turn() == Color::Black);
            let elo = m.elo[side]?;
            let early = m.start_ply + k < f.min_ply;
            let hurried = m.clocks[k].is_some_and(|c| c < f.min_clock);
            let clock = clock_before(m, k);
            let own = clock.map(|c| if side == 0 { c.white } else { c.black });
            let relaxed = f.max_clock.is_some_and(|max| own.is_none_or(|c| c >= max));
            (!early && !hurried && !relaxed).then_some(Probe {
                ply: k,
                band: elo / f.band * f.band,
                clock,
            })
        })
        .collect()
}

/// Counts the bytes read from the file (compressed), for progress by bytes.
struct CountBytes<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for CountBytes<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Counts the lines of the text read (decompressed), for messages that name a game's line.
struct CountLines<R> {
    inner: R,
    lines: Rc<Cell<u64>>,
}

impl<R: Read> Read for CountLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let nl = buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        self.lines.set(self.lines.get() + nl);
        Ok(n)
    }
}

/// Opens a PGN file by its name: `.zst` zstd, `.gz` gzip (all members), anything else plain.
/// `read` counts the bytes taken from the file.
pub fn open(path: &Path, read: Arc<AtomicU64>) -> Result<Box<dyn Read>> {
    // a regular file only: a FIFO would block, a device never end
    let file = crate::fsutil::open_regular(path).map_err(|e| AnalysisError::io("open", path, e))?;
    let file = CountBytes { inner: file, read };
    let name = path.to_string_lossy();
    Ok(if name.ends_with(".zst") {
        Box::new(
            zstd::stream::read::Decoder::new(file)
                .map_err(|e| AnalysisError::io("open (zstd)", path, e))?,
        )
    } else if name.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(file)))
    } else {
        Box::new(file)
    })
}

/// At most this many unplayable games are named a file; the rest are counted.
const NAMED: u64 = 5;

/// Streams every game of `files` in order. `wanted(file, number)` says whether a game is
/// replayed at all (no: it is passed over unread, counted in `passed`); each game kept by the
/// filter with at least one probe goes to `each`. `read` counts the bytes taken from the files.
pub fn stream(
    files: &[PathBuf],
    filter: &HumanFilter,
    read: &Arc<AtomicU64>,
    mut wanted: impl FnMut(usize, u64) -> bool,
    mut each: impl FnMut(HumanGame) -> Result<()>,
) -> Result<Counts> {
    let mut counts = Counts::default();
    let mut visitor = FilterVisitor { filter };
    for (fi, path) in files.iter().enumerate() {
        let lines = Rc::new(Cell::new(0u64));
        let text = CountLines {
            inner: open(path, Arc::clone(read))?,
            lines: Rc::clone(&lines),
        };
        let mut reader = Reader::new(text);
        let bad_read = |e: io::Error| {
            AnalysisError::file(
                path,
                format!("cannot read as PGN (or as {}): {e}", kind(path)),
            )
        };
        let mut number = 0u64;
        let mut unplayable_here = 0u64;
        while reader.has_more().map_err(bad_read)? {
            number += 1;
            counts.games += 1;
            if !wanted(fi, number) {
                reader.skip_game().map_err(bad_read)?;
                counts.passed += 1;
                continue;
            }
            let buffered = reader.buffer().iter().filter(|&&b| b == b'\n').count() as u64;
            let line = lines.get() - buffered + 1;
            let Some(outcome) = reader.read_game(&mut visitor).map_err(bad_read)? else {
                break;
            };
            match outcome {
                Outcome::Game(m) => {
                    let probes = probes(&m, filter);
                    if probes.is_empty() {
                        counts.no_probe += 1;
                        continue;
                    }
                    counts.kept += 1;
                    counts.probes += probes.len() as u64;
                    each(HumanGame {
                        file: fi,
                        number,
                        positions: m.positions,
                        moves: m.moves,
                        probes,
                    })?;
                }
                Outcome::Unrated => counts.unrated += 1,
                Outcome::OutOfRange => counts.out_of_range += 1,
                Outcome::TimeControl => counts.time_control += 1,
                Outcome::Unplayable(why) => {
                    counts.unplayable += 1;
                    unplayable_here += 1;
                    if unplayable_here <= NAMED {
                        eprintln!(
                            "warning: {} game {number} (line {line}): skipped: {why}",
                            path.display()
                        );
                    }
                }
            }
        }
        if unplayable_here > NAMED {
            eprintln!(
                "warning: {}: {} more unplayable games skipped",
                path.display(),
                unplayable_here - NAMED
            );
        }
    }
    Ok(counts)
}

fn kind(path: &Path) -> &'static str {
    let name = path.to_string_lossy();
    if name.ends_with(".zst") {
        "zstd"
    } else if name.ends_with(".gz") {
        "gzip"
    } else {
        "text"
    }
}
