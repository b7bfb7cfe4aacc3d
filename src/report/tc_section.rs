//! The report's "Time-control check" section (`skillcal tc-check`'s tc_check.csv).

use super::document::Document;
use crate::results::{tc_check_pass, TcCheckRow};

fn f0(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.0}")
    } else {
        "–".into()
    }
}

/// Appends the section when the run holds a time-control check.
pub fn tc_check_section(doc: &mut Document, rows: &[TcCheckRow]) {
    if rows.is_empty() {
        return;
    }
    doc.section("Time-control check");
    doc.para(&tc_check_verdict(rows));
    let table = rows
        .iter()
        .map(|r| {
            vec![
                f0(r.level),
                r.tc.clone(),
                format!("{} [{}, {}]", f0(r.measured), f0(r.lower), f0(r.upper)),
                r.games.to_string(),
                match (r.diff, r.diff_lower, r.diff_upper) {
                    (Some(d), Some(lo), Some(hi)) => format!("{d:+.0} [{lo:+.0}, {hi:+.0}]"),
                    _ => "reference".into(),
                },
                r.ms_per_ply.map_or("–".into(), |m| format!("{m:.1}")),
                match r.pass {
                    Some(true) => "pass".into(),
                    Some(false) => "FAIL".into(),
                    None => String::new(),
                },
            ]
        })
        .collect();
    doc.table(
        &[
            "UCI_Elo",
            "clock",
            "measured (95%)",
            "games",
            "− reference clock (95%)",
            "ms a ply",
            "within ±50",
        ],
        table,
    );
}

/// One sentence: what was checked and whether it passed.
pub fn tc_check_verdict(rows: &[TcCheckRow]) -> String {
    let verdict = match tc_check_pass(rows) {
        Some(true) => "passes: every level rates within ±50 Elo at every clock",
        Some(false) => "FAILS: a level's rating moves by more than 50 Elo with the clock",
        None => "has no difference yet",
    };
    let mut s = format!(
        "The same UCI_Elo levels played with the subject's clock at each time control (opponents at their node limits), all rated in one fit with the pool: a node-bounded family should not depend on the clock. The check {verdict}."
    );
    if let Some(pace) = tc_pace_note(rows) {
        s.push(' ');
        s += &pace;
    }
    s
}

/// How far a level's time per ply may move between clocks and still count as unchanged: on a
/// quiet machine the same node-bounded games repeat it within a few percent; a busier machine
/// moves it further, which the note then names as the other cause.
const PACE_SAME: f64 = 1.25;

/// Whether the clock cut searches short, read from the time per ply: a search stopped by the
/// clock takes less time at the faster clock, one stopped by its node limit the same at every
/// clock. `None` when the rows lack the time per ply.
pub fn tc_pace_note(rows: &[TcCheckRow]) -> Option<String> {
    let mut same = Vec::new();
    let mut cut = Vec::new();
    for r in rows.iter().filter(|r| r.diff.is_some()) {
        let reference = rows
            .iter()
            .find(|q| q.level == r.level && q.diff.is_none())?;
        let (m, m0) = (r.ms_per_ply?, reference.ms_per_ply?);
        let text = format!(
            "{:.0}: {m0:.1} ms a ply at {} and {m:.1} at {}",
            r.level, reference.tc, r.tc
        );
        if m / m0 > PACE_SAME || m0 / m > PACE_SAME {
            cut.push(text);
        } else {
            same.push(text);
        }
    }
    if cut.is_empty() && same.is_empty() {
        return None;
    }
    Some(if cut.is_empty() {
        format!(
            "The games took as long a ply at every clock ({}): no clock cut the searches short, so a difference between clocks is chance at this number of games, not the clock.",
            same.join("; ")
        )
    } else {
        format!(
            "The time per ply differs between clocks by more than a factor {PACE_SAME} ({}): either the clock cut searches short or the machine's load differed while the matches played (the games' PGN comments give each move's depth and time).",
            cut.join("; ")
        )
    })
}
