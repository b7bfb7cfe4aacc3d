//! The pool run's files: `games.csv`, `pool.csv`, `pool-covariance.csv`, `pool-pairs.csv`,
//! `human-scale.csv`, and its page (`report.md`, `report.html`) through the one document model.

use std::collections::BTreeMap;
use std::path::Path;

use super::fit::PoolFit;
use super::plan::Forecast;
use crate::calibrate::config::PoolRunConfig;
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::play::member_engine;
use crate::calibrate::pool::human_scale;
use crate::calibrate::run::merge_games;
use crate::rating::model::Z95;
use crate::rating::Game;
use crate::results::{self, fixed, Document, HumanScaleRow, PoolMemberRow, PoolPairRow};

fn limits_label(l: &crate::arena::GoLimits) -> String {
    toml::to_string(l)
        .map(|s| {
            s.lines()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

pub(in crate::calibrate) fn write_results(
    cfg: &PoolRunConfig,
    dir: &Path,
    games: &[Game],
    retired: usize,
    f: &PoolFit,
    ahead: Option<&Forecast>,
) -> Result<()> {
    merge_games(dir)?;
    let pool = &cfg.pool;
    let n = pool.members.len();
    let mut rows = Vec::new();
    for i in 0..n {
        let m = &pool.members[i];
        let e = member_engine(pool, i);
        let rec = f
            .ratings
            .as_ref()
            .and_then(|r| r.get(&m.name))
            .map(|p| (p.games, p.wins, p.draws, p.losses))
            .unwrap_or((0, 0, 0, 0));
        let sd = f.elo[i].map(|_| f.rel_sd[i]);
        rows.push(PoolMemberRow {
            name: m.name.clone(),
            elo: f.elo[i],
            lower: f.elo[i].zip(sd).map(|(e, s)| e - Z95 * s),
            upper: f.elo[i].zip(sd).map(|(e, s)| e + Z95 * s),
            sd,
            anchor_elo: m.elo,
            anchor_sd: m.elo.map(|_| m.sd.unwrap_or(pool.anchor_sd)),
            games: rec.0,
            wins: rec.1,
            draws: rec.2,
            losses: rec.3,
            met: f.half_width(i) <= cfg.goal(i),
            command: e.command.clone(),
            options: e
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; "),
            limits: limits_label(&e.limits),
        });
    }
    results::write_csv(&dir.join("pool.csv"), &rows)?;

    write_covariance(&dir.join("pool-covariance.csv"), pool, f)?;

    // pairwise results
    let mut pairs: BTreeMap<(usize, usize), [u32; 3]> = BTreeMap::new();
    let pos = |name: &str| pool.members.iter().position(|m| m.name == name);
    for g in games {
        let (Some(w), Some(b)) = (pos(&g.white), pos(&g.black)) else {
            continue;
        };
        let (a, b, s) = if w < b {
            (w, b, g.result.white_score())
        } else {
            (b, w, 1.0 - g.result.white_score())
        };
        let t = pairs.entry((a, b)).or_insert([0; 3]);
        t[if s == 1.0 {
            0
        } else if s == 0.5 {
            1
        } else {
            2
        }] += 1;
    }
    let pair_rows: Vec<PoolPairRow> = pairs
        .iter()
        .map(|(&(a, b), t)| {
            let d = f.elo[a].zip(f.elo[b]).map(|(x, y)| x - y);
            let sd = d.map(|_| {
                (f.cov[(a, a)] + f.cov[(b, b)] - 2.0 * f.cov[(a, b)])
                    .max(0.0)
                    .sqrt()
            });
            PoolPairRow {
                a: pool.members[a].name.clone(),
                b: pool.members[b].name.clone(),
                games: t.iter().sum(),
                a_wins: t[0],
                draws: t[1],
                b_wins: t[2],
                a_points: t[0] as f64 + 0.5 * t[1] as f64,
                fit_diff: d,
                fit_diff_sd: sd,
            }
        })
        .collect();
    results::write_csv(&dir.join("pool-pairs.csv"), &pair_rows)?;
    let scales = cfg.human_scale.as_ref().map(|h| human_scale::fit(h, &rows));
    if let Some(s) = &scales {
        results::write_csv(&dir.join("human-scale.csv"), s)?;
    }
    let doc = report_document(
        cfg,
        &rows,
        &pair_rows,
        games.len(),
        retired,
        ahead,
        scales.as_deref(),
    );
    let path = dir.join("report.md");
    std::fs::write(&path, doc.to_markdown()).map_err(|e| CalibrateError::io("write", &path, e))?;
    let path = dir.join("report.html");
    std::fs::write(&path, doc.to_html(dir)?).map_err(|e| CalibrateError::io("write", &path, e))
}

/// The fit's covariance among the members, in config order (`pool-covariance.csv`).
fn write_covariance(
    path: &Path,
    pool: &crate::calibrate::config::PoolConfig,
    f: &PoolFit,
) -> Result<()> {
    let n = pool.members.len();
    let write = || -> csv::Result<()> {
        let mut w = csv::Writer::from_path(path)?;
        let mut header = vec!["name".to_string()];
        header.extend(pool.members.iter().map(|m| m.name.clone()));
        w.write_record(&header)?;
        for i in 0..n {
            let mut rec = vec![pool.members[i].name.clone()];
            rec.extend((0..n).map(|j| {
                let v = f.cov[(i, j)];
                if v.is_finite() {
                    format!("{v:.3}")
                } else {
                    String::new()
                }
            }));
            w.write_record(&rec)?;
        }
        w.flush()?;
        Ok(())
    };
    write().map_err(|e| CalibrateError::file(path, format!("cannot write: {e}")))
}

/// Reads a `skillcal pool` run's `pool.csv`.
pub fn read_pool_csv(path: &Path) -> Result<Vec<PoolMemberRow>, results::ResultsError> {
    results::read_csv(path)
}

/// The pool's page: the members beside their anchor values, the steps between neighbours, each
/// member's consistency with one rating, the forecast and (with `[human_scale]`) the map to
/// Lichess ratings, through the one document model.
fn report_document(
    cfg: &PoolRunConfig,
    rows: &[PoolMemberRow],
    pairs: &[PoolPairRow],
    games: usize,
    retired: usize,
    ahead: Option<&Forecast>,
    scales: Option<&[HumanScaleRow]>,
) -> Document {
    let mut d = Document {
        title: format!("Reference pool: {}", cfg.name),
        blocks: Vec::new(),
    };
    let met = rows.iter().filter(|r| r.met).count();
    let chained = cfg.precision_chained.unwrap_or(cfg.precision);
    let goals = if rows.iter().any(|r| r.anchor_elo.is_none()) && chained != cfg.precision {
        format!(
            "±{:.0} Elo (95%) relative to the anchors, ±{:.0} for members without an anchor value",
            cfg.precision, chained
        )
    } else {
        format!("±{:.0} Elo (95%) relative to the anchors", cfg.precision)
    };
    d.para(&format!(
        "{games} games. {met} of {} members at their goal: {goals}.",
        rows.len()
    ));
    if !cfg.pool.retired.is_empty() {
        d.para(&format!(
            "Retired members (`pool.retired`): {}. Their {retired} games stay in `matches/` and \
             `games.csv` but rate no one (they are not in the counts, the fit or `pool-pairs.csv`).",
            cfg.pool
                .retired
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(note) = forecast_note(cfg, rows, ahead) {
        d.para(&note);
    }
    if !cfg.pool.scale.is_empty() {
        d.para(&format!("Scale: {}", cfg.pool.scale));
    }
    d.para(
        "Intervals are those of each member's place relative to the anchors' mean (the scale's \
         location, which the anchor table fixes). Members without an anchor value are rated by their \
         games alone: below the lowest anchor the scale is carried by these links.",
    );
    let mut sorted: Vec<&PoolMemberRow> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        a.elo
            .unwrap_or(f64::MIN)
            .total_cmp(&b.elo.unwrap_or(f64::MIN))
    });
    let table = sorted
        .iter()
        .map(|r| {
            vec![
                r.name.clone(),
                fixed(r.anchor_elo, 0, "-"),
                fixed(r.elo, 0, "-"),
                format!("{}-{}", fixed(r.lower, 0, "-"), fixed(r.upper, 0, "-")),
                r.elo
                    .zip(r.anchor_elo)
                    .map(|(e, a)| format!("{:+.0}", e - a))
                    .unwrap_or_else(|| "-".into()),
                r.games.to_string(),
                format!("{}-{}-{}", r.wins, r.draws, r.losses),
                r.limits.clone(),
            ]
        })
        .collect();
    d.table(
        &[
            "member",
            "anchor value",
            "measured",
            "95% interval",
            "measured - anchor",
            "games",
            "W-D-L",
            "limits",
        ],
        table,
    );
    steps_section(&mut d, &sorted, pairs);
    consistency_section(&mut d, &sorted, pairs);
    if let Some(a) = ahead.filter(|a| a.games > 0) {
        forecast_section(&mut d, cfg, a);
    }
    if let (Some(h), Some(s)) = (&cfg.human_scale, scales) {
        human_scale::section(&mut d, h, s, rows);
    }
    d.section("Files");
    d.para("`pool.csv` (ratings), `pool-covariance.csv`, `pool-pairs.csv` (pairwise results, enough to refit), `human-scale.csv` (with `[human_scale]`), `games.csv`, `plan.csv`, `matches/*/` (each match's games and PGN); `report.md` and `report.html` this page.");
    d
}

/// The forecast in a paragraph: when the goal is met at this pace, or that it is not, or why
/// there is none yet.
fn forecast_note(
    cfg: &PoolRunConfig,
    rows: &[PoolMemberRow],
    ahead: Option<&Forecast>,
) -> Option<String> {
    match ahead {
        Some(a) if a.games == 0 => None,
        Some(a) if a.met => Some(format!(
            "Forecast: if the games score as these ratings predict, the goal is met after about \
             {} more games, {:.1} h of play, about {:.1} h on the clock with {} games at a time (each game at its pair's plies \
             times its members' seconds a move, at the machine's pace of the latest games). The planner's own choices, followed on \
             the expected information.",
            a.games,
            a.seconds / 3600.0,
            a.seconds / 3600.0 / cfg.concurrency.max(1) as f64,
            cfg.concurrency
        )),
        Some(a) => Some(format!(
            "Forecast: if the games score as these ratings predict, the goal is not met within \
             {} more games: some member's interval does not narrow enough with the pairs allowed.",
            a.games
        )),
        None => {
            let unrated: Vec<String> = rows
                .iter()
                .filter(|r| r.elo.is_none())
                .map(|r| format!("`{}`", r.name))
                .collect();
            let one = unrated.len() == 1;
            (!unrated.is_empty()).then(|| {
                format!(
                    "No forecast yet: {} {} not linked to the anchors by games, so no rating and no \
                     interval to narrow; the next batch plays {} against {} neighbours by `guess`.",
                    unrated.join(", "),
                    if one { "is" } else { "are" },
                    if one { "it" } else { "them" },
                    if one { "its" } else { "their" },
                )
            })
        }
    }
}

/// The measured step between each two neighbours beside the anchor table's.
fn steps_section(d: &mut Document, sorted: &[&PoolMemberRow], pairs: &[PoolPairRow]) {
    d.section("Steps between neighbours");
    let mut rows = Vec::new();
    for w in sorted.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let (Some(a), Some(b)) = (lo.elo, hi.elo) else {
            continue;
        };
        let pair = pairs
            .iter()
            .find(|p| (p.a == lo.name && p.b == hi.name) || (p.a == hi.name && p.b == lo.name));
        let sd = pair.and_then(|p| p.fit_diff_sd);
        let table = lo
            .anchor_elo
            .zip(hi.anchor_elo)
            .map(|(x, y)| format!("{:+.0}", y - x));
        rows.push(vec![
            lo.name.clone(),
            hi.name.clone(),
            format!("{:+.0}", b - a),
            sd.map_or_else(|| "-".into(), |v| format!("±{:.0}", Z95 * v)),
            table.unwrap_or_else(|| "-".into()),
        ]);
    }
    d.table(
        &[
            "lower",
            "upper",
            "measured step",
            "± (95%)",
            "anchor table step",
        ],
        rows,
    );
}

/// Where the forecast's games and hours go, the costliest pairs first.
fn forecast_section(d: &mut Document, cfg: &PoolRunConfig, a: &Forecast) {
    d.section("Where the forecast's time goes");
    d.para(&format!(
        "The pairs the planner would play to the goal, costliest first ({} games, {:.1} h of play \
         in all).",
        a.games,
        a.seconds / 3600.0
    ));
    let mut pairs: Vec<_> = a.pairs.iter().collect();
    pairs.sort_by(|x, y| y.1 .1.total_cmp(&x.1 .1));
    let rows = pairs
        .into_iter()
        .map(|(&(i, j), &(games, seconds))| {
            vec![
                format!(
                    "{} – {}",
                    cfg.pool.members[i].name, cfg.pool.members[j].name
                ),
                games.to_string(),
                format!("{:.1}", seconds / 3600.0),
                format!("{:.0}%", 100.0 * seconds / a.seconds.max(f64::MIN_POSITIVE)),
                format!("{:.1}", seconds / games as f64),
            ]
        })
        .collect();
    d.table(
        &["pair", "games", "hours of play", "share", "seconds a game"],
        rows,
    );
}

/// `a`'s expected score in a pair at the fitted difference, and Pearson's z of its points
/// (binomial variance).
fn pair_z(p: &PoolPairRow) -> Option<(f64, f64)> {
    let e = crate::rating::model::expected_score(p.fit_diff?);
    let n = f64::from(p.games);
    (n > 0.0).then(|| (e, (p.a_points - n * e) / (n * e * (1.0 - e)).sqrt()))
}

/// Whether one rating a member fits its results against every opponent: the sum of its pairs'
/// z² (about one a pair by chance) and its worst pair. The pool's scale rests on transitivity;
/// a member far off scores against some opponents as a different rating would.
fn consistency_section(d: &mut Document, sorted: &[&PoolMemberRow], pairs: &[PoolPairRow]) {
    let zs: Vec<(&PoolPairRow, f64, f64)> = pairs
        .iter()
        .filter_map(|p| pair_z(p).map(|(e, z)| (p, e, z)))
        .collect();
    if zs.is_empty() {
        return;
    }
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let total: f64 = zs.iter().map(|(.., z)| z * z).sum();
    // the ratings take about one degree of freedom a member (the anchors' priors hold the scale)
    let dof = (zs.len() + 1).saturating_sub(sorted.len());
    let p = (dof > 0)
        .then(|| ChiSquared::new(dof as f64).ok().map(|c| c.sf(total)))
        .flatten();
    d.section("Consistency");
    d.para(&format!(
        "Each pair's points against the score its fitted difference predicts: z = (points − n e) / \
         √(n e (1 − e)) (draws ignored, so |z| is if anything small). Over all {} pairs the sum of \
         z² is {total:.1} on about {dof} degrees of freedom (pairs less members plus one){}. A \
         member whose sum is far above its pairs scores against some opponents as a different \
         rating would.",
        zs.len(),
        p.map(|p| if p < 0.01 {
            format!(", p = {p:.1e}")
        } else {
            format!(", p = {p:.2}")
        })
        .unwrap_or_default()
    ));
    let mut rows = Vec::new();
    for r in sorted {
        // (opponent, games, points, expected score, z), from r's side
        let mine: Vec<(&str, f64, f64, f64, f64)> = zs
            .iter()
            .filter_map(|&(p, e, z)| {
                let n = f64::from(p.games);
                if p.a == r.name {
                    Some((p.b.as_str(), n, p.a_points, e, z))
                } else if p.b == r.name {
                    Some((p.a.as_str(), n, n - p.a_points, 1.0 - e, -z))
                } else {
                    None
                }
            })
            .collect();
        let Some(&(o, n, points, e, z)) =
            mine.iter().max_by(|x, y| x.4.abs().total_cmp(&y.4.abs()))
        else {
            continue;
        };
        rows.push(vec![
            r.name.clone(),
            mine.len().to_string(),
            format!("{:.1}", mine.iter().map(|m| m.4 * m.4).sum::<f64>()),
            format!(
                "{o} ({n}: {:.0}% / {:.0}%, {z:+.1})",
                100.0 * points / n,
                100.0 * e
            ),
        ]);
    }
    d.table(
        &[
            "member",
            "pairs",
            "sum of z²",
            "worst pair (games: score / expected, z)",
        ],
        rows,
    );
}
