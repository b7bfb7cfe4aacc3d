//! The report's "Files" section: the files the folder holds, each with what it holds.

use std::path::Path;

use crate::results::Document;

/// What each file a run folder may hold contains.
const KNOWN: &[(&str, &str)] = &[
    ("report.md", "this report (Markdown; plots linked)"),
    ("report.html", "this report, self-contained (plots inlined)"),
    (
        "games.csv",
        "every finished game: players, settings, opening, result, termination, length, seed",
    ),
    ("games.pgn", "every game's moves (PGN)"),
    (
        "match.toml",
        "the match config the games belong to (engines, limits, openings, [sprt], [rating])",
    ),
    ("calibrate.toml", "the calibration config of the run"),
    ("pool.toml", "the pool measurement's config"),
    (
        "ratings.csv",
        "the rating list: Elo, interval, SD, record, anchor (as `skillcal rate --csv`)",
    ),
    (
        "pairs.csv",
        "every pair that met: W-D-L, pentanomial counts, Elo ±, normalized Elo, LOS",
    ),
    (
        "los.csv",
        "likelihood of superiority of each rated player over each other",
    ),
    (
        "rating_history.csv",
        "each player's rating and interval after the first N games",
    ),
    (
        "sprt.csv",
        "the SPRT's log-likelihood ratio after each opening pair",
    ),
    (
        "report.png",
        "a screenshot of report.html (headless Chromium)",
    ),
    ("ratings.svg", "plot: the rating list with intervals"),
    ("rating_history.svg", "plot: ratings against games played"),
    ("sprt.svg", "plot: the SPRT's LLR against games"),
    (
        "uci_elo_table.csv",
        "the UCI_Elo table (target, knob settings, intervals)",
    ),
    (
        "table_details.csv",
        "the table's targets with intervals and flags",
    ),
    ("fit_curve.csv", "the fitted Elo curve and its band"),
    ("fit_points.csv", "every tested setting rated on its own"),
    ("pool.csv", "the reference pool's ratings"),
    ("pool-covariance.csv", "covariance of the pool's ratings"),
    ("pool-pairs.csv", "the pool's pairwise results"),
    ("plan.csv", "why each match was played"),
    (
        "summary.toml",
        "the fit's summary (model, coefficients, checks)",
    ),
    (
        "verify.csv",
        "the verification: each level's measured rating",
    ),
    (
        "verify_opponents.csv",
        "the verification by opponent: each level's score, expected score and performance against each member",
    ),
    ("terminations.csv", "how the games ended, counts"),
    ("game_lengths.csv", "game length histogram"),
    ("game_length.svg", "plot: game lengths"),
    ("terminations.svg", "plot: terminations"),
    ("draw_rate.svg", "plot: draw rate of each tested setting"),
    ("verify.svg", "plot: verification"),
    ("run.log", "the run's log"),
    (
        "matches",
        "one folder per match (its games.csv, games.pgn, match.toml)",
    ),
    ("verify", "the verification run's folder"),
    (
        "tc-check",
        "the time-control check's folder (`skillcal tc-check`): tc_check.csv, games",
    ),
    (
        "tc_check.csv",
        "the time-control check: each level's rating at each clock, the difference and its verdict (pass, inconclusive, FAIL)",
    ),
    (
        "compare.md",
        "the comparison of families (Markdown; plots linked)",
    ),
    ("compare.html", "the comparison of families, self-contained"),
    (
        "compare_targets.csv",
        "each family's settings, node cost and interval at each target",
    ),
    (
        "compare_families.csv",
        "each family's games, budget, covered range, verify RMS, time-control check",
    ),
    (
        "compare_curves.svg",
        "plot: every family's Elo curve against t",
    ),
    (
        "analysis",
        "how each level plays: `skillcal analyse RUN --out RUN/analysis`",
    ),
    (
        "analysis/analysis.csv",
        "every player's move-quality figures with 95% intervals",
    ),
    (
        "analysis/levels.csv",
        "each tested setting's (and pool member's) Elo beside its move-quality figures",
    ),
    ("analysis/moves.csv", "every analysed move, judged"),
    ("analysis/analysis.md", "the analysis as Markdown"),
    (
        "analysis/eval-cache.csv",
        "the reference engine's evaluations (cache)",
    ),
    ("levels_acpl.svg", "plot: ACPL against Elo"),
    (
        "levels_errors.svg",
        "plot: inaccuracy, mistake and blunder rates against Elo",
    ),
    (
        "levels_blunder_state.svg",
        "plot: blunder rates when losing and when equal against Elo",
    ),
    (
        "levels_drop_state.svg",
        "plot: material-drop rates (300 cp or more) when losing and when equal against Elo",
    ),
    ("levels_top1.svg", "plot: top-1 agreement against Elo"),
];

fn describe(name: &str, is_dir: bool) -> String {
    if let Some((_, d)) = KNOWN.iter().find(|(n, _)| *n == name) {
        return d.to_string();
    }
    if is_dir {
        return "a folder".into();
    }
    match Path::new(name).extension().and_then(|e| e.to_str()) {
        Some("svg") => "plot".into(),
        Some("csv") => "table (CSV)".into(),
        Some("pgn") => "games (PGN)".into(),
        Some("toml") => "configuration (TOML)".into(),
        _ => "other file".into(),
    }
}

/// Appends the "Files" section: every entry of `dir` (hidden ones left out) and `also` (files
/// about to be written), sorted, one line each.
pub fn files_section(doc: &mut Document, dir: &Path, also: &[&str]) {
    let mut entries: Vec<(String, bool)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| {
                    let is_dir = e.path().is_dir();
                    (e.file_name().to_string_lossy().into_owned(), is_dir)
                })
                .filter(|(n, _)| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    // The analysis folder's files, one line each, as the report's levels come from them.
    if let Ok(rd) = std::fs::read_dir(dir.join("analysis")) {
        for e in rd.filter_map(|e| e.ok()) {
            let n = e.file_name().to_string_lossy().into_owned();
            if !n.starts_with('.') {
                entries.push((format!("analysis/{n}"), e.path().is_dir()));
            }
        }
    }
    for a in also {
        if !entries.iter().any(|(n, _)| n == a) {
            entries.push((a.to_string(), false));
        }
    }
    entries.sort();
    doc.section("Files");
    let rows = entries
        .into_iter()
        .map(|(n, is_dir)| {
            let shown = if is_dir { format!("{n}/") } else { n.clone() };
            vec![shown, describe(&n, is_dir)]
        })
        .collect();
    doc.table(&["file", "holds"], rows);
}
