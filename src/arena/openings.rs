//! Opening books: EPD positions or PGN move sequences, and which opening each round plays.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use pgn_reader::{RawTag, SanPlus, Visitor};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::config::{BookFormat, BookOrder, OpeningsConfig, DEFAULT_BOOK};
use super::error::{ArenaError, IoContext, Result};
use crate::rating::pgn_text;

/// One opening: a root position and book moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// 1-based position in the book file (line for EPD, game for PGN).
    pub id: usize,
    /// FEN of the root position (the PGN `FEN` tag).
    pub root_fen: String,
    /// Book moves from the root, UCI notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The root position.
    pub fn root(&self) -> Chess {
        let fen: Fen = self
            .root_fen
            .parse()
            .expect("validated when the book was loaded");
        fen.into_position(CastlingMode::Standard)
            .expect("validated when the book was loaded")
    }

    /// FEN after the book moves: where the engines start thinking.
    #[cfg(test)]
    pub fn start_fen(&self) -> String {
        let mut pos = self.root();
        for m in &self.moves {
            let mv = m
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .expect("validated when the book was loaded");
            pos.play_unchecked(mv);
        }
        Fen::from_position(&pos, EnPassantMode::Legal).to_string()
    }
}

/// A loaded book.
pub struct Book {
    pub openings: Vec<Opening>,
}

/// Resolves the book path: as given (relative to the working directory); the default book is
/// also looked for beside the crate sources, so tests and tools run from anywhere.
pub fn book_path(cfg: &OpeningsConfig) -> PathBuf {
    match &cfg.file {
        Some(p) => p.clone(),
        None => {
            let p = PathBuf::from(DEFAULT_BOOK);
            if p.exists() {
                p
            } else {
                Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_BOOK)
            }
        }
    }
}

/// Reads and parses the book as a match would, for checks made before anything is played.
pub fn check(cfg: &OpeningsConfig) -> Result<()> {
    load(cfg).map(|_| ())
}

pub fn load(cfg: &OpeningsConfig) -> Result<Book> {
    let path = book_path(cfg);
    let format = match cfg.format {
        Some(f) => f,
        None => match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("pgn") => BookFormat::Pgn,
            Some(e) if e.eq_ignore_ascii_case("epd") || e.eq_ignore_ascii_case("fen") => {
                BookFormat::Epd
            }
            _ => {
                return Err(ArenaError::config(
                    format!("openings.file {}", path.display()),
                    "cannot tell EPD from PGN by the extension; set openings.format",
                ))
            }
        },
    };
    let text = crate::fsutil::read_capped(&path, crate::fsutil::BOOK_CAP)
        .at("read", &path)
        .map_err(|e| e.context("openings.file"))?;
    let openings = match format {
        BookFormat::Epd => parse_epd(&text, &path)?,
        BookFormat::Pgn => parse_pgn(&text, &path, cfg.plies)?,
    };
    if openings.is_empty() {
        return Err(ArenaError::file(&path, "no openings in the book"));
    }
    Ok(Book { openings })
}

fn parse_epd(text: &[u8], path: &Path) -> Result<Vec<Opening>> {
    // a byte order mark (Windows editors write one) is no part of the first FEN
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let text = String::from_utf8_lossy(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // EPD: four FEN fields, then operations (`bm ...; id "...";`); FEN lines also work.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen_text = if fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].trim_end_matches(';').parse::<u32>().is_ok()
        {
            fields[..6].join(" ").trim_end_matches(';').to_string()
        } else if fields.len() >= 4 {
            fields[..4].join(" ")
        } else {
            return Err(ArenaError::line(path, i + 1, "not an EPD/FEN line"));
        };
        let fen: Fen = fen_text
            .parse()
            .map_err(|e| ArenaError::line(path, i + 1, format!("bad FEN: {e}")))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .map_err(|e| ArenaError::line(path, i + 1, format!("illegal position: {e}")))?;
        if pos.is_game_over() {
            return Err(ArenaError::line(
                path,
                i + 1,
                "the position is already over",
            ));
        }
        out.push(Opening {
            id: i + 1,
            root_fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            moves: Vec::new(),
        });
    }
    Ok(out)
}

struct BookVisitor {
    max_plies: Option<u32>,
}

struct Movetext {
    pos: Chess,
    root_fen: String,
    moves: Vec<String>,
    /// The first unplayable move: its index in the main line, and why.
    error: Option<(usize, String)>,
}

/// What in a book game is wrong, for the line of the message.
enum Flaw {
    Fen,
    Move(usize),
}

impl Visitor for BookVisitor {
    type Tags = Option<String>;
    type Movetext = Movetext;
    type Output = Result<(String, Vec<String>), (Flaw, String)>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *tags = Some(value.decode_utf8_lossy().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let pos = match tags {
            None => Chess::default(),
            Some(f) => match f.parse::<Fen>() {
                Ok(fen) => match fen.into_position(CastlingMode::Standard) {
                    Ok(p) => p,
                    Err(e) => return ControlFlow::Break(Err((Flaw::Fen, format!("FEN tag: {e}")))),
                },
                Err(e) => return ControlFlow::Break(Err((Flaw::Fen, format!("FEN tag: {e}")))),
            },
        };
        let root_fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        ControlFlow::Continue(Movetext {
            pos,
            root_fen,
            moves: Vec::new(),
            error: None,
        })
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if mt.error.is_some() || self.max_plies.is_some_and(|m| mt.moves.len() as u32 >= m) {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.moves.push(UciMove::from_standard(m).to_string());
                mt.pos.play_unchecked(m);
            }
            Err(e) => mt.error = Some((mt.moves.len(), format!("move {}: {e}", san_plus))),
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Self::Movetext) -> Self::Output {
        match mt.error {
            Some((ply, e)) => Err((Flaw::Move(ply), e)),
            None if mt.pos.is_game_over() => {
                // named at the move that ends it, or at the FEN of a position already over
                let flaw = match mt.moves.len() {
                    0 => Flaw::Fen,
                    n => Flaw::Move(n - 1),
                };
                Err((flaw, "the opening ends the game".into()))
            }
            None => Ok((mt.root_fen, mt.moves)),
        }
    }
}

/// The initial position's FEN, the root of a PGN game without a FEN tag.
const STANDARD_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn parse_pgn(text: &[u8], path: &Path, max_plies: Option<u32>) -> Result<Vec<Opening>> {
    let mut visitor = BookVisitor { max_plies };
    let mut out = Vec::new();
    // with each game's text: pgn-reader skips a token that is no move without a word, and a
    // book whose last move is unreadable would open one move short
    let games = pgn_text::read_games(text, &mut visitor).map_err(|e| ArenaError::file(path, e))?;
    for (n, (game, scanned)) in (1..).zip(games) {
        if let Some((at, what)) = scanned.problem {
            return Err(ArenaError::file(
                path,
                format!("game {n} (line {at}): {what}"),
            ));
        }
        let (root_fen, moves) = game.map_err(|(flaw, e)| {
            let at = match flaw {
                Flaw::Fen => scanned.tag_line("FEN"),
                Flaw::Move(ply) => scanned.moves.get(ply).copied(),
            };
            let at = at.unwrap_or(scanned.first_line).max(scanned.first_line);
            ArenaError::file(path, format!("game {n} (line {at}): {e}"))
        })?;
        // a game that names neither a move nor a position opens nothing: most likely the file
        // is not PGN at all (an error page saved as .pgn reads as one such game), and every game
        // would start from the initial position
        if moves.is_empty() && root_fen == STANDARD_START {
            return Err(ArenaError::file(
                path,
                format!(
                    "game {n} (line {}): neither a move nor a FEN tag (is the file PGN?)",
                    scanned.first_line
                ),
            ));
        }
        out.push(Opening {
            id: n,
            root_fen,
            moves,
        });
    }
    Ok(out)
}

/// The book order for the match: sequential, or a permutation drawn from the seed.
pub fn order(len: usize, cfg: &OpeningsConfig, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..len).collect();
    if cfg.order == BookOrder::Random {
        // Own stream for the book so other uses of the seed do not shift it.
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
        idx.shuffle(&mut rng);
    }
    idx
}

/// Which book entry round `round` (0-based) plays.
pub fn for_round(order: &[usize], start: usize, round: usize) -> usize {
    order[(start + round) % order.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_book_with_ply_limit() {
        let pgn = b"[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n";
        let ops = parse_pgn(pgn, Path::new("x.pgn"), Some(4)).unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].moves, vec!["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(ops[1].root_fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(ops[1].start_fen(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
    }

    /// pgn-reader skips a token that is no move without a word: a book cut inside its last
    /// move (`Nc` for `Nc6`) opened one move short, and a broken tag line read on.
    #[test]
    fn a_pgn_book_game_with_a_token_that_is_no_move_is_an_error_naming_its_line() {
        let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5\n2. c4 Nc *\n";
        let err = parse_pgn(pgn, Path::new("x.pgn"), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("game 2 (line 8)") && err.contains("`Nc` is not a move"),
            "{err}"
        );
        let err = parse_pgn(b"[Event \"a\"\n\n1. e4 *\n", Path::new("x.pgn"), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("game 1 (line 1)"), "{err}");
    }

    #[test]
    fn a_pgn_book_game_without_moves_or_fen_is_an_error() {
        for (text, says) in [
            // an error page saved as .pgn: its first word is no move
            (
                &b"<html><body>Not found</body></html>\n"[..],
                "game 1 (line 1): `<html><body>Not` is not a move",
            ),
            (b"[Event \"?\"]\n\n*\n", "game 1 (line 1): neither a move"),
        ] {
            let err = parse_pgn(text, Path::new("x.pgn"), None)
                .unwrap_err()
                .to_string();
            assert!(err.contains("x.pgn") && err.contains(says), "{err}");
        }
    }

    #[test]
    fn epd_lines_and_errors() {
        let epd = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"x\";\n\n4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n";
        let ops = parse_epd(epd, Path::new("b.epd")).unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[1].id, 3);
        let bad = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -\n";
        let err = parse_epd(bad, Path::new("b.epd")).unwrap_err().to_string();
        assert!(err.contains("b.epd:1"), "{err}");
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let cfg = OpeningsConfig::default();
        let a = order(100, &cfg, 7);
        assert_eq!(a, order(100, &cfg, 7));
        assert_ne!(a, order(100, &cfg, 8));
        let mut s = a.clone();
        s.sort();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_eq!(for_round(&a, 99, 2), a[1]);
    }
}
