//! Which games and moves of human games are matched: the players' ratings, the time control,
//! the plies and the clock before a move (`HumanFilter`), and the `TimeControl` tag read.

use super::games::MAX_ELO;

/// Which games and moves of human games are matched.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanFilter {
    /// Rating band width: a move's band is the mover's rating rounded down to a multiple.
    pub band: u32,
    /// Movers rated `min_elo..=max_elo` are matched.
    pub min_elo: u32,
    pub max_elo: u32,
    /// Games whose `TimeControl` base (seconds) is below this are skipped (and games without a
    /// readable `TimeControl` when either bound is set).
    pub tc_min_base: Option<u32>,
    pub tc_max_base: Option<u32>,
    /// Plies before this one (from the game's start) are not matched.
    pub min_ply: usize,
    /// Moves made with less than this many seconds left (`[%clk]`) are not matched.
    pub min_clock: f64,
    /// When set, only moves the mover started with less than this many seconds on the clock
    /// are matched (time trouble), and only in games whose clocks and `TimeControl` say so.
    pub max_clock: Option<f64>,
}

impl HumanFilter {
    /// Every rated mover, every time control; Maia's 10 plies and 30 s.
    pub fn new(band: u32) -> HumanFilter {
        HumanFilter {
            band,
            min_elo: 0,
            max_elo: MAX_ELO,
            tc_min_base: None,
            tc_max_base: None,
            min_ply: 10,
            min_clock: 30.0,
            max_clock: None,
        }
    }

    pub(super) fn rated_in_range(&self, elo: Option<u32>) -> Option<u32> {
        elo.filter(|e| (self.min_elo..=self.max_elo).contains(e))
    }

    /// The filter as `key=value` pairs: a run folder records them, and a later run into the same
    /// folder must ask the same.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let opt = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_else(|| "none".into());
        vec![
            ("band", self.band.to_string()),
            ("min_elo", self.min_elo.to_string()),
            ("max_elo", self.max_elo.to_string()),
            ("tc_min_base", opt(self.tc_min_base)),
            ("tc_max_base", opt(self.tc_max_base)),
            ("min_ply", self.min_ply.to_string()),
            ("min_clock", self.min_clock.to_string()),
            (
                "max_clock",
                self.max_clock
                    .map_or_else(|| "none".into(), |c| c.to_string()),
            ),
        ]
    }
}

/// A `TimeControl` tag: `Some((base, increment))` in seconds, `None` for `-` (no clock), an
/// error for anything else (`?`, `40/7200`, text).
pub fn time_control(value: &str) -> std::result::Result<Option<(u32, u32)>, String> {
    let v = value.trim();
    if v == "-" {
        return Ok(None);
    }
    let (base, inc) = v.split_once('+').unwrap_or((v, "0"));
    match (base.parse::<u32>(), inc.parse::<u32>()) {
        (Ok(b), Ok(i)) => Ok(Some((b, i))),
        _ => Err(format!(
            "TimeControl `{v}` is not BASE+INCREMENT in seconds"
        )),
    }
}
