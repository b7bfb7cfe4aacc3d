//! Provisional UCI_Elo tables: a family's strength path placed on the Elo scale by its config's
//! guess (`[plan] guess`), before any game. The engine embeds one for every family not yet
//! calibrated, and says so: the `# provisional` comment marks the table, and `info string`
//! reports it with each row it plays.

use std::fmt::Write as _;

use crate::calibrate::error::{config_err, CalibrateError, Result};

use super::uci_elo::{fixed_knobs, path_comments};
use crate::calibrate::config::{fmt_num, CalibrationConfig};

/// Rows of a provisional table: t = 0, 0.1, ..., 1.
pub const ROWS: usize = 11;

/// The provisional table of `cfg` (`origin` names its config in the header and in errors): at
/// evenly spaced t, `elo = g0 + (g1 - g0) t` with `[plan] guess = [g0, g1]`, the path's knob
/// values at t, and the subject's fixed knobs as constant columns (with `UCI_LimitStrength` the
/// engine takes its settings from the table, so the table must carry them).
pub fn provisional_table(cfg: &CalibrationConfig, origin: &str) -> Result<String> {
    let Some([g0, g1]) = cfg.plan.guess else {
        config_err!("{origin}: key `plan.guess`: a provisional table needs the guessed Elo at t = 0 and t = 1");
    };
    if g1.is_nan() || g0.is_nan() || g1 - g0 < ROWS as f64 {
        config_err!("{origin}: key `plan.guess`: the Elo at t = 1 must lie above the Elo at t = 0");
    }
    if let Some(k) = cfg.path.iter().find(|k| k.limit.is_some()) {
        config_err!(
            "{origin}: key `path`: {} is a go limit, which the built-in engine's table cannot hold",
            k.name()
        );
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# provisional: not yet calibrated. Rows place the path of {origin} on a straight line in t between its guessed Elo at t = 0 ({}) and at t = 1 ({}), its [plan] guess; no games measured them.",
        fmt_num(g0),
        fmt_num(g1)
    );
    s.push_str(&path_comments(cfg));
    let fixed = fixed_knobs(cfg);
    // Writing CSV into memory cannot fail short of a bug.
    let mem =
        |e: &dyn std::fmt::Display| CalibrateError::Config(format!("{origin}: table text: {e}"));
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let mut header = vec!["elo".to_string()];
    header.extend(cfg.path.iter().map(|k| k.name()));
    header.extend(fixed.iter().map(|(k, _)| k.clone()));
    w.write_record(&header).map_err(|e| mem(&e))?;
    for i in 0..ROWS {
        let t = i as f64 / (ROWS - 1) as f64;
        let mut row = vec![fmt_num((g0 + (g1 - g0) * t).round())];
        row.extend(cfg.path.iter().map(|k| fmt_num(k.value(t))));
        row.extend(fixed.iter().map(|(_, v)| v.clone()));
        w.write_record(&row).map_err(|e| mem(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| mem(&e))?;
    s.push_str(&String::from_utf8(bytes).map_err(|e| mem(&e))?);
    Ok(s)
}
