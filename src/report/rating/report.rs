//! The rating report of any set of games (a `skillcal match` folder, or `skillcal rate FILES
//! --report DIR`): the rating list, every pair that met, the LOS matrix, the SPRT's course,
//! the ratings against games played, and the game statistics.
//!
//! Every number comes from the rating module's own functions (`rate`, `pairs_met`,
//! `Ratings::los`, `Sprt`), formatted as `skillcal rate` prints them, so the report and the
//! command agree to the last digit.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::data::{HistoryRow, RatingData, RatingReportOptions, SprtRow, SprtSpec};
use super::{plots, sections};
use crate::fsutil::FileError;
use crate::rating::{
    head_to_head, load_games, pairs_met, rate, Game, HeadToHead, LoadOptions, RateOptions, Ratings,
    SprtResult,
};
use crate::report::error::{write, ReportError};
use crate::report::run::game_figures;
use crate::report::run::{facts_stats, GameFacts};
use crate::results::write_csv;

/// One pair's row of pairs.csv.
#[derive(Clone, Debug, Serialize)]
struct PairRow {
    a: String,
    b: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    ll: u64,
    ld: u64,
    dd_wl: u64,
    wd: u64,
    ww: u64,
    score: f64,
    elo: f64,
    elo_pm: f64,
    nelo: f64,
    los: f64,
}

/// One cell of los.csv.
#[derive(Clone, Debug, Serialize)]
struct LosRow {
    player: String,
    opponent: String,
    los: f64,
}

/// Checkpoints of the rating history.
const HISTORY_STEPS: usize = 20;

/// Ratings of the first k games at up to `HISTORY_STEPS` (20) checkpoints, the last being all games
/// (so its numbers are the rating list's). Anchors not yet playing are left out; a checkpoint
/// with anchors given and none playing yet is skipped.
pub fn history(games: &[Game], opts: &RateOptions) -> Result<Vec<HistoryRow>, ReportError> {
    let n = games.len();
    let steps = n.min(HISTORY_STEPS);
    let mut rows = Vec::new();
    for i in 1..=steps {
        let k = n * i / steps;
        let prefix = &games[..k];
        let plays = |name: &str| prefix.iter().any(|g| g.white == name || g.black == name);
        let anchors: Vec<_> = opts
            .anchors
            .iter()
            .filter(|a| plays(&a.name))
            .cloned()
            .collect();
        if !opts.anchors.is_empty() && anchors.is_empty() {
            continue;
        }
        let r = rate(
            prefix,
            &RateOptions {
                anchors,
                ..opts.clone()
            },
        )?;
        for p in &r.players {
            if let (Some(elo), Some(lower), Some(upper)) = (p.elo, p.lower, p.upper) {
                rows.push(HistoryRow {
                    games: k,
                    name: p.name.clone(),
                    elo,
                    lower,
                    upper,
                });
            }
        }
    }
    Ok(rows)
}

/// The test's LLR after every complete opening pair of `first` and `second` (at most about 400
/// points), and its final state and record.
pub fn sprt_course(games: &[Game], s: &SprtSpec) -> (Vec<SprtRow>, SprtResult, HeadToHead) {
    let n = games.len();
    let step = n.div_ceil(400).max(1);
    let mut rows = Vec::new();
    let mut last_pairs = 0;
    for k in (step..n).step_by(step).chain([n]) {
        let h = head_to_head(&games[..k], &s.first, &s.second);
        let pairs = h.pentanomial.pairs();
        if pairs == 0 || pairs == last_pairs {
            continue;
        }
        last_pairs = pairs;
        let r = s.test.test(&h.pentanomial.counts);
        rows.push(SprtRow {
            games: k,
            pairs,
            llr: r.llr,
            lower_bound: r.lower_bound,
            upper_bound: r.upper_bound,
        });
    }
    let h = head_to_head(games, &s.first, &s.second);
    (rows, s.test.test(&h.pentanomial.counts), h)
}

/// Writes the rating report of `games` (rated as `ratings`, with `o.rate`) into `out`:
/// report.md, report.html, the plots and the CSVs behind them. Returns the HTML path.
pub fn rating_report(
    out: &Path,
    games: &[Game],
    ratings: &Ratings,
    o: &RatingReportOptions,
) -> Result<PathBuf, ReportError> {
    std::fs::create_dir_all(out).map_err(|source| FileError::write(out, source))?;
    let data = RatingData {
        ratings,
        pairs: pairs_met(games, ratings),
        history: history(games, &o.rate)?,
        sprt: o.sprt.as_ref().map(|s| {
            let (rows, res, h) = sprt_course(games, s);
            (s.clone(), rows, res, h)
        }),
    };
    crate::rating::write_csv(ratings, &out.join("ratings.csv"))?;
    write_pair_csvs(out, &data, o.rate.confidence)?;
    let mut figs = plots::draw(out, &data)?;
    let facts: Vec<GameFacts> = games.iter().map(GameFacts::of_game).collect();
    let stats = facts_stats(&facts);
    figs.extend(game_figures(out, &stats)?);
    let doc = sections::document(out, &data, o, &figs, &stats);
    write(&out.join("report.md"), &doc.to_markdown())?;
    let html = out.join("report.html");
    write(&html, &doc.to_html(out)?)?;
    Ok(html)
}

fn write_pair_csvs(out: &Path, d: &RatingData, confidence: f64) -> Result<(), ReportError> {
    let rows: Vec<PairRow> = d
        .pairs
        .iter()
        .map(|h| {
            let st = sections::pair_stats(h, confidence);
            let c = h.pentanomial.counts;
            PairRow {
                a: h.a.clone(),
                b: h.b.clone(),
                games: h.games(),
                wins: h.wins,
                draws: h.draws,
                losses: h.losses,
                ll: c[0],
                ld: c[1],
                dd_wl: c[2],
                wd: c[3],
                ww: c[4],
                score: st.score,
                elo: st.elo,
                elo_pm: st.elo_pm,
                nelo: st.nelo,
                los: st.los,
            }
        })
        .collect();
    write_csv(&out.join("pairs.csv"), &rows)?;
    let rated: Vec<&str> = d
        .ratings
        .ranked()
        .into_iter()
        .filter(|p| p.elo.is_some())
        .map(|p| p.name.as_str())
        .collect();
    let mut los = Vec::new();
    for a in &rated {
        for b in rated.iter().filter(|b| *b != a) {
            if let Some(l) = d.ratings.los(a, b) {
                los.push(LosRow {
                    player: a.to_string(),
                    opponent: b.to_string(),
                    los: l,
                });
            }
        }
    }
    write_csv(&out.join("los.csv"), &los)?;
    write_csv(&out.join("rating_history.csv"), &d.history)?;
    if let Some((_, rows, _, _)) = &d.sprt {
        write_csv(&out.join("sprt.csv"), rows)?;
    }
    Ok(())
}

/// The rating report of a match folder: its games.csv, rated with `o.rate`, written into `dir`.
pub fn match_report(dir: &Path, o: &RatingReportOptions) -> Result<PathBuf, ReportError> {
    let path = dir.join("games.csv");
    let games = load_games(std::slice::from_ref(&path), &LoadOptions::default())?;
    if games.is_empty() {
        return Err(ReportError::NoGames(path));
    }
    let ratings = rate(&games, &o.rate)?;
    rating_report(dir, &games, &ratings, o)
}
