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
            "within ±50",
        ],
        table,
    );
}

/// One sentence: what was checked and whether it passed.
pub fn tc_check_verdict(rows: &[TcCheckRow]) -> String {
    let verdict = match tc_check_pass(rows) {
        Some(true) => "passes: every level rates within ±50 Elo at every clock",
        Some(false) => "FAILS: a level's rating moves by more than 50 Elo with the clock, so the clock cuts its node-limited searches short",
        None => "has no difference yet",
    };
    format!(
        "The same UCI_Elo levels played with the subject's clock at each time control (opponents at their node limits), all rated in one fit with the pool: a node-bounded family should not depend on the clock. The check {verdict}."
    )
}
