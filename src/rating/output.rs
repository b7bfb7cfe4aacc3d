//! Human-readable tables and the ratings CSV.

use std::fmt::Write as _;
use std::path::Path;

use super::games::LoadError;
use super::pentanomial::{HeadToHead, ScoreStats};
use super::ratings::{Intervals, Ratings, Reference};
use super::sprt::{EloScale, Sprt, SprtResult, SprtState};
use crate::results::fixed;

/// A player's name as printed in a table: a control character (a newline, a tab) would break
/// the row, so it is written escaped (`\n`); the CSV keeps the name as it is.
pub fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.chars().any(char::is_control) {
        return name.into();
    }
    name.chars()
        .map(|c| match c {
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect::<String>()
        .into()
}

/// One line saying what the numbers are relative to and how the intervals were made.
pub fn describe(r: &Ratings) -> String {
    let mut s = String::new();
    let reference = match &r.reference {
        Reference::PoolMean => "no anchor: the mean of the rated pool is 0".to_string(),
        Reference::Anchors(names) => {
            let list: Vec<String> = names
                .iter()
                .filter_map(|n| r.get(n))
                .filter_map(|p| p.anchor.as_ref())
                .map(|a| match a.sd {
                    None => format!("{} = {} (fixed)", shown(&a.name), a.elo),
                    Some(sd) => format!("{} = {} ± {} (soft)", shown(&a.name), a.elo, sd),
                })
                .collect();
            format!("anchors: {}", list.join(", "))
        }
    };
    let _ = writeln!(
        s,
        "{} games, {} players; logistic Elo; {reference}",
        r.games,
        r.players.len()
    );
    let method = match r.intervals {
        Intervals::Hessian => "normal approximation (Hessian, draw-corrected)".to_string(),
        Intervals::Bootstrap { samples, seed } => {
            format!("parametric bootstrap, {samples} simulations, seed {seed}")
        }
    };
    let _ = writeln!(
        s,
        "{:.0}% intervals relative to the reference, by {method}",
        r.confidence * 100.0
    );
    let adv = match (r.white_advantage, r.white_advantage_interval) {
        (None, _) => "off".to_string(),
        (Some(a), Some((lo, hi))) => format!("{a:.1} [{lo:.1}, {hi:.1}] (fitted)"),
        (Some(a), None) => format!("{a:.1} (fixed)"),
    };
    let _ = writeln!(
        s,
        "white advantage: {adv}; draw model: Davidson on logistic score, nu = {:.3} \
         (draw rate between equals {:.1}%)",
        r.draw_nu,
        r.equal_draw_rate * 100.0
    );
    s
}

/// The ratings table: rank, name, Elo, ±, interval, games, score %, draw %.
pub fn format_table(r: &Ratings) -> String {
    let mut s = describe(r);
    let width = r
        .players
        .iter()
        .map(|p| shown(&p.name).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        s,
        "\n{:>4}  {:<width$}  {:>7}  {:>6}  {:>17}  {:>6}  {:>6}  {:>6}",
        "rank", "name", "Elo", "±", "interval", "games", "score", "draws"
    );
    let mut unconnected = Vec::new();
    let mut perfect = false;
    for (k, p) in r.ranked().into_iter().enumerate() {
        let Some(elo) = p.elo else {
            unconnected.push(p);
            continue;
        };
        let (lo, hi) = (p.lower.unwrap_or(elo), p.upper.unwrap_or(elo));
        // A soft anchor shows how far the games pulled it from its prior, in prior SDs: large
        // pulls mean the anchor table and this pool's spacing disagree.
        let mut mark = match p.anchor.as_ref() {
            Some(a) => match a.sd {
                None => " (anchor)".to_string(),
                Some(sd) => format!(
                    " (soft anchor {} ± {}: pulled {:+.1}, {:+.1} SD)",
                    a.elo,
                    sd,
                    elo - a.elo,
                    (elo - a.elo) / sd
                ),
            },
            None => String::new(),
        };
        if p.perfect {
            perfect = true;
            mark += " *";
        }
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>7.1}  {:>6.1}  {:>17}  {:>6}  {:>5.1}%  {:>5.1}%{mark}",
            k + 1,
            shown(&p.name),
            elo,
            (hi - lo) / 2.0,
            format!("[{lo:.1}, {hi:.1}]"),
            p.games,
            p.score() * 100.0,
            p.draw_rate() * 100.0
        );
    }
    if perfect {
        let _ = writeln!(
            s,
            "* scored 100% or 0%: the Elo and the open side of the interval are set by the weak \
             prior, not by the games (only the other bound is informative)"
        );
    }
    if !unconnected.is_empty() {
        let _ = writeln!(
            s,
            "\nnot connected to {} (not rated):",
            match r.reference {
                Reference::PoolMean => "the rated pool",
                Reference::Anchors(_) => "an anchor",
            }
        );
        for p in unconnected {
            let _ = writeln!(
                s,
                "      {:<width$}  {:>6} games  score {:>5.1}%  draws {:>5.1}%",
                shown(&p.name),
                p.games,
                p.score() * 100.0,
                p.draw_rate() * 100.0
            );
        }
    }
    s
}

/// Writes the ratings CSV: `name,elo,lower,upper,sd,games,wins,draws,losses,score,draw_rate,
/// connected,anchor_elo,anchor_sd,perfect` (Elo columns empty for unconnected players), strongest first.
pub fn write_csv(r: &Ratings, path: &Path) -> Result<(), LoadError> {
    let err = |e: &dyn std::fmt::Display| LoadError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut w = csv::Writer::from_path(path).map_err(|e| err(&e))?;
    w.write_record([
        "name",
        "elo",
        "lower",
        "upper",
        "sd",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "draw_rate",
        "connected",
        "anchor_elo",
        "anchor_sd",
        "perfect",
    ])
    .map_err(|e| err(&e))?;
    for p in r.ranked() {
        w.write_record([
            p.name.clone(),
            fixed(p.elo, 1, ""),
            fixed(p.lower, 1, ""),
            fixed(p.upper, 1, ""),
            fixed(p.sd, 1, ""),
            p.games.to_string(),
            p.wins.to_string(),
            p.draws.to_string(),
            p.losses.to_string(),
            format!("{:.4}", p.score()),
            format!("{:.4}", p.draw_rate()),
            p.connected.to_string(),
            p.anchor
                .as_ref()
                .map_or(String::new(), |a| a.elo.to_string()),
            p.anchor
                .as_ref()
                .and_then(|a| a.sd)
                .map_or(String::new(), |sd| sd.to_string()),
            p.perfect.to_string(),
        ])
        .map_err(|e| err(&e))?;
    }
    w.flush().map_err(|e| err(&e))?;
    Ok(())
}

fn format_stats(label: &str, st: &ScoreStats) -> String {
    format!(
        "{label}: score {:.2}%, Elo {:+.1} ± {:.1} [{:+.1}, {:+.1}], nElo {:+.1} [{:+.1}, {:+.1}], LOS {:.1}%\n",
        st.score * 100.0,
        st.elo,
        st.elo_pm,
        st.elo_lower,
        st.elo_upper,
        st.nelo,
        st.nelo_lower,
        st.nelo_upper,
        st.los * 100.0
    )
}

/// Head-to-head report: trinomial and pentanomial statistics, optionally an SPRT.
pub fn format_head_to_head(h: &HeadToHead, confidence: f64, sprt: Option<&Sprt>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} vs {}: {} games, +{} ={} -{}; {} opening pairs, {} games outside complete pairs",
        shown(&h.a),
        shown(&h.b),
        h.games(),
        h.wins,
        h.draws,
        h.losses,
        h.pentanomial.pairs(),
        h.unpaired_games
    );
    if h.games() == 0 {
        return s;
    }
    let c = h.pentanomial.counts;
    let _ = writeln!(
        s,
        "pentanomial [LL, LD, DD+WL, WD, WW] = [{}, {}, {}, {}, {}]",
        c[0], c[1], c[2], c[3], c[4]
    );
    s += &format_stats(
        "per game   ",
        &ScoreStats::from_counts(&h.trinomial(), confidence),
    );
    let counts: Vec<u64> = if h.pentanomial.pairs() > 0 {
        s += &format_stats("pentanomial", &h.pentanomial.stats(confidence));
        c.to_vec()
    } else {
        h.trinomial().to_vec()
    };
    if let Some(t) = sprt {
        let res: SprtResult = t.test(&counts);
        let scale = match t.scale {
            EloScale::Logistic => "logistic",
            EloScale::Normalized => "normalized",
        };
        let state = match res.state {
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::Continue => "continue",
        };
        let _ = writeln!(
            s,
            "SPRT ({scale} Elo, {} results) elo0 {} elo1 {} alpha {} beta {}: LLR {:.3} [{:.3}, {:.3}] -> {state}",
            if counts.len() == 5 { "pentanomial" } else { "trinomial" },
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            res.llr,
            res.lower_bound,
            res.upper_bound
        );
    }
    s
}

/// Players a LOS matrix shows at most (wider ones are unreadable).
pub const LOS_MATRIX_MAX: usize = 16;

/// The head-to-head report of every pair that met (see [`super::pairs_met`]).
pub fn format_pairs(pairs: &[HeadToHead], confidence: f64) -> String {
    pairs
        .iter()
        .map(|h| format_head_to_head(h, confidence, None))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The likelihood-of-superiority matrix of the rated players, strongest first: row player over
/// column player (columns by rank number), percent. Empty beyond [`LOS_MATRIX_MAX`] players.
pub fn format_los_matrix(r: &Ratings) -> String {
    let rated = r.rated_names();
    if rated.len() < 2 || rated.len() > LOS_MATRIX_MAX {
        return String::new();
    }
    let width = rated
        .iter()
        .map(|n| shown(n).chars().count())
        .max()
        .unwrap_or(4);
    let mut s = String::from("LOS (%), row player stronger than column player:\n");
    let _ = write!(s, "{:>4}  {:<width$}", "", "");
    for k in 1..=rated.len() {
        let _ = write!(s, "  {k:>5}");
    }
    s.push('\n');
    for (i, a) in rated.iter().enumerate() {
        let _ = write!(s, "{:>4}  {:<width$}", i + 1, shown(a));
        for b in &rated {
            match r.los(a, b).filter(|_| a != b) {
                Some(l) => {
                    let _ = write!(s, "  {:>5.1}", l * 100.0);
                }
                None => s.push_str("      -"),
            }
        }
        s.push('\n');
    }
    s
}
