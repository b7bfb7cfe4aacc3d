//! PGN input (pgn-reader): the tags White, Black, Result (and FEN and PairId for opening pairs).
//!
//! Opening pairs: games that carry skillcal's own `PairId` tag pair by it (the arena writes
//! games in the order they finish, so a pair's two games need not be neighbours). Without it, a
//! game pairs with the latest earlier game still unpaired that has the colours swapped and the
//! same `FEN` tag (or both without one), as cutechess (`-repeat`) and fastchess (`-repeat` /
//! `-games 2`) write them, in order or, with concurrency, nearly so. Games that do not pair up
//! still count for the ratings.
//!
//! A game is an error naming file, line and game when its text is not what pgn-reader took it
//! for (a tag line without `]`, a token that is no move in SAN syntax: checked, not replayed,
//! so games of any variant read), when it repeats a tag read here, or when its Result tag and
//! its movetext's result differ.
//!
//! Names are UTF-8, or else Latin-1 (ISO 8859-1, the PGN standard's own character set, in which
//! older databases write): a byte that is not UTF-8 never merges two players into one name.

use std::io::{Cursor, Seek};
use std::ops::ControlFlow;

use pgn_reader::{KnownOutcome, Outcome, RawTag, Reader, Skip, Visitor};

use super::games::{Game, GameResult, LoadError, Sink};
use super::pgn_text::{self, GameText};

#[derive(Default)]
struct Tags {
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    fen: Option<String>,
    pair_id: Option<String>,
    outcome: Option<Outcome>,
    ply_count: Option<u32>,
    termination: Option<String>,
    /// Moves in the main line.
    sans: u32,
}

struct TagVisitor;

impl Visitor for TagVisitor {
    type Tags = Tags;
    type Movetext = Tags;
    type Output = Tags;

    fn begin_tags(&mut self) -> ControlFlow<Tags, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Tags> {
        let value = || decode_text(&value.decode()).trim().to_string();
        match name {
            b"White" => tags.white = Some(value()),
            b"Black" => tags.black = Some(value()),
            b"Result" => tags.result = Some(value()),
            b"FEN" => tags.fen = Some(value()),
            b"PairId" => tags.pair_id = Some(value()).filter(|t| !t.is_empty()),
            b"PlyCount" => tags.ply_count = value().parse().ok(),
            b"Termination" => tags.termination = Some(value()).filter(|t| !t.is_empty()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Tags, Tags> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut Tags, _san: pgn_reader::SanPlus) -> ControlFlow<Tags> {
        movetext.sans += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Tags) -> ControlFlow<Tags, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, movetext: &mut Tags, outcome: Outcome) -> ControlFlow<Tags> {
        movetext.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Tags) -> Tags {
        movetext
    }
}

/// UTF-8 text, or else Latin-1: each byte its own character.
fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Tags read here: a second one would silently replace the first.
const READ_TAGS: [&str; 7] = [
    "White",
    "Black",
    "Result",
    "FEN",
    "PairId",
    "PlyCount",
    "Termination",
];

/// The first read tag the game repeats: its name, the first one's line and the repeat's.
fn repeated_tag(text: &GameText) -> Option<(&str, u64, u64)> {
    text.tags.iter().enumerate().find_map(|(i, (name, at))| {
        let first = text.tags[..i].iter().find(|(n, _)| n == name)?;
        READ_TAGS
            .contains(&name.as_str())
            .then_some((name.as_str(), first.1, *at))
    })
}

fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
        Outcome::Known(KnownOutcome::Decisive { winner }) => {
            if winner == pgn_reader::shakmaty::Color::White {
                "1-0"
            } else {
                "0-1"
            }
        }
        Outcome::Unknown => "*",
    }
}

/// A game waiting for its partner: index into the games vector, and its FEN.
struct Pending {
    index: usize,
    fen: Option<String>,
}

/// The game's result: the Result tag, else the movetext's terminator; `None` when the game is
/// skipped (the two disagree, or it is unfinished: counted as such).
fn game_result(
    sink: &mut Sink,
    tags: &Tags,
    text: &GameText,
    line: u64,
    game_name: &str,
    white: &str,
    black: &str,
) -> Result<Option<GameResult>, LoadError> {
    let ended = tags.outcome.map(outcome_text);
    // The Result tag is authoritative; the movetext terminator is the fallback. Both
    // written and different: which one holds cannot be told.
    if let (Some(tag), Some(ended)) = (&tags.result, ended) {
        let tag_says = GameResult::parse(tag)
            .map(GameResult::as_str)
            .or((tag == "*").then_some("*"));
        if tag_says.is_some_and(|t| t != ended) {
            let at = text.tag_line("Result").unwrap_or(line);
            sink.problem(
                text.last_line.max(line),
                &format!(
                    "{game_name}: the Result tag (line {at}) says {tag} but the moves end {ended}"
                ),
            )?;
            return Ok(None);
        }
    }
    let result = match (&tags.result, tags.outcome) {
        (Some(r), _) => GameResult::parse(r).ok_or_else(|| r.clone()),
        (None, Some(Outcome::Known(KnownOutcome::Draw))) => Ok(GameResult::Draw),
        (None, Some(Outcome::Known(KnownOutcome::Decisive { winner }))) => {
            Ok(if winner == pgn_reader::shakmaty::Color::White {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            })
        }
        (None, _) => Err("*".to_string()),
    };
    match result {
        // a cut game (no result token) counts as `*`, whatever its Result tag says
        Ok(r) if text.unfinished().is_none() => Ok(Some(r)),
        Err(r) if r == "*" => {
            let at = format!("{}:{line}: {white} - {black}", sink.file.display());
            sink.report.unfinished.push(at);
            Ok(None)
        }
        Ok(_) => {
            let at = format!("{}:{line}: {white} - {black}", sink.file.display());
            sink.report.unfinished.push(at);
            Ok(None)
        }
        Err(r) => {
            sink.problem(
                line,
                &format!(
                    "result '{r}' of {white} - {black} is not a finished game \
                     (expected 1-0, 0-1 or 1/2-1/2)"
                ),
            )?;
            Ok(None)
        }
    }
}

/// Opening pairs as games come in: by `PairId`, else with the latest earlier unpaired game
/// that has the colours swapped and the same FEN.
#[derive(Default)]
struct Pairer {
    /// unpaired games without a PairId, the latest last
    pending: Vec<Pending>,
    pair_count: u64,
}

impl Pairer {
    /// Pairs `game` (to be stored at `index`) with its partner, if it has one yet.
    fn pair(&mut self, sink: &mut Sink, game: &mut Game, tags: &Tags, line: u64, index: usize) {
        if let Some(tag) = &tags.pair_id {
            let id = sink
                .pairs
                .id(sink.file_index, &format!("#pgn-pairid-{tag}"));
            let label = format!("PairId \"{tag}\"");
            sink.pairs.member(id, &sink.file, label, line, index);
            game.pair = Some(id);
        } else {
            let partner = self.pending.iter().rposition(|p| {
                let prev = &sink.report.games[p.index];
                prev.white == game.black && prev.black == game.white && p.fen == tags.fen
            });
            match partner {
                Some(k) => {
                    let p = self.pending.remove(k);
                    let id = sink
                        .pairs
                        .id(sink.file_index, &format!("#pgn-pair-{}", self.pair_count));
                    self.pair_count += 1;
                    sink.report.games[p.index].pair = Some(id);
                    game.pair = Some(id);
                }
                None => self.pending.push(Pending {
                    index,
                    fen: tags.fen.clone(),
                }),
            }
        }
    }
}

pub(crate) fn read_pgn(bytes: &[u8], sink: &mut Sink) -> Result<(), LoadError> {
    let mut reader = Reader::new(Cursor::new(bytes));
    let mut line = 1u64;
    let mut counted_to = 0usize;
    let mut pairer = Pairer::default();
    for n in 1.. {
        let more = reader
            .has_more()
            .map_err(|e| sink.error(line, format!("cannot read PGN: {e}")))?;
        if !more {
            break;
        }
        // Line of this game's first tag, for messages.
        let offset = reader.stream_position().unwrap_or(counted_to as u64) as usize;
        let offset = offset.min(bytes.len());
        line += bytes[counted_to.min(offset)..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        counted_to = counted_to.max(offset);
        let Some(tags) = reader
            .read_game(&mut TagVisitor)
            .map_err(|e| sink.error(line, format!("cannot read PGN: {e}")))?
        else {
            break;
        };
        // pgn-reader reads a tag line without its `]` and skips a token that is no move without
        // a word: the game's text, scanned, says so (a cheap syntax check, no replay of moves).
        let end =
            (reader.stream_position().unwrap_or(offset as u64) as usize).clamp(offset, bytes.len());
        let text = pgn_text::scan(&bytes[offset..end], line);
        let game_name = match (&tags.white, &tags.black) {
            (Some(w), Some(b)) => format!("game {n} ({w} - {b})"),
            _ => format!("game {n}"),
        };
        if let Some((at, what)) = &text.problem {
            sink.problem(*at, &format!("{game_name}: {what}"))?;
            continue;
        }
        if let Some((tag, first, at)) = repeated_tag(&text) {
            sink.problem(
                at,
                &format!("{game_name}: a second {tag} tag (the first on line {first})"),
            )?;
            continue;
        }
        let (white, black) = match (&tags.white, &tags.black) {
            (Some(w), Some(b)) if !w.is_empty() && !b.is_empty() && w != "?" && b != "?" => {
                (w.clone(), b.clone())
            }
            _ => {
                sink.problem(line, "game without White and Black tags")?;
                continue;
            }
        };
        if white == black {
            sink.problem(line, &format!("player '{white}' plays against itself"))?;
            continue;
        }
        let Some(result) = game_result(sink, &tags, &text, line, &game_name, &white, &black)?
        else {
            continue;
        };
        let index = sink.report.games.len();
        let mut game = Game {
            white,
            black,
            result,
            pair: None,
            plies: tags.ply_count.or(Some(tags.sans)),
            termination: tags.termination.clone(),
        };
        pairer.pair(sink, &mut game, &tags, line, index);
        sink.report.games.push(game);
    }
    Ok(())
}
