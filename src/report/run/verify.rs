//! The verification's games by opponent (`verify_opponents.csv`): does each level's rating hold
//! against every member it met?

use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::rating::model::Z95;
use crate::report::doc::{f0, Document};
use crate::results::{VerifyOpponentRow, VerifyRow};

/// A level's opponents disagree when their z's sum of squares is this unlikely.
pub const DISAGREE_P: f64 = 0.05;

/// A performance interval, one-sided after a perfect score.
fn interval(lo: f64, hi: f64) -> String {
    match (lo.is_finite(), hi.is_finite()) {
        (true, true) => format!("[{}, {}]", f0(lo), f0(hi)),
        (true, false) => format!("> {}", f0(lo)),
        (false, true) => format!("< {}", f0(hi)),
        (false, false) => "–".into(),
    }
}

/// Per level with two or more opponents: (target, chi², degrees of freedom, p) from verify.csv.
pub fn consistency(levels: &[VerifyRow]) -> Vec<(f64, f64, u32, f64)> {
    levels
        .iter()
        .filter_map(|r| {
            let (chi2, dof) = (r.opponents_chi2?, r.opponents_dof.filter(|d| *d > 0)?);
            let p = ChiSquared::new(f64::from(dof)).ok()?.sf(chi2);
            Some((r.target, chi2, dof, p))
        })
        .collect()
}

/// Appends the by-opponent table and the consistency verdict.
pub fn verify_opponents_section(
    doc: &mut Document,
    levels: &[VerifyRow],
    rows: &[VerifyOpponentRow],
) {
    if rows.is_empty() {
        return;
    }
    doc.section("Verification by opponent");
    let head = [
        "target",
        "opponent",
        "opponent rating (± 95%)",
        "W-D-L",
        "score",
        "expected",
        "performance [95%]",
        "z",
    ];
    let body = rows
        .iter()
        .map(|r| {
            vec![
                f0(r.target),
                r.opponent.clone(),
                format!("{} ± {}", f0(r.opponent_elo), f0(Z95 * r.opponent_sd)),
                format!("{}-{}-{}", r.wins, r.draws, r.losses),
                format!("{:.1}%", 100.0 * r.score),
                format!("{:.1}%", 100.0 * r.expected),
                if r.performance.is_finite() {
                    format!(
                        "{} {}",
                        f0(r.performance),
                        interval(r.performance_lower, r.performance_upper)
                    )
                } else {
                    interval(r.performance_lower, r.performance_upper)
                },
                // NaN when the level met one opponent: nothing to compare it with
                if r.z.is_finite() {
                    format!("{:+.1}", r.z)
                } else {
                    "–".into()
                },
            ]
        })
        .collect();
    doc.table(&head, body);
    let tests = consistency(levels);
    let off: Vec<String> = tests
        .iter()
        .filter(|t| t.3 < DISAGREE_P)
        .map(|(t, chi2, dof, p)| format!("{} (χ² {chi2:.1} on {dof}, p = {p:.2e})", f0(*t)))
        .collect();
    doc.para(&format!(
        "Expected: the level's score against that opponent at the level's measured rating. Performance: the rating this match alone gives the level, the opponent held at its rating (95% from the score's Wilson interval; one-sided after a perfect score). z: the match's performance less the level's other matches' (their weighted mean), in SDs of the games' binomial noise (draws would narrow it, so |z| is if anything small) and the opponents' ratings' covariance (a shift common to every member, the scale's location, drops out). One rating fits a level when the z's make a χ² on (opponents − 1) degrees of freedom (verify.csv's opponents_chi2). Levels whose opponents disagree (p < {DISAGREE_P}): {}.",
        if off.is_empty() { "none".to_string() } else { off.join("; ") }
    ));
}
