//! Games to analyse: PGN files, or run folders in which every `games.pgn` below is read; a
//! `games.csv` beside a PGN gives each player's settings (`white_settings` / `black_settings`,
//! matched by the `GameId` tag the arena writes).
//!
//! The arena's PGN starts from the opening's root FEN and carries the book moves with a
//! `{book}` comment; those moves are replayed but not analysed: the analysed game starts after
//! them. `[%clk h:mm:ss]` comments give the mover's clock after each move.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use pgn_reader::{RawComment, RawTag, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use crate::analysis::error::{AnalysisError, Result};
use crate::rating::pgn_text;
use crate::results::GameSettingsRow;

/// One move as played.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub uci: String,
    pub san: String,
    /// The mover's clock after the move, in seconds, from `[%clk]`.
    pub clock: Option<f64>,
    pub book: bool,
}

/// One game: tags, the analysed start position and the moves from there.
#[derive(Clone, Debug)]
pub struct GameMoves {
    /// `file#n` (n counts games in the file from 1).
    pub id: String,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub white_settings: String,
    pub black_settings: String,
    /// Positions before each analysed move and after the last: `moves.len() + 1` of them.
    pub positions: Vec<Chess>,
    pub moves: Vec<PlayedMove>,
    /// Plies played before `positions[0]` (book moves, or the FEN's move number).
    pub ply_offset: usize,
}

impl GameMoves {
    /// The name, Elo and settings of the side to move at `positions[k]`.
    pub fn mover(&self, k: usize) -> (Color, &str) {
        let c = self.positions[k].turn();
        (
            c,
            if c == Color::White {
                &self.white
            } else {
                &self.black
            },
        )
    }
}

/// The position's key: FEN without the move counters (en passant only when legal).
pub fn position_key(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// The full FEN sent to an engine.
pub fn full_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Expands the inputs: a file is read as PGN, a folder contributes every `games.pgn` below it.
pub fn pgn_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let before = out.len();
            collect_games_pgn(p, &mut out)?;
            if out.len() == before {
                return Err(AnalysisError::file(p, "no games.pgn below this folder"));
            }
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(AnalysisError::file(p, "no such file or folder"));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn collect_games_pgn(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| AnalysisError::io("read folder", dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_games_pgn(&p, out)?;
        } else if p.file_name().is_some_and(|n| n == "games.pgn") {
            out.push(p);
        }
    }
    Ok(())
}

#[derive(Default)]
struct Tags {
    white: String,
    black: String,
    /// As written: [`rating`] reads them, and names the game and line of one it cannot.
    white_elo: Option<String>,
    black_elo: Option<String>,
    fen: Option<String>,
    game_id: Option<u64>,
}

/// Why a game cannot be replayed: the ply of its illegal move (`None`: its FEN tag).
type Unplayable = (Option<usize>, String);

struct Movetext {
    tags: Tags,
    pos: Chess,
    positions: Vec<Chess>,
    moves: Vec<PlayedMove>,
    error: Option<Unplayable>,
}

struct GameVisitor;

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = std::result::Result<Movetext, Unplayable>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let v = value.decode_utf8_lossy().trim().to_string();
        match name {
            b"White" => tags.white = v,
            b"Black" => tags.black = v,
            b"WhiteElo" => tags.white_elo = Some(v),
            b"BlackElo" => tags.black_elo = Some(v),
            b"FEN" => tags.fen = Some(v),
            b"GameId" => tags.game_id = v.parse().ok(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        let pos = match &tags.fen {
            None => Chess::default(),
            Some(f) => match f.parse::<Fen>().map_err(|e| e.to_string()).and_then(|f| {
                f.into_position(CastlingMode::Standard)
                    .map_err(|e| e.to_string())
            }) {
                Ok(p) => p,
                Err(e) => {
                    return ControlFlow::Break(Err((None, format!("bad FEN tag '{f}': {e}"))))
                }
            },
        };
        ControlFlow::Continue(Movetext {
            tags,
            positions: vec![pos.clone()],
            pos,
            moves: Vec::new(),
            error: None,
        })
    }

    fn san(&mut self, m: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if m.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&m.pos) {
            Ok(mv) => {
                let uci = UciMove::from_standard(mv).to_string();
                m.pos.play_unchecked(mv);
                m.positions.push(m.pos.clone());
                m.moves.push(PlayedMove {
                    uci,
                    san: san_plus.to_string(),
                    clock: None,
                    book: false,
                });
            }
            Err(e) => {
                m.error = Some((
                    Some(m.moves.len()),
                    format!("illegal move {san_plus} after {} plies: {e}", m.moves.len()),
                ))
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, m: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        if let Some(last) = m.moves.last_mut() {
            if text.trim() == "book" {
                last.book = true;
            }
            if let Some(c) = parse_clock(&text) {
                last.clock = Some(c);
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _m: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, m: Movetext) -> Self::Output {
        match &m.error {
            Some(e) => Err(e.clone()),
            None => Ok(m),
        }
    }
}

/// Seconds from a `[%clk h:mm:ss]` (or `[%clk m:ss.s]`) command inside a comment.
pub fn parse_clock(comment: &str) -> Option<f64> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let body = rest[..rest.find(']')?].trim();
    let mut secs = 0.0;
    for part in body.split(':') {
        secs = secs * 60.0 + part.trim().parse::<f64>().ok()?;
    }
    Some(secs)
}

/// The highest rating a human rating tag may hold: past any rating list's top.
pub const MAX_ELO: u32 = 4000;

/// A `WhiteElo` / `BlackElo` value: the rating, or none for an unrated player (empty, `?`, `-`,
/// and `0`, what databases write for one); anything else is an error saying why.
pub fn rating(value: &str) -> std::result::Result<Option<u32>, String> {
    match value.trim() {
        "" | "?" | "-" | "0" => Ok(None),
        v => match v.parse::<u32>() {
            Ok(elo) if elo <= MAX_ELO => Ok(Some(elo)),
            _ => Err(format!("`{v}` is not a rating (1 to {MAX_ELO})")),
        },
    }
}

/// Reads every game of one PGN file. A game that cannot be replayed (an illegal move, a token
/// that is no move, a broken tag line) is skipped, as is an unfinished one (`*`, or cut: no
/// result token; `pgn_text`'s rule, as `rate` reads it); one with a rating tag that is no rating
/// is kept; each with a warning naming file, game and line. Settings come from a `games.csv` beside the file.
pub fn read_pgn_file(path: &Path) -> Result<Vec<GameMoves>> {
    let bytes = crate::fsutil::read_capped(path, crate::fsutil::GAMES_CAP)
        .map_err(|e| AnalysisError::io("read", path, e))?;
    read_pgn_bytes(path, &bytes)
}

/// [`read_pgn_file`] of a file's text read already (`path` names it in messages).
pub fn read_pgn_bytes(path: &Path, bytes: &[u8]) -> Result<Vec<GameMoves>> {
    let settings = read_settings(path)?;
    let mut out = Vec::new();
    let games = pgn_text::read_games(bytes, &mut GameVisitor)
        .map_err(|e| AnalysisError::file(path, format!("cannot read PGN: {e}")))?;
    for (n, (game, text)) in (1..).zip(games) {
        let line = text.first_line;
        let id = format!("{}#{n}", path.display());
        if let Some((at, what)) = &text.problem {
            eprintln!("warning: {id} (line {at}): skipped: {what}");
            continue;
        }
        let m = match game {
            Ok(m) => m,
            Err((ply, e)) => {
                let at = match ply {
                    Some(k) => text.moves.get(k).copied(),
                    None => text.tag_line("FEN"),
                };
                eprintln!("warning: {id} (line {}): skipped: {e}", at.unwrap_or(line));
                continue;
            }
        };
        // as `rate` does: a cut or unfinished game is left out, named
        if let Some(why) = text.unfinished() {
            eprintln!(
                "warning: {id} (line {}): skipped: {why}",
                text.last_line.max(line)
            );
            continue;
        }
        let elo = |tag: &str, value: &Option<String>| {
            rating(value.as_deref().unwrap_or("")).unwrap_or_else(|e| {
                let at = text.tag_line(tag).unwrap_or(line);
                eprintln!("warning: {id} (line {at}): {tag} {e}: the side is in no rating band");
                None
            })
        };
        let (white_elo, black_elo) = (
            elo("WhiteElo", &m.tags.white_elo),
            elo("BlackElo", &m.tags.black_elo),
        );
        // The analysed game starts after the leading book moves.
        let book = m.moves.iter().take_while(|mv| mv.book).count();
        let start_ply = {
            let p = &m.positions[0];
            (p.fullmoves().get() as usize - 1) * 2 + usize::from(p.turn() == Color::Black)
        };
        let (ws, bs) = m
            .tags
            .game_id
            .and_then(|g| settings.get(&g).cloned())
            .unwrap_or_default();
        out.push(GameMoves {
            id,
            white: m.tags.white,
            black: m.tags.black,
            white_elo,
            black_elo,
            white_settings: ws,
            black_settings: bs,
            positions: m.positions[book..].to_vec(),
            moves: m.moves[book..].to_vec(),
            ply_offset: start_ply + book,
        });
    }
    Ok(out)
}

/// game_id -> (white_settings, black_settings) from `games.csv` beside the PGN, read as the
/// arena's games are read (`results`): none when the file is absent or has no `game_id`
/// column; a file that cannot be read is an error naming its line, since its settings would
/// otherwise be lost without a word.
fn read_settings(pgn: &Path) -> Result<HashMap<u64, (String, String)>> {
    let Some(csv_path) = pgn.parent().map(|d| d.join("games.csv")) else {
        return Ok(HashMap::new());
    };
    if !csv_path.is_file() {
        return Ok(HashMap::new());
    }
    let rows: Vec<GameSettingsRow> = crate::results::read_csv(&csv_path)
        .map_err(|e| AnalysisError::file(pgn, format!("the games.csv beside it: {e}")))?;
    Ok(rows
        .into_iter()
        .filter_map(|r| Some((r.game_id?, (r.white_settings, r.black_settings))))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings beside a PGN: matched by game id, absent or id-less files give none, and a
    /// damaged file is an error naming its line rather than settings silently lost.
    #[test]
    fn settings_beside_a_pgn_are_read_or_refused_by_line() {
        let dir = std::env::temp_dir().join(format!("skillcal-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("games.pgn");
        let csv = dir.join("games.csv");
        assert!(read_settings(&pgn).unwrap().is_empty());

        std::fs::write(
            &csv,
            "game_id,white,black,white_settings,black_settings,result\n\
             1,a,b,Skill Level=3,,1-0\n2,b,a,,Skill Level=3,0-1\n",
        )
        .unwrap();
        let map = read_settings(&pgn).unwrap();
        assert_eq!(map[&1], ("Skill Level=3".to_string(), String::new()));
        assert_eq!(map[&2], (String::new(), "Skill Level=3".to_string()));

        std::fs::write(&csv, "white,black,result\na,b,1-0\n").unwrap();
        assert!(read_settings(&pgn).unwrap().is_empty());

        std::fs::write(
            &csv,
            "game_id,white_settings,black_settings\n1,x,y\nseven,x,y\n",
        )
        .unwrap();
        let err = read_settings(&pgn).unwrap_err().to_string();
        assert!(
            err.contains("games.csv") && err.contains(":3") && err.contains("game_id"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
