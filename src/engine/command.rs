//! Parsing of the lines a GUI sends to the engine (UCI), written here so that no input can
//! panic: every number is read with saturation and clamped to what its field can hold, a field
//! that cannot be read is reported and ignored on its own (the other fields of the same `go`
//! still apply), and unknown tokens before a command are skipped, as the UCI protocol asks.
//!
//! [`parse`] is pure: it returns the command and the notes (`info string` texts) to print.

/// Longest time any clock field may say, in milliseconds (about 31 years); larger values are
/// clamped, so time arithmetic never overflows.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;
/// Largest `go mate` value kept (moves); a mate that long is beyond what the engine represents.
pub const MAX_MATE_MOVES: u32 = 1_000;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    /// `debug on` / `debug off`.
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `position startpos ...` (`fen: None`) or `position fen FEN ...`; the FEN has all six
    /// fields (missing counters are completed as `0 1`).
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// A line only an engine sends (`info`, `bestmove`, ...): ignored.
    EngineSide(String),
    /// Nothing this engine understands (the whole line is reported).
    Unknown(String),
    /// A command whose arguments could not be used (the notes say why); nothing to do.
    Invalid,
    /// A `position` that names no position: the engine is left without one (its `go` must not
    /// answer for the position before).
    BadPosition,
}

/// The fields of `go`, each already clamped into its range. Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

/// A parsed line: the command and what to tell the GUI about it (without `info string`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub command: Command,
    pub notes: Vec<String>,
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

const ENGINE_SIDE: &[&str] = &[
    "id",
    "uciok",
    "readyok",
    "bestmove",
    "copyprotection",
    "registration",
    "info",
    "option",
];

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// Tokens of `line` with their byte offsets (so a value can be taken verbatim from the line).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// Parses one input line (without its line ending). Blank lines give `None`.
pub fn parse(line: &str) -> Option<Parsed> {
    let toks = tokens(line);
    let (&(_, first), _) = toks.split_first()?;
    let mut notes = Vec::new();
    if ENGINE_SIDE.contains(&first) {
        return Some(Parsed {
            command: Command::EngineSide(line.trim().to_string()),
            notes,
        });
    }
    // UCI: unknown tokens are ignored and the rest of the line is parsed.
    let Some(at) = toks.iter().position(|(_, t)| COMMANDS.contains(t)) else {
        return Some(Parsed {
            command: Command::Unknown(line.trim().to_string()),
            notes,
        });
    };
    if at > 0 {
        let skipped: Vec<&str> = toks[..at].iter().map(|(_, t)| *t).collect();
        notes.push(format!("ignored unknown tokens {:?}", skipped.join(" ")));
    }
    let (_, cmd) = toks[at];
    let rest = &toks[at + 1..];
    let command = match cmd {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "register" => Command::Register,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "debug" => match rest.first().map(|(_, t)| *t) {
            Some("on") => Command::Debug(true),
            Some("off") => Command::Debug(false),
            other => {
                notes.push(format!("debug: expected on or off, got {other:?}; ignored"));
                Command::Invalid
            }
        },
        "setoption" => setoption(line, rest, &mut notes),
        "position" => position(rest, &mut notes),
        "go" => Command::Go(go(rest, &mut notes)),
        _ => unreachable!("every entry of COMMANDS is matched"),
    };
    let simple = matches!(
        cmd,
        "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit"
    );
    if (simple && !rest.is_empty()) || (cmd == "debug" && rest.len() > 1) {
        notes.push(format!("{cmd}: extra tokens ignored"));
    }
    Some(Parsed { command, notes })
}

/// `setoption name NAME [value VALUE]`: NAME and VALUE as written, inner spaces kept.
fn setoption(line: &str, rest: &[(usize, &str)], notes: &mut Vec<String>) -> Command {
    let Some(((_, "name"), after_name)) = rest.split_first() else {
        notes.push("setoption: expected \"name\"; ignored".to_string());
        return Command::Invalid;
    };
    let value_at = after_name.iter().position(|(_, t)| *t == "value");
    let name_toks = &after_name[..value_at.unwrap_or(after_name.len())];
    let (Some(&(first, _)), Some(&(last, last_tok))) = (name_toks.first(), name_toks.last()) else {
        notes.push("setoption: empty option name; ignored".to_string());
        return Command::Invalid;
    };
    let name = line[first..last + last_tok.len()].to_string();
    let value = value_at.map(|i| {
        let (at, tok) = after_name[i];
        line[at + tok.len()..].trim().to_string()
    });
    Command::SetOption { name, value }
}

/// `position (startpos | fen FEN) [moves M...]`.
fn position(rest: &[(usize, &str)], notes: &mut Vec<String>) -> Command {
    let moves_at = rest.iter().position(|(_, t)| *t == "moves");
    let head: Vec<&str> = rest[..moves_at.unwrap_or(rest.len())]
        .iter()
        .map(|(_, t)| *t)
        .collect();
    let moves: Vec<String> = moves_at
        .map(|i| rest[i + 1..].iter().map(|(_, t)| t.to_string()).collect())
        .unwrap_or_default();
    let fen = match head.split_first() {
        Some((&"startpos", extra)) => {
            if !extra.is_empty() {
                notes.push(format!(
                    "position: tokens after startpos ignored: {:?}",
                    extra.join(" ")
                ));
            }
            None
        }
        Some((&"fen", fields)) => {
            if fields.len() < 4 || fields.len() > 6 {
                notes.push(format!(
                    "position ignored: a FEN has 4 to 6 fields, got {:?}; no position until the next one",
                    fields.join(" ")
                ));
                return Command::BadPosition;
            }
            // Like Stockfish, accept a FEN without its halfmove and fullmove counters.
            let mut f: Vec<&str> = fields.to_vec();
            if f.len() == 4 {
                f.push("0");
            }
            if f.len() == 5 {
                f.push("1");
            }
            Some(f.join(" "))
        }
        _ => {
            notes.push(
                "position ignored: neither startpos nor fen; no position until the next one"
                    .to_string(),
            );
            return Command::BadPosition;
        }
    };
    Command::Position { fen, moves }
}

/// A number as written: sign and magnitude, saturated at `u64::MAX`.
enum Number {
    Value { negative: bool, magnitude: u64 },
    NotANumber,
}

fn number(tok: &str) -> Number {
    let (negative, digits) = match tok.as_bytes().first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Number::NotANumber;
    }
    let magnitude = digits.bytes().fold(0u64, |acc, b| {
        acc.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    });
    Number::Value {
        negative,
        magnitude,
    }
}

/// Reads the value of `go` field `field` (`tok`) into `0..=max`. A negative value means 0 when
/// `negative_is_zero` (clock fields: a lagging GUI may send them), else it is ignored. Values
/// above `max` are clamped. Every adjustment is noted.
fn field(
    field: &str,
    tok: &str,
    max: u64,
    negative_is_zero: bool,
    notes: &mut Vec<String>,
) -> Option<u64> {
    match number(tok) {
        Number::NotANumber => {
            notes.push(format!("go {field}: {tok:?} is not a number; ignored"));
            None
        }
        Number::Value {
            negative: true,
            magnitude,
        } if magnitude > 0 => {
            if negative_is_zero {
                notes.push(format!("go {field}: {tok} is negative; using 0"));
                Some(0)
            } else {
                notes.push(format!("go {field}: {tok} is negative; ignored"));
                None
            }
        }
        Number::Value { magnitude, .. } => {
            // A string of digits longer than u64 saturates at u64::MAX, above every max but one.
            let too_long = tok
                .trim_start_matches(['-', '+'])
                .trim_start_matches('0')
                .len()
                > 19;
            if magnitude > max || too_long {
                notes.push(format!("go {field}: {tok} is too large; using {max}"));
                Some(max)
            } else {
                Some(magnitude)
            }
        }
    }
}

fn go(rest: &[(usize, &str)], notes: &mut Vec<String>) -> Go {
    let mut g = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].1;
        i += 1;
        match key {
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "searchmoves" => {
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i].1) {
                    g.searchmoves.push(rest[i].1.to_string());
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                let Some(&(_, tok)) = rest.get(i).filter(|(_, t)| !GO_KEYWORDS.contains(t)) else {
                    notes.push(format!("go {key}: missing value; ignored"));
                    continue;
                };
                i += 1;
                let u32_max = u64::from(u32::MAX);
                match key {
                    "wtime" => g.wtime = field(key, tok, MAX_TIME_MS, true, notes).or(g.wtime),
                    "btime" => g.btime = field(key, tok, MAX_TIME_MS, true, notes).or(g.btime),
                    "winc" => g.winc = field(key, tok, MAX_TIME_MS, true, notes).or(g.winc),
                    "binc" => g.binc = field(key, tok, MAX_TIME_MS, true, notes).or(g.binc),
                    "movetime" => {
                        g.movetime = field(key, tok, MAX_TIME_MS, true, notes).or(g.movetime)
                    }
                    "movestogo" => match field(key, tok, u32_max, false, notes) {
                        // UCI sends movestogo only above 0: 0 is no movestogo, not one move
                        Some(0) => {
                            notes.push(
                                "go movestogo: 0 read as no movestogo (the time is for the rest of the game)"
                                    .to_string(),
                            );
                            g.movestogo = None;
                        }
                        v => g.movestogo = v.map(|v| v as u32).or(g.movestogo),
                    },
                    "depth" => {
                        g.depth = field(key, tok, u32_max, false, notes)
                            .map(|v| v as u32)
                            .or(g.depth)
                    }
                    "mate" => {
                        g.mate = field(key, tok, u64::from(MAX_MATE_MOVES), false, notes)
                            .map(|v| v as u32)
                            .or(g.mate)
                    }
                    _ => g.nodes = field(key, tok, u64::MAX, false, notes).or(g.nodes),
                }
            }
            other => notes.push(format!("go: unknown token {other:?} ignored")),
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_of(line: &str) -> (Go, Vec<String>) {
        let p = parse(line).unwrap();
        match p.command {
            Command::Go(g) => (g, p.notes),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn overflowing_fields_are_clamped_and_the_rest_kept() {
        let (g, notes) = go_of("go nodes 99999999999999999999 movetime 100");
        assert_eq!(g.nodes, Some(u64::MAX));
        assert_eq!(g.movetime, Some(100));
        assert_eq!(notes.len(), 1, "{notes:?}");
        let (g, _) = go_of("go depth 256 mate 256 movestogo 99999999999 wtime -5 btime x winc");
        assert_eq!(g.depth, Some(256));
        assert_eq!(g.mate, Some(256));
        assert_eq!(g.movestogo, Some(u32::MAX));
        assert_eq!(g.wtime, Some(0));
        assert_eq!(g.btime, None);
        assert_eq!(g.winc, None);
        let (g, notes) = go_of("go depth movetime 50 ponder searchmoves e2e4 d2d4 infinite");
        assert_eq!(g.depth, None);
        assert_eq!(g.movetime, Some(50));
        assert!(g.ponder && g.infinite);
        assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn positions_and_options() {
        let p = parse("position fen 8/8/8/4k3/8/8/8/4K2R w K - moves e1g1").unwrap();
        assert_eq!(
            p.command,
            Command::Position {
                fen: Some("8/8/8/4k3/8/8/8/4K2R w K - 0 1".into()),
                moves: vec!["e1g1".into()]
            }
        );
        let p = parse("setoption name Clear  Hash").unwrap();
        assert_eq!(
            p.command,
            Command::SetOption {
                name: "Clear  Hash".into(),
                value: None
            }
        );
        let p = parse("setoption name StrengthTable value  /a b/c.csv ").unwrap();
        assert_eq!(
            p.command,
            Command::SetOption {
                name: "StrengthTable".into(),
                value: Some("/a b/c.csv".into())
            }
        );
        assert_eq!(
            parse("joho debug on").unwrap().command,
            Command::Debug(true)
        );
        assert_eq!(parse("   "), None);
        assert!(matches!(
            parse("hello").unwrap().command,
            Command::Unknown(_)
        ));
    }
}
