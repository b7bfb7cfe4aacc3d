//! Clocked games read one at a time from plain, zstd or gzip PGN (analysis's `open`): the tags
//! a think-time model needs (`Site`, `TimeControl`, the ratings) and each move's `[%clk]`. A game
//! that cannot serve (no clock, no `TimeControl`, an illegal move) is skipped with a warning that
//! names its file and line; a file with no usable game at all is an error.

use std::cell::Cell;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::analysis::input::{open, rating};
use crate::analysis::{parse_clock, time_control};

use super::error::{Error, Result};

/// One clocked game.
#[derive(Clone, Debug)]
pub struct ClockedGame {
    /// `file:line` of its first tag, for messages.
    pub at: String,
    /// Its `Site` tag (the half it falls in is a hash of it).
    pub site: String,
    /// The clock at the start and the increment, in seconds (`TimeControl`).
    pub base: f64,
    pub increment: f64,
    /// White's and Black's ratings.
    pub elo: [Option<u32>; 2],
    /// The positions before each move, and after the last.
    pub positions: Vec<Chess>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The mover's clock after each move, in seconds.
    pub clocks: Vec<f64>,
}

/// At most this many skipped games are named a file; the rest are counted.
const NAMED: u64 = 5;

/// What a read kept and skipped.
#[derive(Clone, Debug, Default)]
pub struct ReadCounts {
    pub games: u64,
    pub kept: u64,
    pub skipped: u64,
}

/// Streams the clocked games of `files` in order to `each`; `wanted(site, clock)` (the `Site` tag,
/// the `TimeControl` base and increment when it reads) says whether a game is replayed at all. `each` returning false stops the read.
pub fn read_games(
    files: &[PathBuf],
    mut wanted: impl FnMut(&str, Option<(f64, f64)>) -> bool,
    mut each: impl FnMut(ClockedGame) -> Result<bool>,
) -> Result<ReadCounts> {
    let mut counts = ReadCounts::default();
    for path in files {
        let lines = Rc::new(Cell::new(0u64));
        let text = CountLines {
            inner: open(path, Arc::new(AtomicU64::new(0))).map_err(|e| Error(e.to_string()))?,
            lines: Rc::clone(&lines),
        };
        let mut reader = Reader::new(text);
        let bad = |e: io::Error| Error(format!("{}: cannot read as PGN: {e}", path.display()));
        let (mut here, mut skipped_here) = (0u64, 0u64);
        let mut visitor = GameVisitor {
            wanted: &mut wanted,
        };
        while reader.has_more().map_err(bad)? {
            let buffered = reader.buffer().iter().filter(|&&b| b == b'\n').count() as u64;
            let line = lines.get() - buffered + 1;
            let Some(outcome) = reader.read_game(&mut visitor).map_err(bad)? else {
                break;
            };
            counts.games += 1;
            here += 1;
            let at = format!("{}:{line}", path.display());
            let outcome = match outcome {
                Ok(Some(m)) => m.finish(at.clone()),
                Ok(None) => Ok(None),
                Err(why) => Err(why),
            };
            match outcome {
                Ok(Some(game)) => {
                    counts.kept += 1;
                    if !each(game)? {
                        return Ok(counts);
                    }
                }
                Ok(None) => {}
                Err(why) => {
                    counts.skipped += 1;
                    skipped_here += 1;
                    if skipped_here <= NAMED {
                        eprintln!("warning: {at}: game skipped: {why}");
                    }
                }
            }
        }
        if skipped_here > NAMED {
            eprintln!(
                "warning: {}: {} more games skipped",
                path.display(),
                skipped_here - NAMED
            );
        }
        if here == 0 {
            return Err(Error(format!("{}: no PGN game in it", path.display())));
        }
    }
    Ok(counts)
}

#[derive(Default)]
struct Tags {
    site: Option<String>,
    white_elo: Option<String>,
    black_elo: Option<String>,
    time_control: Option<String>,
    fen: Option<String>,
}

struct Movetext {
    site: String,
    base: f64,
    increment: f64,
    elo: [Option<u32>; 2],
    pos: Chess,
    positions: Vec<Chess>,
    moves: Vec<Move>,
    clocks: Vec<Option<f64>>,
}

impl Movetext {
    /// The game, or why it cannot serve.
    fn finish(self, at: String) -> std::result::Result<Option<ClockedGame>, String> {
        if self.clocks.is_empty() {
            return Err("no moves".into());
        }
        if let Some(k) = self.clocks.iter().position(Option::is_none) {
            return Err(format!("no [%clk] after ply {}", k + 1));
        }
        Ok(Some(ClockedGame {
            at,
            site: self.site,
            base: self.base,
            increment: self.increment,
            elo: self.elo,
            positions: self.positions,
            moves: self.moves,
            clocks: self.clocks.into_iter().flatten().collect(),
        }))
    }
}

struct GameVisitor<'a, W> {
    wanted: &'a mut W,
}

impl<W: FnMut(&str, Option<(f64, f64)>) -> bool> GameVisitor<'_, W> {
    /// The game's start from its tags, `Ok(None)` when it is not wanted.
    fn start(&mut self, tags: Tags) -> std::result::Result<Option<Movetext>, String> {
        let site = tags.site.unwrap_or_default();
        let tc = tags.time_control.as_deref().map(time_control);
        let clock = match &tc {
            Some(Ok(Some((b, i)))) => Some((f64::from(*b), f64::from(*i))),
            _ => None,
        };
        if !(self.wanted)(&site, clock) {
            return Ok(None);
        }
        let (base, increment) = match tc {
            None => return Err("no TimeControl tag".into()),
            Some(Err(e)) => return Err(e),
            Some(Ok(None)) => return Err("TimeControl `-`: no clock".into()),
            Some(Ok(Some((0, _)))) => return Err("TimeControl base 0: no start clock".into()),
            Some(Ok(Some((b, i)))) => (f64::from(b), f64::from(i)),
        };
        let elo = |v: &Option<String>, tag: &str| {
            rating(v.as_deref().unwrap_or("")).map_err(|e| format!("{tag} {e}"))
        };
        let elo = [
            elo(&tags.white_elo, "WhiteElo")?,
            elo(&tags.black_elo, "BlackElo")?,
        ];
        let pos = match &tags.fen {
            None => Chess::default(),
            Some(f) => f
                .parse::<Fen>()
                .map_err(|e| e.to_string())
                .and_then(|fen| {
                    fen.into_position(CastlingMode::Standard)
                        .map_err(|e| e.to_string())
                })
                .map_err(|e| format!("bad FEN tag '{f}': {e}"))?,
        };
        Ok(Some(Movetext {
            site,
            base,
            increment,
            elo,
            positions: vec![pos.clone()],
            pos,
            moves: Vec::new(),
            clocks: Vec::new(),
        }))
    }
}

impl<W: FnMut(&str, Option<(f64, f64)>) -> bool> Visitor for GameVisitor<'_, W> {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = std::result::Result<Option<Movetext>, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let v = || Some(value.decode_utf8_lossy().trim().to_string());
        match name {
            b"Site" => tags.site = v(),
            b"WhiteElo" => tags.white_elo = v(),
            b"BlackElo" => tags.black_elo = v(),
            b"TimeControl" => tags.time_control = v(),
            b"FEN" => tags.fen = v(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        match self.start(tags) {
            Ok(Some(m)) => ControlFlow::Continue(m),
            Ok(None) => ControlFlow::Break(Ok(None)),
            Err(why) => ControlFlow::Break(Err(why)),
        }
    }

    fn san(&mut self, m: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&m.pos) {
            Ok(mv) => {
                m.pos.play_unchecked(mv);
                m.positions.push(m.pos.clone());
                m.moves.push(mv);
                m.clocks.push(None);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!(
                "illegal move {san_plus} after {} plies: {e}",
                m.clocks.len()
            ))),
        }
    }

    fn comment(&mut self, m: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        if let (Some(last), Some(c)) = (
            m.clocks.last_mut(),
            parse_clock(&String::from_utf8_lossy(comment.as_bytes())),
        ) {
            *last = Some(c);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _m: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, m: Movetext) -> Self::Output {
        Ok(Some(m))
    }
}

/// Counts the lines of the text read, so a message names a game's line.
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

/// The files named, each checked to exist (a clear error rather than a read's).
pub fn check_files(files: &[PathBuf]) -> Result<()> {
    if files.is_empty() {
        return Err(Error("no games given".into()));
    }
    for f in files {
        if !Path::new(f).is_file() {
            return Err(Error(format!("{}: no such file", f.display())));
        }
    }
    Ok(())
}
