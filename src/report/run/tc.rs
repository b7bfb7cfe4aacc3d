//! The report's "Time-control check" section (`skillcal tc-check`'s tc_check.csv).

use crate::report::doc::{f0, fixed, Document, NO_NUMBER};
use crate::results::{tc_verdict, TcCheckRow, TcVerdict};

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
                fixed(r.ms_per_ply, 1, NO_NUMBER),
                fixed(r.depth, 2, NO_NUMBER),
                fixed(r.nodes, 0, NO_NUMBER),
                r.verdict().map_or(String::new(), |v| v.as_str().into()),
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
            "depth",
            "nodes a move",
            "verdict (±50)",
        ],
        table,
    );
}

/// One sentence: what was checked and whether it passed.
pub fn tc_check_verdict(rows: &[TcCheckRow]) -> String {
    let verdict = match tc_verdict(rows) {
        Some(TcVerdict::Pass) => "passes: every level's difference between clocks has its 95% interval within ±50 Elo",
        Some(TcVerdict::Fail) => "FAILS: a level's difference between clocks has its 95% interval beyond ±50 Elo: the clock moves it",
        Some(TcVerdict::Inconclusive) => "is inconclusive: a level's difference between clocks has a 95% interval reaching past ±50 Elo but not beyond it, so these games cannot tell whether the clock moves it (more games a level, --games, narrow it)",
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

/// The share of its nodes a move a level may lose at a faster clock and still count as not cut:
/// 10% fewer nodes is about a seventh of a doubling, some 10-15 Elo at these depths, well
/// inside the check's ±50.
const NODES_SAME: f64 = 0.9;

/// Whether the clock cut searches short. Read from the subject's nodes a move when the games
/// kept them (work done: a search stopped by the clock reaches fewer nodes, one stopped by its
/// node limit as many at every clock, whatever the load), else from the time per ply (which
/// the machine's load moves too). `None` when the rows have neither.
pub fn tc_pace_note(rows: &[TcCheckRow]) -> Option<String> {
    let pairs: Vec<(&TcCheckRow, &TcCheckRow)> = rows
        .iter()
        .filter(|r| r.diff.is_some())
        .filter_map(|r| {
            let reference = rows
                .iter()
                .find(|q| q.level == r.level && q.diff.is_none())?;
            Some((reference, r))
        })
        .collect();
    if !pairs.is_empty()
        && pairs
            .iter()
            .all(|(a, b)| a.nodes.is_some() && b.nodes.is_some())
    {
        return Some(nodes_note(&pairs));
    }
    let mut same = Vec::new();
    let mut cut = Vec::new();
    for (reference, r) in &pairs {
        let (Some(m), Some(m0)) = (r.ms_per_ply, reference.ms_per_ply) else {
            return None;
        };
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

/// The note from the subject's nodes a move: a level whose nodes at one clock fall below
/// [`NODES_SAME`] of the other's had its searches cut there.
fn nodes_note(pairs: &[(&TcCheckRow, &TcCheckRow)]) -> String {
    let mut same = Vec::new();
    let mut cut = Vec::new();
    for (reference, r) in pairs {
        let (n0, n) = (reference.nodes.unwrap_or(0.0), r.nodes.unwrap_or(0.0));
        let text = format!(
            "{:.0}: {n0:.0} nodes a move at {} and {n:.0} at {}",
            r.level, reference.tc, r.tc
        );
        if n.min(n0) < NODES_SAME * n.max(n0) {
            cut.push(text);
        } else {
            same.push(text);
        }
    }
    if cut.is_empty() {
        format!(
            "The subject searched as many nodes a move at every clock ({}): no clock cut its searches short, so a difference between clocks is chance at this number of games, not the clock.",
            same.join("; ")
        )
    } else {
        format!(
            "The subject searched fewer nodes a move at one clock than at the other ({}): the clock cut its searches short there (nodes are work done, which the machine's load does not change).",
            cut.join("; ")
        )
    }
}
