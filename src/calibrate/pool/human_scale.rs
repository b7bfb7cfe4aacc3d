//! The human scale: from members whose human ratings others recorded (the Maia bots' Lichess
//! ratings), the map from the pool's scale to Lichess blitz and rapid. An offset (weighted mean
//! of human minus pool), and a straight line when three points or more allow one; each member
//! weighted by its pool SD and the assumed SD of its human rating, taken as independent (the
//! members' pool covariance is small beside the human ratings' drift).

use crate::calibrate::config::HumanScaleConfig;
use crate::rating::model::Z95;
use crate::results::{fixed, HumanScaleRow, PoolMemberRow};

/// The scales a point may carry, with their `UCI_EloScale` names.
const SCALES: [&str; 2] = ["lichess-blitz", "lichess-rapid"];

/// One row per scale that has a point with a measured member.
pub(super) fn fit(cfg: &HumanScaleConfig, rows: &[PoolMemberRow]) -> Vec<HumanScaleRow> {
    SCALES
        .iter()
        .enumerate()
        .filter_map(|(k, scale)| {
            let pts: Vec<(f64, f64, f64)> = cfg
                .points
                .iter()
                .filter_map(|p| {
                    let human = if k == 0 {
                        p.lichess_blitz
                    } else {
                        p.lichess_rapid
                    }?;
                    let r = rows.iter().find(|r| r.name == p.member)?;
                    let var = r.sd? * r.sd? + cfg.human_sd * cfg.human_sd;
                    Some((r.elo?, human, var))
                })
                .collect();
            fit_points(scale, &pts, cfg.human_sd)
        })
        .collect()
}

/// `pts`: (pool rating, human rating, variance of their difference).
fn fit_points(scale: &str, pts: &[(f64, f64, f64)], human_sd: f64) -> Option<HumanScaleRow> {
    if pts.is_empty() {
        return None;
    }
    let w: Vec<f64> = pts.iter().map(|p| 1.0 / p.2).collect();
    let sw: f64 = w.iter().sum();
    let mean = |f: &dyn Fn(&(f64, f64, f64)) -> f64| {
        pts.iter().zip(&w).map(|(p, w)| w * f(p)).sum::<f64>() / sw
    };
    let offset = mean(&|p| p.1 - p.0);
    let half = Z95 / sw.sqrt();
    let chi2 = pts
        .iter()
        .zip(&w)
        .map(|(p, w)| w * (p.1 - p.0 - offset).powi(2))
        .sum();
    let mut row = HumanScaleRow {
        scale: scale.to_string(),
        points: pts.len() as u32,
        offset,
        offset_lower: offset - half,
        offset_upper: offset + half,
        offset_chi2: chi2,
        slope: None,
        slope_lower: None,
        slope_upper: None,
        intercept: None,
        slope_supported: false,
        human_sd,
    };
    let (px, py) = (mean(&|p| p.0), mean(&|p| p.1));
    let sxx: f64 = pts
        .iter()
        .zip(&w)
        .map(|(p, w)| w * (p.0 - px).powi(2))
        .sum();
    if pts.len() >= 3 && sxx > 0.0 {
        let sxy: f64 = pts
            .iter()
            .zip(&w)
            .map(|(p, w)| w * (p.0 - px) * (p.1 - py))
            .sum();
        let b = sxy / sxx;
        let h = Z95 / sxx.sqrt();
        row.slope = Some(b);
        row.slope_lower = Some(b - h);
        row.slope_upper = Some(b + h);
        row.intercept = Some(py - b * px);
        row.slope_supported = b - h > 1.0 || b + h < 1.0;
    }
    Some(row)
}

/// The page's section.
pub(super) fn section(
    d: &mut crate::results::Document,
    cfg: &HumanScaleConfig,
    scales: &[HumanScaleRow],
    rows: &[PoolMemberRow],
) {
    d.section("The human scale");
    d.para(&format!(
        "Members whose human ratings others recorded, beside their place here ({}). \
         The map rests on these engines alone: their human ratings drift and were measured \
         against whoever played them on Lichess; each is taken at ±{:.0} (SD).",
        cfg.note, cfg.human_sd
    ));
    let num = |v: Option<f64>| fixed(v, 0, "-");
    let members = cfg
        .points
        .iter()
        .map(|p| {
            let r = rows.iter().find(|r| r.name == p.member);
            let (e, lo, hi) = r.map_or((None, None, None), |r| (r.elo, r.lower, r.upper));
            vec![
                p.member.clone(),
                num(e),
                format!("{}-{}", num(lo), num(hi)),
                num(p.lichess_blitz),
                num(p.lichess_rapid),
            ]
        })
        .collect();
    d.table(
        &[
            "member",
            "pool",
            "95% interval",
            "Lichess blitz",
            "Lichess rapid",
        ],
        members,
    );
    let maps = scales
        .iter()
        .map(|r| {
            let slope = fixed(r.slope, 2, "-");
            let band = r
                .slope_lower
                .zip(r.slope_upper)
                .map_or("-".into(), |(l, h)| format!("{l:.2} to {h:.2}"));
            let used = if r.slope_supported {
                "the line (its slope's interval leaves out 1)"
            } else {
                "the offset (the slope's interval holds 1)"
            };
            vec![
                r.scale.clone(),
                r.points.to_string(),
                format!("{:+.0}", r.offset),
                format!("{:+.0} to {:+.0}", r.offset_lower, r.offset_upper),
                format!("{:.1} ({})", r.offset_chi2, r.points.saturating_sub(1)),
                slope,
                band,
                used.to_string(),
            ]
        })
        .collect();
    d.table(
        &[
            "scale",
            "points",
            "human - pool",
            "95% interval",
            "chi2 (dof)",
            "slope",
            "95% interval",
            "used by `UCI_EloScale`",
        ],
        maps,
    );
    d.para("Written to `human-scale.csv`; the engine embeds the committed pool's, `results/pool/human-scale.csv`.");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_points_on_a_line_of_slope_one() {
        let pts = [
            (1000.0, 1100.0, 100.0),
            (1200.0, 1300.0, 100.0),
            (1400.0, 1500.0, 100.0),
        ];
        let r = fit_points("lichess-blitz", &pts, 10.0).unwrap();
        assert!((r.offset - 100.0).abs() < 1e-9);
        assert!(r.offset_chi2.abs() < 1e-9);
        assert!((r.slope.unwrap() - 1.0).abs() < 1e-9);
        assert!(!r.slope_supported);
        // a steep line far outside its interval is supported
        let steep = [
            (1000.0, 1000.0, 1.0),
            (1200.0, 1600.0, 1.0),
            (1400.0, 2200.0, 1.0),
        ];
        let r = fit_points("lichess-blitz", &steep, 1.0).unwrap();
        assert!((r.slope.unwrap() - 3.0).abs() < 1e-9 && r.slope_supported);
        assert!(r.offset_chi2 > 10.0);
    }

    #[test]
    fn two_points_give_no_line() {
        let r = fit_points(
            "lichess-rapid",
            &[(1000.0, 1300.0, 4.0), (1100.0, 1390.0, 4.0)],
            2.0,
        )
        .unwrap();
        assert!(r.slope.is_none());
        assert!((r.offset - 295.0).abs() < 1e-9);
        // SE = 1 / sqrt(0.5): half-width Z95 * sqrt(2)
        assert!((r.offset_upper - r.offset - Z95 * 2f64.sqrt()).abs() < 1e-9);
        assert!(fit_points("x", &[], 1.0).is_none());
    }
}
