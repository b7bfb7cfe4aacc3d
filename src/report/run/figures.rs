//! The report's plots (SVG files beside it) and the game-statistics CSVs.

use std::path::Path;

use super::load::RunData;
use super::stats::GameStats;
use crate::report::error::ReportError;
use crate::report::plot;
use crate::results::{write_csv, LengthRow, TerminationRow};

/// A plot file with its caption.
pub struct Figure {
    pub file: String,
    pub caption: String,
}

/// Draws every plot the data allows into `dir`; writes `terminations.csv` and
/// `game_lengths.csv` when there are games.
pub fn draw(dir: &Path, d: &RunData, stats: &GameStats) -> Result<Vec<Figure>, ReportError> {
    let mut figs: Vec<Figure> = Vec::new();
    let knobs: Vec<String> = d
        .summary
        .as_ref()
        .map(|s| s.knobs.iter().map(|k| k.name.clone()).collect())
        .unwrap_or_default();
    let lowest = d
        .summary
        .as_ref()
        .map(|s| s.lowest_anchor)
        .unwrap_or(f64::NAN);
    if !d.curve.is_empty() || !d.points.is_empty() {
        for k in &knobs {
            let file = format!("elo_vs_{}.svg", sanitize(k));
            plot::curve_plot(&dir.join(&file), k, &d.curve, &d.points, &d.pool, lowest)?;
            figs.push(Figure {
                file,
                caption: format!(
                    "Elo against {k}: fitted curve with its 95% band (blue), each tested setting rated on its own with its 95% interval (red), isotonic fit through those (green), the pool members' fitted ratings (grey lines)."
                ),
            });
        }
    }
    if !d.verify.is_empty() {
        let file = "verify.svg".to_string();
        plot::verify_plot(&dir.join(&file), &d.verify)?;
        figs.push(Figure {
            file,
            caption: "Verification: each UCI_Elo level's measured rating (95% interval) against its target.".into(),
        });
    }
    if !d.points.is_empty() {
        if let Some(k) = knobs.first() {
            let file = "draw_rate.svg".to_string();
            plot::draw_rate_plot(&dir.join(&file), &d.points, k, &d.curve)?;
            figs.push(Figure {
                file,
                caption: "Draw rate of each tested setting.".into(),
            });
        }
    }
    if !d.games.is_empty() {
        figs.extend(game_figures(dir, stats)?);
    }
    Ok(figs)
}

/// The game-length and termination plots and their CSVs (`terminations.csv`,
/// `game_lengths.csv`); no length plot when no game's length is known.
pub fn game_figures(dir: &Path, stats: &GameStats) -> Result<Vec<Figure>, ReportError> {
    let mut figs = Vec::new();
    let (terms, bins) = (&stats.terminations, &stats.bins);
    if stats.mean_plies > 0.0 {
        plot::length_plot(&dir.join("game_length.svg"), bins)?;
        figs.push(Figure {
            file: "game_length.svg".into(),
            caption: "Game length in plies, all games.".into(),
        });
        let rows: Vec<LengthRow> = bins
            .iter()
            .map(|&(plies_from, plies_to, games)| LengthRow {
                plies_from,
                plies_to,
                games,
            })
            .collect();
        write_csv(&dir.join("game_lengths.csv"), &rows)?;
    }
    plot::terminations_plot(&dir.join("terminations.svg"), terms)?;
    figs.push(Figure {
        file: "terminations.svg".into(),
        caption: "How the games ended.".into(),
    });
    let n = stats.games.max(1) as f64;
    let rows: Vec<TerminationRow> = terms
        .iter()
        .map(|(k, c)| TerminationRow {
            termination: k.clone(),
            games: *c,
            share: (*c as f64 / n * 1e4).round() / 1e4,
        })
        .collect();
    write_csv(&dir.join("terminations.csv"), &rows)?;
    Ok(figs)
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}
