//! What an engine is told with `go`: the limits of a match ([`GoLimits`]), the clock format
//! ([`TimeControl`]) and the clock arithmetic of one game ([`Clocks`]).

use std::fmt::Write;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::error::{ArenaError, Result};

/// How far past its clock (or movetime) an engine may answer by default, milliseconds.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 100;

/// Search limits of an engine in a match. Any combination may be given: `go` carries all of
/// them. (Not the engine's own `engine::limits::Limits`, which is what a search obeys.)
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct GoLimits {
    /// Clock: `base+inc` in seconds (`10+0.1`), or `moves/base+inc` (`40/60+0`), or `base`.
    pub tc: Option<String>,
    /// Fixed time per move, milliseconds.
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// How far past its clock (or movetime) an engine may answer before it forfeits. Default 100 ms.
    pub time_margin_ms: Option<u64>,
}

impl GoLimits {
    /// `self` with unset fields taken from `defaults`.
    pub fn merged_over(&self, defaults: &GoLimits) -> GoLimits {
        GoLimits {
            tc: self.tc.clone().or_else(|| defaults.tc.clone()),
            movetime_ms: self.movetime_ms.or(defaults.movetime_ms),
            nodes: self.nodes.or(defaults.nodes),
            depth: self.depth.or(defaults.depth),
            time_margin_ms: self.time_margin_ms.or(defaults.time_margin_ms),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.tc.is_none()
            && self.movetime_ms.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }

    pub fn time_control(&self) -> Result<Option<TimeControl>> {
        self.tc.as_deref().map(TimeControl::parse).transpose()
    }

    /// The PGN `TimeControl` tag value.
    pub fn pgn_time_control(&self) -> String {
        if let Ok(Some(tc)) = self.time_control() {
            return tc.pgn();
        }
        if let Some(mt) = self.movetime_ms {
            return format!("{}/move", fmt_secs(mt));
        }
        "-".into()
    }

    /// Checks the values; errors start with `key` (`limits`, `engines[1].limits`).
    pub fn check(&self, key: &str) -> Result<()> {
        if let Some(tc) = &self.tc {
            TimeControl::parse(tc).map_err(|e| e.context(format!("{key}.tc")))?;
        }
        for (field, zero) in [
            ("movetime_ms", self.movetime_ms == Some(0)),
            ("nodes", self.nodes == Some(0)),
            ("depth", self.depth == Some(0)),
        ] {
            if zero {
                return Err(ArenaError::config(
                    format!("{key}.{field}"),
                    "must be positive",
                ));
            }
        }
        Ok(())
    }
}

/// A parsed clock: optional moves per period, base and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    pub fn parse(s: &str) -> Result<TimeControl> {
        let err = || {
            ArenaError::Config(format!(
                "time control '{s}': expected base+inc, moves/base+inc or base (seconds, or \
                 minutes:seconds for the base as cutechess writes it)"
            ))
        };
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| err())?), r),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, i),
            None => (rest, "0"),
        };
        let ms = |v: f64| -> Result<u64> {
            // a week is more than any game needs; past it the milliseconds stop being exact
            if !(v.is_finite() && (0.0..=604_800.0).contains(&v)) {
                return Err(err());
            }
            Ok((v * 1000.0).round() as u64)
        };
        let secs = |t: &str| -> Result<f64> { t.trim().parse().map_err(|_| err()) };
        // cutechess's `40/1:30+0.5`: the base as minutes:seconds
        let base_ms = match base.split_once(':') {
            Some((m, sec)) => {
                let m: u32 = m.trim().parse().map_err(|_| err())?;
                let sec = secs(sec)?;
                if !(0.0..60.0).contains(&sec) {
                    return Err(err());
                }
                ms(f64::from(m) * 60.0 + sec)?
            }
            None => ms(secs(base)?)?,
        };
        // `0/10` is no period at all, not sudden death: a typo the games would not show
        if moves == Some(0) {
            return Err(ArenaError::Config(format!(
                "time control '{s}': 0 moves per period; give at least 1, or leave out \
                 `moves/` for one period for the whole game (`{}`)",
                rest.trim()
            )));
        }
        let tc = TimeControl {
            moves,
            base_ms,
            inc_ms: ms(secs(inc)?)?,
        };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            return Err(ArenaError::Config(format!(
                "time control '{s}': no time at all"
            )));
        }
        Ok(tc)
    }

    pub fn pgn(&self) -> String {
        let mut s = String::new();
        if let Some(m) = self.moves {
            s.push_str(&format!("{m}/"));
        }
        s.push_str(&fmt_secs(self.base_ms));
        if self.inc_ms > 0 {
            s.push('+');
            s.push_str(&fmt_secs(self.inc_ms));
        }
        s
    }
}

fn fmt_secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

/// One side's limits as a game uses them.
#[derive(Clone, Debug)]
pub struct SideLimits {
    pub limits: GoLimits,
    pub tc: Option<TimeControl>,
    /// Lateness forgiven past the clock or movetime.
    pub margin: Duration,
}

impl SideLimits {
    pub fn new(limits: GoLimits) -> Result<SideLimits> {
        let tc = limits.time_control()?;
        let margin = Duration::from_millis(limits.time_margin_ms.unwrap_or(DEFAULT_TIME_MARGIN_MS));
        Ok(SideLimits { limits, tc, margin })
    }
}

/// How long a side may think before the arena gives up on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Clock or movetime (plus the margin): past it the side forfeits on time.
    Time(Duration),
    /// Node or depth limits only: past `stall` the side has stalled.
    Stall(Duration),
}

/// A side answered too late.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overrun {
    /// Past its clock (time left before the move) plus the margin.
    Clock { left: Duration },
    /// Past `movetime` plus the margin.
    Movetime { movetime_ms: u64 },
}

/// The clocks of one game: index 0 White, 1 Black.
pub struct Clocks<'a> {
    sides: [&'a SideLimits; 2],
    left: [Option<Duration>; 2],
    moves_made: [u32; 2],
}

impl<'a> Clocks<'a> {
    pub fn new(sides: [&'a SideLimits; 2]) -> Clocks<'a> {
        Clocks {
            left: sides.map(|s| s.tc.map(|t| Duration::from_millis(t.base_ms))),
            sides,
            moves_made: [0; 2],
        }
    }

    /// How long side `i` may take for its next move.
    pub fn budget(&self, i: usize, stall: Duration) -> Budget {
        let s = self.sides[i];
        match (self.left[i], s.limits.movetime_ms) {
            (Some(left), _) => Budget::Time(left + s.margin),
            (None, Some(mt)) => Budget::Time(Duration::from_millis(mt) + s.margin),
            (None, None) => Budget::Stall(stall),
        }
    }

    /// Charges side `i` for a move that took `elapsed`: a reply past time left + margin (or
    /// movetime + margin) is an overrun; otherwise the overshoot is forgiven, the increment
    /// added, and a new period's base added when the period's moves are made.
    pub fn charge(&mut self, i: usize, elapsed: Duration) -> std::result::Result<(), Overrun> {
        let s = self.sides[i];
        if let Some(left) = self.left[i] {
            if elapsed > left + s.margin {
                return Err(Overrun::Clock { left });
            }
            let tc = s.tc.expect("a clock implies a time control");
            let mut next = left.saturating_sub(elapsed) + Duration::from_millis(tc.inc_ms);
            self.moves_made[i] += 1;
            if tc
                .moves
                .is_some_and(|m| self.moves_made[i].is_multiple_of(m))
            {
                next += Duration::from_millis(tc.base_ms);
            }
            self.left[i] = Some(next);
        } else if let Some(mt) = s.limits.movetime_ms {
            if elapsed > Duration::from_millis(mt) + s.margin {
                return Err(Overrun::Movetime { movetime_ms: mt });
            }
        }
        Ok(())
    }

    /// Appends the arguments of `go` for side `i` (no leading `go`, no newline):
    /// ` wtime .. btime .. winc .. binc .. [movestogo ..] [movetime ..] [nodes ..] [depth ..]`.
    pub fn write_go_args(&self, out: &mut String, i: usize) {
        let s = self.sides[i];
        if let Some(mine) = self.left[i] {
            // A side without a clock gets the mover's figures, so the engine sees sane numbers.
            let theirs = self.left[1 - i].unwrap_or(mine);
            let (w, b) = if i == 0 {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let inc = |k: usize| self.sides[k].tc.map_or(0, |t| t.inc_ms);
            let (wi, bi) = (inc(0), inc(1));
            let _ = write!(
                out,
                " wtime {} btime {} winc {} binc {}",
                w.as_millis(),
                b.as_millis(),
                if self.sides[0].tc.is_some() { wi } else { bi },
                if self.sides[1].tc.is_some() { bi } else { wi },
            );
            if let Some(m) = s.tc.and_then(|t| t.moves) {
                let _ = write!(out, " movestogo {}", m - self.moves_made[i] % m);
            }
        }
        if let Some(mt) = s.limits.movetime_ms {
            let _ = write!(out, " movetime {mt}");
        }
        if let Some(n) = s.limits.nodes {
            let _ = write!(out, " nodes {n}");
        }
        if let Some(d) = s.limits.depth {
            let _ = write!(out, " depth {d}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
        let tc = TimeControl::parse("40/60").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 0));
        assert_eq!(tc.pgn(), "40/60");
        assert_eq!(TimeControl::parse("0.5+0.05").unwrap().pgn(), "0.5+0.05");
        assert!(TimeControl::parse("ten").is_err());
        assert!(TimeControl::parse("0+0").is_err());
        assert!(TimeControl::parse("1e300").is_err());
        let tc = TimeControl::parse("300/10+0").unwrap();
        assert_eq!((tc.moves, tc.base_ms), (Some(300), 10_000));
        // cutechess's minutes:seconds base
        let tc = TimeControl::parse("40/1:30+0.5").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 90_000, 500));
        assert_eq!(TimeControl::parse("2:05.5").unwrap().base_ms, 125_500);
        for bad in ["1:60", "1:-1", "x:30", "1:30:00", ":30"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    /// `0/10` was read as sudden death in 10 s: a period of no moves is refused, saying why.
    #[test]
    fn zero_moves_per_period_is_refused() {
        for bad in ["0/10", "0/10+0.1", " 0 /1:30"] {
            let e = TimeControl::parse(bad).unwrap_err().to_string();
            assert!(
                e.contains(&format!("time control '{bad}': 0 moves per period")),
                "{bad}: {e}"
            );
        }
        let e = GoLimits {
            tc: Some("0/10".into()),
            ..Default::default()
        }
        .check("engines[1].limits")
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("engines[1].limits.tc: "), "{e}");
    }

    fn side(tc: &str) -> SideLimits {
        SideLimits::new(GoLimits {
            tc: Some(tc.into()),
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn clocks_charge_increment_and_periods() {
        let (w, b) = (side("2/1+0.5"), side("10"));
        let mut c = Clocks::new([&w, &b]);
        let mut s = String::new();
        c.write_go_args(&mut s, 0);
        assert_eq!(s, " wtime 1000 btime 10000 winc 500 binc 0 movestogo 2");
        c.charge(0, Duration::from_millis(400)).unwrap();
        s.clear();
        c.write_go_args(&mut s, 0);
        assert_eq!(s, " wtime 1100 btime 10000 winc 500 binc 0 movestogo 1");
        c.charge(0, Duration::from_millis(100)).unwrap();
        // second move of the period: the base comes back
        assert_eq!(c.left[0], Some(Duration::from_millis(2500)));
        assert_eq!(
            c.charge(0, Duration::from_millis(2700)),
            Err(Overrun::Clock {
                left: Duration::from_millis(2500)
            })
        );
        assert_eq!(
            c.budget(1, Duration::from_secs(60)),
            Budget::Time(Duration::from_millis(10_100))
        );
    }
}
