//! The report's "How each level plays" section: the levels table, the ACPL trend check and the
//! plots of [`super::level_plots`].

use super::data::{Levels, RHO_MAX};
use super::plots::LEVEL_FIGURES;
use crate::report::doc::{estimate, Document, NO_NUMBER};
use crate::results::{LevelElo, LevelRow};

/// A level's Elo with its band.
fn elo_cell(e: &LevelElo) -> String {
    estimate(Some(e.elo), e.elo_lower, e.elo_upper, 1.0, 0, NO_NUMBER)
}

/// The figure cells shared by both tables.
fn figure_cells(r: &LevelRow) -> Vec<String> {
    vec![
        r.analysis.games.to_string(),
        r.analysis.moves.to_string(),
        estimate(
            r.analysis.acpl,
            r.analysis.acpl_lower,
            r.analysis.acpl_upper,
            1.0,
            1,
            NO_NUMBER,
        ),
        estimate(
            r.analysis.inaccuracy_rate,
            r.analysis.inaccuracy_rate_lower,
            r.analysis.inaccuracy_rate_upper,
            100.0,
            1,
            NO_NUMBER,
        ),
        estimate(
            r.analysis.mistake_rate,
            r.analysis.mistake_rate_lower,
            r.analysis.mistake_rate_upper,
            100.0,
            1,
            NO_NUMBER,
        ),
        estimate(
            r.analysis.blunder_rate,
            r.analysis.blunder_rate_lower,
            r.analysis.blunder_rate_upper,
            100.0,
            1,
            NO_NUMBER,
        ),
        format!(
            "{} / {} ({})",
            estimate(
                r.analysis.blunder_rate_losing,
                None,
                None,
                100.0,
                1,
                NO_NUMBER
            ),
            estimate(
                r.analysis.blunder_rate_equal,
                None,
                None,
                100.0,
                1,
                NO_NUMBER
            ),
            estimate(r.losing_equal_ratio(), None, None, 1.0, 2, NO_NUMBER)
        ),
        format!(
            "{} / {} ({})",
            estimate(r.analysis.drop_rate_losing, None, None, 100.0, 1, NO_NUMBER),
            estimate(r.analysis.drop_rate_equal, None, None, 100.0, 1, NO_NUMBER),
            estimate(r.drop_losing_equal_ratio(), None, None, 1.0, 2, NO_NUMBER)
        ),
        estimate(
            r.analysis.top1,
            r.analysis.top1_lower,
            r.analysis.top1_upper,
            100.0,
            1,
            NO_NUMBER,
        ),
    ]
}

const FIGURE_HEAD: [&str; 9] = [
    "games",
    "moves",
    "ACPL (95%)",
    "inaccuracies %",
    "mistakes %",
    "blunders %",
    "blunders % losing / equal (ratio)",
    "drops % losing / equal (ratio)",
    "top-1 % (95%)",
];

/// The sentence on ACPL against Elo.
pub fn trend_sentence(l: &Levels) -> String {
    let t = &l.trend;
    let Some(rho) = t.rho else {
        return format!("ACPL against Elo: Spearman's rho {}.", t.why_no_rho());
    };
    let measured = t
        .rho_measured
        .map(|m| format!(" (against each setting's own measured Elo: {m:.3})"))
        .unwrap_or_default();
    let verdict = if t.passes() {
        format!("ACPL falls as Elo rises (rho <= {RHO_MAX})")
    } else {
        format!("ACPL does not fall steadily as Elo rises (rho > {RHO_MAX})")
    };
    let mut s = format!(
        "ACPL against the curve's Elo: Spearman's rho = {rho:.3} over {} tested settings{measured}: {verdict}.",
        t.settings
    );
    if !t.rises.is_empty() {
        let where_: Vec<String> = t
            .rises
            .iter()
            .map(|r| {
                format!(
                    "{} ({:.1}) to {} ({:.1})",
                    r.lower, r.lower_acpl, r.higher, r.higher_acpl
                )
            })
            .collect();
        s.push_str(&format!(
            " ACPL rises with Elo from {}.",
            where_.join("; from ")
        ));
    }
    s
}

/// Appends the section (nothing when no tested setting or pool member was analysed).
pub fn levels_section(doc: &mut Document, l: &Levels) {
    if l.subjects.is_empty() && l.pool.is_empty() {
        return;
    }
    doc.section("How each level plays");
    doc.para("Every move of the run's games judged by the reference engine (`skillcal analyse RUN --out RUN/analysis`, Lichess's formulas, see docs/analysis.md), per tested setting: Elo by the fitted curve at its t (95% band) and its own measured rating (95% interval), the move-quality figures with 95% bootstrap intervals over games. Blunder rates by state are per move made in a losing or an equal position; Lichess's blunder (a drop of 0.3 in winning chances) is impossible below about -420 cp, where many losing moves are made, so its losing rate cannot show a level that stops resisting. Drops: moves losing 300 cp or more (about a minor piece), possible down to -700 cp, per move made in a losing or an equal position; a level that stops resisting when losing shows a high losing / equal drop ratio. All rows: analysis/levels.csv.");
    if !l.subjects.is_empty() {
        let mut head = vec!["setting", "t", "Elo (curve)", "measured Elo"];
        head.extend(FIGURE_HEAD);
        let rows = l
            .subjects
            .iter()
            .map(|r| {
                let mut row = vec![
                    r.level.knobs.replace(';', ", "),
                    estimate(r.level.t, None, None, 1.0, 3, NO_NUMBER),
                    elo_cell(&r.level),
                    estimate(
                        r.level.elo_measured,
                        r.level.measured_lower,
                        r.level.measured_upper,
                        1.0,
                        0,
                        NO_NUMBER,
                    ),
                ];
                row.extend(figure_cells(r));
                row
            })
            .collect();
        doc.table(&head, rows);
        doc.para(&trend_sentence(l));
    }
    if !l.unanalysed.is_empty() {
        doc.para(&format!(
            "Tested settings without analysed games: {}.",
            l.unanalysed.join(", ")
        ));
    }
    if !l.pool.is_empty() {
        doc.para("Pool members, as reference points (Elo from pool.csv):");
        let mut head = vec!["player", "settings", "Elo"];
        head.extend(FIGURE_HEAD);
        let rows = l
            .pool
            .iter()
            .map(|r| {
                let mut row = vec![
                    r.name().to_string(),
                    r.level.knobs.replace(';', ", "),
                    elo_cell(&r.level),
                ];
                row.extend(figure_cells(r));
                row
            })
            .collect();
        doc.table(&head, rows);
    }
    for (file, caption) in LEVEL_FIGURES {
        doc.figure(file, caption);
    }
}
