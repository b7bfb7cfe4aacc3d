//! The PGN of a finished game (cutechess / fastchess style: seven-tag roster, FEN, time
//! control, termination, per-move `{score/depth time}` comments) and its date and site tags.

use super::outcome::FinishedGame;
use crate::results::GameRow;

/// Tags and movetext of a finished game for the PGN.
pub struct PgnGame<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub record: &'a GameRow,
    pub root_fen: &'a str,
    pub time_control: &'a str,
    pub draft: &'a FinishedGame,
}

/// Formats one game: seven-tag roster, FEN/SetUp, TimeControl, Termination, PlyCount, and
/// per-move comments, lines kept under 80 characters.
pub fn format_pgn(g: &PgnGame<'_>) -> String {
    let r = g.record;
    let result = r.result_str();
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::with_capacity(2048);
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", esc(v)));
    tag("Event", g.event);
    tag("Site", g.site);
    tag("Date", g.date);
    tag("Round", &format!("{}.{}", r.round, r.game_id));
    tag("White", &r.white);
    tag("Black", &r.black);
    tag("Result", result);
    tag("FEN", g.root_fen);
    tag("SetUp", "1");
    tag("TimeControl", g.time_control);
    tag("Termination", g.draft.termination.pgn_tag());
    tag("PlyCount", &r.plies.to_string());
    tag("GameId", &r.game_id.to_string());
    tag("PairId", &r.pair_id.to_string());
    tag("Opening", &format!("book #{}", r.opening_id));
    tag("SkillcalTermination", r.termination.as_str());
    out.push('\n');

    let root: shakmaty::fen::Fen = g.root_fen.parse().expect("root FEN written by us");
    let setup = root.as_setup();
    let mut white_to_move = setup.turn == shakmaty::Color::White;
    let mut number = setup.fullmoves.get();
    let mut tokens: Vec<String> = Vec::with_capacity(g.draft.moves.len() * 2 + 2);
    for (k, m) in g.draft.moves.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}. {}", m.san));
        } else if k == 0 {
            tokens.push(format!("{number}... {}", m.san));
        } else {
            tokens.push(m.san.clone());
        }
        if !m.comment.is_empty() {
            tokens.push(format!("{{{}}}", m.comment));
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", g.draft.detail.replace('}', ")")));
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Today's date as the PGN `Date` tag (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    civil_date(secs / 86_400)
}

/// `YYYY.MM.DD` of a day counted from 1970-01-01 (no date crate needed for a tag).
pub fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The PGN `Site` tag: this machine's host name.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "?".into())
}
