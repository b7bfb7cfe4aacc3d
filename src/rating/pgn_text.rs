//! One PGN game's text read for what pgn-reader does not say (analysis reads games with it,
//! the arena its PGN books): it gives no line numbers, reads a
//! tag line that lacks its closing `]`, and skips a token that is no move (a file cut inside
//! `Nc6` ends `Nc`) without a word. The tokens follow pgn-reader's rules (a game's movetext
//! ends at a blank line or a tag line), so the main line's moves are the ones its visitor gets.

use std::io::{Cursor, Seek};

use pgn_reader::{Reader, Visitor};
use shakmaty::san::SanPlus;

/// Where one game's parts stand, by line.
#[derive(Debug, Default)]
pub struct GameText {
    /// Each tag's name and line.
    pub tags: Vec<(String, u64)>,
    /// The line of each main-line move, in order.
    pub moves: Vec<u64>,
    /// The first thing that makes the text unreadable as a game: its line and what it is.
    pub problem: Option<(u64, String)>,
    /// The main line ends with a result token (1-0, 0-1, 1/2-1/2 or *).
    pub result: bool,
    /// That token is `*`.
    pub star: bool,
    /// The line of the last token.
    pub last_line: u64,
    /// The line the game's text starts on.
    pub first_line: u64,
}

impl GameText {
    /// The line of tag `name`.
    pub fn tag_line(&self, name: &str) -> Option<u64> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, l)| *l)
    }

    /// Why the game is unfinished, if it is: the one rule for every reader of games (rate,
    /// analyse). A main line ending without a result token is a cut game (a file cut at a move
    /// boundary): it is treated as `*`, never as what its Result tag claims.
    pub fn unfinished(&self) -> Option<&'static str> {
        if !self.result {
            Some("a cut game: the moves end without a result token (1-0, 0-1, 1/2-1/2 or *)")
        } else if self.star {
            Some("an unfinished game (result *)")
        } else {
            None
        }
    }

    fn problem(&mut self, line: u64, what: String) {
        self.problem.get_or_insert((line, what));
    }
}

/// A token of at most this many characters is quoted whole in a message.
const QUOTE: usize = 40;

fn quote(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    match s.char_indices().nth(QUOTE) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.into_owned(),
    }
}

/// Ends a movetext token (as pgn-reader's `is_token_end`, plus `[` and `;`).
fn token_end(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}()!?$;.*[".contains(&b)
}

/// A movetext token that is a move: SAN, or castling written with zeros.
fn is_move(token: &[u8]) -> bool {
    let castle = token.strip_suffix(b"+").or(token.strip_suffix(b"#"));
    matches!(castle.unwrap_or(token), b"0-0" | b"0-0-0") || SanPlus::from_ascii(token).is_ok()
}

/// Reads every game of `bytes` with `visitor`, each beside its text read by [`scan`] (the lines
/// and problems pgn-reader does not give).
pub fn read_games<V: Visitor>(
    bytes: &[u8],
    visitor: &mut V,
) -> std::io::Result<Vec<(V::Output, GameText)>> {
    let mut reader = Reader::new(Cursor::new(bytes));
    let mut out = Vec::new();
    let (mut line, mut counted_to) = (1u64, 0usize);
    while reader.has_more()? {
        let start = (reader.stream_position()? as usize).min(bytes.len());
        line += bytes[counted_to.min(start)..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        counted_to = counted_to.max(start);
        let Some(game) = reader.read_game(visitor)? else {
            break;
        };
        let end = (reader.stream_position()? as usize).clamp(start, bytes.len());
        out.push((game, scan(&bytes[start..end], line)));
    }
    Ok(out)
}

/// Reads one game's text (`first_line`: the line its first byte is on).
pub fn scan(text: &[u8], first_line: u64) -> GameText {
    let mut g = GameText {
        first_line,
        ..Default::default()
    };
    let (mut line, mut i, mut depth) = (first_line, 0, 0usize);
    let mut line_start = true;
    while i < text.len() {
        let b = text[i];
        if line_start && (b == b'[' || b == b'%') {
            let end = text[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(text.len(), |p| i + p);
            let body = text[i..end].trim_ascii_end();
            if b == b'[' {
                if body.ends_with(b"]") {
                    let name = body[1..].split(|c| c.is_ascii_whitespace()).next();
                    g.tags
                        .push((String::from_utf8_lossy(name.unwrap_or(b"")).into(), line));
                } else {
                    g.problem(line, format!("tag line `{}` has no closing ]", quote(body)));
                }
            }
            i = end;
            continue;
        }
        line_start = b == b'\n';
        match b {
            b'\n' => line += 1,
            b'{' => match text[i..].iter().position(|&c| c == b'}') {
                Some(p) => {
                    line += text[i..i + p].iter().filter(|&&c| c == b'\n').count() as u64;
                    i += p;
                }
                None => {
                    g.problem(line, "a comment `{` is never closed".into());
                    break;
                }
            },
            b';' => {
                i = text[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(text.len(), |p| i + p);
                continue;
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b'*' if depth == 0 => {
                g.result = true;
                g.star = true;
                g.last_line = line;
            }
            b'$' => {
                i += 1;
                while i < text.len() && text[i].is_ascii_digit() {
                    i += 1;
                }
                continue;
            }
            _ if token_end(b) => {}
            _ => {
                let len = text[i..]
                    .iter()
                    .position(|&c| token_end(c))
                    .unwrap_or(text.len() - i);
                let token = &text[i..i + len];
                i += len;
                if depth > 0 || token.iter().all(u8::is_ascii_digit) {
                    continue;
                }
                g.last_line = line;
                g.result =
                    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2") || token == "½-½".as_bytes();
                g.star = false;
                if g.result {
                    continue;
                }
                if is_move(token) {
                    g.moves.push(line);
                } else {
                    g.problem(line, format!("`{}` is not a move", quote(token)));
                }
                continue;
            }
        }
        i += 1;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_moves_tags_and_problems() {
        let g = scan(
            b"[White \"a\"]\n[Black \"b\"]\n\n1. e4 {a comment\nover lines} e5 (1... c5 2. Nf3)\n2. Nf3 $1 Nc6!? 3. O-O 0-0 1-0\n",
            1,
        );
        assert_eq!(g.tags, [("White".into(), 1), ("Black".into(), 2)]);
        assert_eq!(g.moves, [4, 5, 6, 6, 6, 6]);
        assert!(g.result && g.problem.is_none(), "{g:?}");
        assert_eq!(g.unfinished(), None);
        assert!(scan(b"1. e4 e5 *\n", 1)
            .unfinished()
            .unwrap()
            .contains("result *"));
        assert!(scan(b"1. e4 e5 2. Nf3\n", 1)
            .unfinished()
            .unwrap()
            .contains("cut"));
        let cut = scan(b"[Event \"x\"\n\n1. e4 e5 2. Qh5 Nc\n", 10);
        assert_eq!(
            cut.problem,
            Some((10, "tag line `[Event \"x\"` has no closing ]".into()))
        );
        assert!(!cut.result);
        let cut = scan(b"1. e4 e5 2. Qh5 Nc\n", 3);
        assert_eq!(cut.problem, Some((3, "`Nc` is not a move".into())));
        assert_eq!((cut.moves.len(), cut.result), (3, false));
    }
}
