//! `skillcal think-time fit` and `check` as the library runs them: read the half, make the rows,
//! fit or check, write the files.

use std::path::{Path, PathBuf};

use crate::results::{finite, fixed, percent, Document, NO_NUMBER};
use crate::strength::{ThinkModel, THINK_FEATURES as FEATURES};

use super::check::{check, CheckRow};
use super::error::{Error, Result};
use super::fit::{fit, samples};
use super::games::check_files;
use super::rows::{collect, Selection};

/// What a fit wrote.
pub struct FitOutcome {
    pub model: ThinkModel,
    pub games: usize,
    pub moves: usize,
}

/// Fits a model on the selection and writes it to `out`; `command` is the command line, kept in
/// the model's `fitted_on`.
pub fn run_fit(sel: &Selection, out: &Path, command: &str) -> Result<FitOutcome> {
    check_files(&sel.files)?;
    let rows = collect(sel)?;
    if rows.games.is_empty() {
        return Err(Error(format!(
            "{}: no clocked game in the {} half ({} games read, {} skipped)",
            names(&sel.files),
            sel.half,
            rows.counts.games,
            rows.counts.skipped
        )));
    }
    let samples = samples(&rows.games);
    let fitted_on = format!(
        "{} ({} half: {} games, {} timed moves); {command}",
        names(&sel.files),
        sel.half,
        rows.games.len(),
        samples.len()
    );
    let model = fit(&samples, fitted_on)?;
    std::fs::write(out, model.to_toml())
        .map_err(|e| Error(format!("cannot write {}: {e}", out.display())))?;
    Ok(FitOutcome {
        model,
        games: rows.games.len(),
        moves: samples.len(),
    })
}

/// The files' names, for `fitted_on` and messages.
fn names(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| {
            f.file_name()
                .map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a check measured.
pub struct CheckOutcome {
    pub rows: Vec<CheckRow>,
    pub games: usize,
}

/// Checks `model` (named `model_name`) on the selection; writes `think_time.csv` and
/// `think_time.md` into `dir`.
pub fn run_check(
    sel: &Selection,
    model: &ThinkModel,
    model_name: &str,
    dir: &Path,
    seed: u64,
    command: &str,
) -> Result<CheckOutcome> {
    check_files(&sel.files)?;
    let rows = collect(sel)?;
    if rows.games.is_empty() {
        return Err(Error(format!(
            "{}: no clocked game in the {} half ({} games read, {} skipped)",
            names(&sel.files),
            sel.half,
            rows.counts.games,
            rows.counts.skipped
        )));
    }
    let figures = check(model, &rows.games, seed);
    std::fs::create_dir_all(dir)
        .map_err(|e| Error(format!("cannot create {}: {e}", dir.display())))?;
    let csv = dir.join("think_time.csv");
    crate::results::write_csv(&csv, &figures).map_err(|e| Error(e.to_string()))?;
    let page = page(&figures, sel, model, model_name, rows.games.len(), command);
    let md = dir.join("think_time.md");
    std::fs::write(&md, page.to_markdown())
        .map_err(|e| Error(format!("cannot write {}: {e}", md.display())))?;
    Ok(CheckOutcome {
        rows: figures,
        games: rows.games.len(),
    })
}

fn f2(x: f64) -> String {
    fixed(finite(x), 2, NO_NUMBER)
}

fn pct(x: f64) -> String {
    percent(finite(x), 0, NO_NUMBER)
}

/// The bands the target is read on: 1200-1999.
pub fn target_band(band: &str) -> bool {
    ["1200-1399", "1400-1599", "1600-1799", "1800-1999"].contains(&band)
}

/// Whether a row meets the target: r >= 0.5, mean within 20%, both shares within 10 points.
pub fn meets_target(r: &CheckRow) -> bool {
    r.r_seconds >= 0.5
        && (r.mean_ratio - 1.0).abs() <= 0.2
        && (r.model_share_20 - r.people_share_20).abs() <= 0.1
        && (r.model_share_40 - r.people_share_40).abs() <= 0.1
}

fn page(
    rows: &[CheckRow],
    sel: &Selection,
    model: &ThinkModel,
    model_name: &str,
    games: usize,
    command: &str,
) -> Document {
    let mut doc = Document {
        title: "Think time: the model beside people".into(),
        ..Document::default()
    };
    doc.para(&format!(
        "Model: {model_name} (fitted on: {}). Games: {} ({} half, {games} games). Per move, \
         from each side's third ply (Lichess starts a clock after its first move): r of the \
         model's expected seconds with the seconds taken, in seconds and in logs (a move shown \
         as 0 s counts as 0.5 s); mean predicted over mean taken; the share of the start clock \
         left after the mover's move 20 and 40, people's beside the model's own clock \
         (simulated along the game, its times drawn, seeded) and the naive rule's (clock left / \
         40). Blitz: Lichess's category, base + 40 increments from 180 s to under 480 s.",
        model.fitted_on,
        names(&sel.files),
        sel.half,
    ));
    doc.code(&format!("{command}\n"));
    for (tc, title) in [("blitz", "Blitz"), ("all", "All time controls")] {
        doc.section(title);
        let head = [
            "band",
            "moves",
            "r (s)",
            "r (log)",
            "mean pred / taken",
            "games at 20",
            "left at 20: people / model / naive",
            "games at 40",
            "left at 40: people / model / naive",
            "naive r (s)",
            "naive mean ratio",
            "target",
        ];
        let body = rows
            .iter()
            .filter(|r| r.time_control == tc)
            .map(|r| {
                vec![
                    r.band.clone(),
                    r.moves.to_string(),
                    f2(r.r_seconds),
                    f2(r.r_log),
                    format!(
                        "{} ({} / {} s)",
                        f2(r.mean_ratio),
                        f2(r.mean_predicted),
                        f2(r.mean_actual)
                    ),
                    r.games_20.to_string(),
                    format!(
                        "{} / {} / {}",
                        pct(r.people_share_20),
                        pct(r.model_share_20),
                        pct(r.naive_share_20)
                    ),
                    r.games_40.to_string(),
                    format!(
                        "{} / {} / {}",
                        pct(r.people_share_40),
                        pct(r.model_share_40),
                        pct(r.naive_share_40)
                    ),
                    f2(r.naive_r_seconds),
                    f2(r.naive_mean_ratio),
                    if tc == "blitz" && target_band(&r.band) {
                        if meets_target(r) { "met" } else { "not met" }.to_string()
                    } else {
                        String::new()
                    },
                ]
            })
            .collect();
        doc.table(&head, body);
    }
    doc.para(&format!(
        "Target (blitz, each band 1200-1999): r (s) >= 0.5, mean within 20%, the model's share \
         within 10 points of people's at moves 20 and 40. The model's {} features: {}.",
        FEATURES.len(),
        FEATURES.join(", ")
    ));
    doc
}
