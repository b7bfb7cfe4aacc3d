//! The rating report's content as one [`Document`]; numbers formatted as `skillcal rate`
//! prints them (Elo to 0.1, scores and LOS in percent).

use std::path::Path;

use super::data::{RatingData, RatingReportOptions};
use crate::rating::{
    describe, EloScale, HeadToHead, Reference, ScoreStats, SprtState, LOS_MATRIX_MAX,
};
use crate::report::doc::files_section;
use crate::report::doc::Document;
use crate::report::run::Figure;
use crate::report::run::GameStats;

/// The statistics `skillcal rate --head-to-head` prefers: per opening pair when the two played
/// complete pairs, else per game.
pub fn pair_stats(h: &HeadToHead, confidence: f64) -> ScoreStats {
    if h.pentanomial.pairs() > 0 {
        h.pentanomial.stats(confidence)
    } else {
        ScoreStats::from_counts(&h.trinomial(), confidence)
    }
}

fn figure(doc: &mut Document, figs: &[Figure], file: &str) {
    if let Some(f) = figs.iter().find(|f| f.file == file) {
        doc.figure(&f.file, &f.caption);
    }
}

/// The SPRT's verdict between two players, with its course (when the report has one).
fn sprt_section(doc: &mut Document, d: &RatingData, figs: &[Figure]) {
    if let Some((s, rows, res, h)) = &d.sprt {
        doc.section("SPRT");
        let c = h.pentanomial.counts;
        let state = match res.state {
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::Continue => "continue",
        };
        doc.para(&format!(
            "{} against {} ({} Elo, pentanomial results) elo0 {} elo1 {} alpha {} beta {}: LLR {:.3} [{:.3}, {:.3}] -> {state} after {} opening pairs [{}, {}, {}, {}, {}] ({} points of the course below).",
            s.first,
            s.second,
            match s.test.scale {
                EloScale::Logistic => "logistic",
                EloScale::Normalized => "normalized",
            },
            s.test.elo0,
            s.test.elo1,
            s.test.alpha,
            s.test.beta,
            res.llr,
            res.lower_bound,
            res.upper_bound,
            h.pentanomial.pairs(),
            c[0], c[1], c[2], c[3], c[4],
            rows.len()
        ));
        figure(doc, figs, "sprt.svg");
    }
}

/// The rating report of `d`, written in `dir`.
pub fn document(
    dir: &Path,
    d: &RatingData,
    o: &RatingReportOptions,
    figs: &[Figure],
    stats: &GameStats,
) -> Document {
    let r = d.ratings;
    let conf = r.confidence;
    let mut doc = Document {
        title: o.title.clone(),
        ..Document::default()
    };
    if !o.sources.is_empty() {
        doc.para(&format!("Games from {}.", o.sources.join(", ")));
    }
    let scale = match (&o.scale, &r.reference) {
        (Some(s), _) => s.clone(),
        (None, Reference::PoolMean) => {
            "logistic Elo without anchors: the mean of the rated pool is 0, so only differences mean something".into()
        }
        (None, Reference::Anchors(_)) => "logistic Elo on the anchors' scale (not named)".into(),
    };
    doc.para(&format!("Scale: {scale}."));
    doc.code(&describe(r));

    doc.section("Rating list");
    let interval = format!("{:.0}% interval", conf * 100.0);
    let head = [
        "rank",
        "player",
        "Elo",
        "±",
        interval.as_str(),
        "games",
        "score",
        "draws",
        "anchor",
    ];
    let mut rows = Vec::new();
    let mut perfect = false;
    let mut unrated = Vec::new();
    for (k, p) in r.ranked().into_iter().enumerate() {
        let Some(elo) = p.elo else {
            unrated.push(format!(
                "{} ({} games, score {:.1}%)",
                p.name,
                p.games,
                p.score() * 100.0
            ));
            continue;
        };
        let (lo, hi) = (p.lower.unwrap_or(elo), p.upper.unwrap_or(elo));
        let anchor = match &p.anchor {
            None => String::new(),
            Some(a) => match a.sd {
                None => format!("{} (fixed)", a.elo),
                Some(sd) => format!(
                    "{} ± {} (soft): pulled {:+.1}, {:+.1} SD",
                    a.elo,
                    sd,
                    elo - a.elo,
                    (elo - a.elo) / sd
                ),
            },
        };
        perfect |= p.perfect;
        rows.push(vec![
            (k + 1).to_string(),
            format!("{}{}", p.name, if p.perfect { " *" } else { "" }),
            format!("{elo:.1}"),
            format!("{:.1}", (hi - lo) / 2.0),
            format!("[{lo:.1}, {hi:.1}]"),
            p.games.to_string(),
            format!("{:.1}%", p.score() * 100.0),
            format!("{:.1}%", p.draw_rate() * 100.0),
            anchor,
        ]);
    }
    doc.table(&head, rows);
    if perfect {
        doc.para("* scored 100% or 0%: the Elo and the open side of the interval are set by the weak prior, not by the games (only the other bound is informative).");
    }
    if !unrated.is_empty() {
        doc.para(&format!(
            "Not connected by games to the reference (not rated): {}.",
            unrated.join(", ")
        ));
    }
    figure(&mut doc, figs, "ratings.svg");

    pairs_section(&mut doc, d, conf);
    los_section(&mut doc, d);
    sprt_section(&mut doc, d, figs);
    if !d.history.is_empty() {
        doc.section("Ratings against games played");
        let steps = d
            .history
            .iter()
            .map(|h| h.games)
            .collect::<std::collections::BTreeSet<_>>();
        doc.para(&format!(
            "Each player's rating from the first N games ({} checkpoints; games in the order of the file, the same rating options; the last checkpoint is the rating list). A rating has settled once its band stops narrowing and its line stops drifting.",
            steps.len()
        ));
        figure(&mut doc, figs, "rating_history.svg");
    }
    doc.section("Games");
    doc.para(&stats.paragraph());
    figure(&mut doc, figs, "game_length.svg");
    figure(&mut doc, figs, "terminations.svg");
    files_section(&mut doc, dir, &["report.md", "report.html"]);
    doc
}

fn pairs_section(doc: &mut Document, d: &RatingData, conf: f64) {
    if d.pairs.is_empty() {
        return;
    }
    doc.section("Pairs");
    doc.para(&format!(
        "Every pair that met, the better-rated player first. Elo ± ({:.0}%) per game, and per opening pair (pentanomial counts [LL, LD, DD+WL, WD, WW] of the first player) where the games came in pairs; normalized Elo and LOS from the pairs when there are any, else from the games (fishtest's formulas).",
        conf * 100.0
    ));
    let head = [
        "pair",
        "games",
        "W-D-L",
        "score",
        "Elo ± (games)",
        "pentanomial",
        "Elo ± (pairs)",
        "nElo",
        "LOS",
    ];
    let rows = d
        .pairs
        .iter()
        .map(|h| {
            let per_game = ScoreStats::from_counts(&h.trinomial(), conf);
            let best = pair_stats(h, conf);
            let c = h.pentanomial.counts;
            let paired = h.pentanomial.pairs() > 0;
            vec![
                format!("{} vs {}", h.a, h.b),
                h.games().to_string(),
                format!("{}-{}-{}", h.wins, h.draws, h.losses),
                format!("{:.2}%", per_game.score * 100.0),
                format!("{:+.1} ± {:.1}", per_game.elo, per_game.elo_pm),
                if paired {
                    format!("[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
                } else {
                    "no pairs".into()
                },
                if paired {
                    format!("{:+.1} ± {:.1}", best.elo, best.elo_pm)
                } else {
                    "–".into()
                },
                format!(
                    "{:+.1} [{:+.1}, {:+.1}]",
                    best.nelo, best.nelo_lower, best.nelo_upper
                ),
                format!("{:.1}%", best.los * 100.0),
            ]
        })
        .collect();
    doc.table(&head, rows);
}

fn los_section(doc: &mut Document, d: &RatingData) {
    let r = d.ratings;
    let rated = r.rated_names();
    if rated.len() < 2 {
        return;
    }
    doc.section("Likelihood of superiority");
    if rated.len() > LOS_MATRIX_MAX {
        doc.para(&format!(
            "{} rated players: the matrix is shown for up to {LOS_MATRIX_MAX} (los.csv holds every pair).",
            rated.len()
        ));
        return;
    }
    doc.para("The probability (%) that the row player is stronger than the column player, from the two ratings and the covariance of their difference (shared uncertainty through the anchors cancels). Columns by rank.");
    let mut head = vec!["player".to_string()];
    head.extend((1..=rated.len()).map(|k| k.to_string()));
    let rows = rated
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let cells = rated
                .iter()
                .map(|b| match r.los(a, b).filter(|_| a != b) {
                    Some(l) => (format!("{:.1}", l * 100.0), Some(l)),
                    None => ("–".to_string(), None),
                })
                .collect();
            (format!("{}. {a}", i + 1), cells)
        })
        .collect();
    doc.matrix(head, rows);
}
