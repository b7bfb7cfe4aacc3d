//! The `UCI_Elo` range on `UCI_EloScale`'s scale: `uci` declares the table's range on the pool's
//! scale before a GUI chooses a scale, so the engine states the usable range on the chosen one,
//! and says so, on that scale, when a value lies outside it.

use super::elo_scale::{self, UCI_ELO_SCALE};
use super::settings::{Settings, TableSource, UCI_ELO};

/// A `UCI_Elo` outside the usable range (see [`Settings::elo_outside`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EloOutside {
    /// The usable `min` and `max` on `UCI_EloScale`'s scale (the declared ones on `pool`).
    pub bounds: (i64, i64),
    /// The value played instead, on the same scale.
    pub used: i64,
    /// Which table sets the range, as messages name it.
    pub table: String,
    /// The `UCI_EloScale` the bounds are on.
    pub scale: String,
}

impl EloOutside {
    /// What is wrong, naming the option, the value as `written`, the range and its scale.
    pub fn message(&self, written: &str) -> String {
        let (lo, hi) = self.bounds;
        let on = match self.scale.as_str() {
            elo_scale::POOL => String::new(),
            s => format!(" on {s}"),
        };
        format!(
            "{UCI_ELO} {} is outside {lo}..={hi}, the range of {}{on}",
            written.trim(),
            self.table
        )
    }
}

impl Settings {
    /// The `UCI_Elo` range usable on `UCI_EloScale`'s scale: [`Settings::elo_bounds`] (the
    /// pool's) mapped onto it and rounded to whole Elo. A GUI reads the declared range, which
    /// `uci` gives before any scale is chosen, so the engine says this one when the scale changes.
    pub fn scale_bounds(&self) -> (i64, i64) {
        let (lo, hi) = self.elo_bounds();
        match elo_scale::find(&self.elo_scale) {
            Some(Some(m)) => (
                m.from_pool(lo as f64).round() as i64,
                m.from_pool(hi as f64).round() as i64,
            ),
            _ => (lo, hi),
        }
    }

    /// When `UCI_Elo` lies outside [`Settings::scale_bounds`]: the range, the table and the
    /// value played instead (the nearer bound, as the table clamps it), on `UCI_EloScale`'s scale.
    pub fn elo_outside(&self) -> Option<EloOutside> {
        let (lo, hi) = self.scale_bounds();
        if (lo..=hi).contains(&self.elo) {
            return None;
        }
        Some(EloOutside {
            bounds: (lo, hi),
            used: self.elo.clamp(lo, hi),
            scale: self.elo_scale.clone(),
            table: self.table_name(),
        })
    }

    /// The table in use, as messages name it.
    pub(super) fn table_name(&self) -> String {
        match &self.strength_table {
            TableSource::Embedded => format!("the Style {} table", self.style),
            TableSource::Path(p) => format!("the table {}", p.display()),
        }
    }

    /// The `info string` text the engine prints when the scale (or the table) changes: the
    /// `UCI_Elo` range usable on `UCI_EloScale`'s scale, which the declared range is not on a
    /// human scale.
    pub fn scale_info(&self) -> String {
        let (lo, hi) = self.scale_bounds();
        let (plo, phi) = self.elo_bounds();
        let of = match self.elo_scale.as_str() {
            elo_scale::POOL => format!("{}'s", self.table_name()),
            _ => format!("{}'s {plo}-{phi} on the pool's scale", self.table_name()),
        };
        format!(
            "{UCI_ELO_SCALE} {}: {UCI_ELO} is usable from {lo} to {hi} ({of})",
            self.elo_scale
        )
    }
}
