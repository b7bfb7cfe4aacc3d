//! Hand-made run folders for the report and calibration tests: a copy of results/full's files,
//! and one whose tested settings carry an analysis written by hand.

use std::path::Path;

/// The files of results/full the comparison reads (the games are not needed).
pub fn copy_full(to: &Path) {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/full");
    std::fs::create_dir_all(to.join("verify")).unwrap();
    for f in [
        "summary.toml",
        "fit_curve.csv",
        "fit_points.csv",
        "table_details.csv",
        "calibrate.toml",
        "uci_elo_table.csv",
        "pool.csv",
        "verify/verify.csv",
    ] {
        std::fs::copy(full.join(f), to.join(f)).unwrap();
    }
}

pub const ANALYSIS_HEAD: &str = "player,settings,games,moves,inaccuracies,acpl,acpl_lower,acpl_upper,accuracy,accuracy_lower,accuracy_upper,inaccuracy_rate,inaccuracy_rate_lower,inaccuracy_rate_upper,mistake_rate,mistake_rate_lower,mistake_rate_upper,blunder_rate,blunder_rate_lower,blunder_rate_upper,blunder_rate_equal,blunder_rate_equal_lower,blunder_rate_equal_upper,blunder_rate_losing,blunder_rate_losing_lower,blunder_rate_losing_upper,drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,top1,top1_lower,top1_upper";

/// A copy of results/full whose tested settings are replaced by hand-made ones at curve Elo
/// `elos` (t evenly from 0 to 1), analysed with (acpl, blunder rate, equal, losing, top1) each;
/// material drops at half the equal blunder rate when equal and twice the losing one when losing,
/// so each setting's drop ratio is four times its blunder ratio.
pub fn analysed_run(to: &Path, elos: &[f64], figures: &[(f64, f64, f64, f64, f64)]) {
    copy_full(to);
    let n = elos.len() - 1;
    let mut points = String::from(
        "name,t,knobs,games,score,draw_rate,elo,lower,upper,isotonic,curve,residual,z\n",
    );
    let mut analysis = format!("{ANALYSIS_HEAD}\n");
    for (i, (elo, (acpl, b, eq, lose, top1))) in elos.iter().zip(figures).enumerate() {
        let t = i as f64 / n as f64;
        let name = format!("skillcal_t{t:.4}");
        points.push_str(&format!(
            "{name},{t},LimitNodes={i},100,0.5,0.1,{elo},{},{},{elo},{elo},0,0\n",
            elo - 100.0,
            elo + 100.0
        ));
        analysis.push_str(&format!(
            "{name},LimitNodes={i},100,4000,100,{acpl},{},{},80,75,85,0.1,0.08,0.12,0.05,0.04,0.06,{b},{},{},{eq},{},{},{lose},{},{},{},{},{},{},{},{},{top1},{},{}\n",
            acpl - 5.0,
            acpl + 5.0,
            b * 0.8,
            b * 1.2,
            eq * 0.8,
            eq * 1.2,
            lose * 0.8,
            lose * 1.2,
            eq / 2.0,
            eq / 2.0 * 0.8,
            eq / 2.0 * 1.2,
            lose * 2.0,
            lose * 2.0 * 0.8,
            lose * 2.0 * 1.2,
            top1 - 0.05,
            top1 + 0.05
        ));
    }
    std::fs::write(to.join("fit_points.csv"), points).unwrap();
    std::fs::create_dir_all(to.join("analysis")).unwrap();
    std::fs::write(to.join("analysis/analysis.csv"), analysis).unwrap();
}
