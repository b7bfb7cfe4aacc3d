//! `setoption`: the engine's own options (hash, threads, move overhead, ponder), then every
//! weakening option through `Settings`, each refusal said as `info string` and changing nothing.

use super::Uci;
use crate::strength::clock_seed;
use crate::strength::parse_int;

impl Uci {
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key = name.trim().to_ascii_lowercase();
        let value = value.map(str::trim).unwrap_or("");
        // As the weakening options: a value outside the range, however large, is ignored (the
        // previous value kept), and the message names the range.
        let bad = |reason: String| {
            self.say(&format!(
                "info string option {name}: bad value '{value}': {reason}; ignored"
            ));
        };
        let num = |min: u64, max: u64| -> Option<u64> {
            parse_int(value, min as i64, max as i64)
                .map_err(&bad)
                .ok()
                .map(|v| v as u64)
        };
        match key.as_str() {
            "hash" => {
                if let Some(v) = num(1, self.opts.max_hash_mb as u64).map(|v| v as usize) {
                    self.opts.hash_mb = v;
                    self.reclaim().set_hash(v);
                }
            }
            "threads" => {
                if value != "1" {
                    self.say("info string Threads: this engine searches with one thread only");
                }
            }
            "clear hash" => self.reclaim().clear(),
            "move overhead" => {
                if let Some(v) = num(0, 5000) {
                    self.opts.move_overhead_ms = v;
                }
            }
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" => self.opts.ponder = true,
                "false" => self.opts.ponder = false,
                _ => bad(format!("'{value}' is not true or false")),
            },
            _ => self.set_weakening(name, value),
        }
    }

    /// A weakening option (`Settings`): errors name the option and the value, and change nothing.
    fn set_weakening(&mut self, name: &str, value: &str) {
        if let Err(e) = self.settings.set_option(name, value) {
            self.say(&format!("info string {e}; ignored"));
            return;
        }
        let key = name.trim().to_ascii_lowercase();
        // outside the declared range the table plays its nearer end: said here, when the value
        // is given, not only at the next `go` (kept as given: a StrengthTable or Style set
        // after it may cover it)
        if key == "uci_elo" {
            if let Some(o) = self.settings.elo_outside() {
                self.say(&format!(
                    "info string {}: {} is used",
                    o.message(value),
                    o.used
                ));
            }
        }
        // the declared range is the pool's: a GUI needs the range on the chosen scale
        if key == "uci_eloscale"
            || (matches!(key.as_str(), "style" | "strengthtable")
                && self.settings.elo_scale != crate::strength::POOL_SCALE)
        {
            let text = self.settings.scale_info();
            self.say(&format!("info string {text}"));
        }
        if key == "style" || key == "maianet" {
            self.maia_load();
        }
        if key == "randomseed" {
            self.seed = match self.settings.random_seed {
                0 => clock_seed(),
                s => s,
            };
            self.seed_told = false;
        }
        if matches!(
            key.as_str(),
            "uci_limitstrength" | "uci_elo" | "strengthtable" | "style"
        ) {
            if let Some(text) = self.settings.strength_info() {
                self.say(&format!("info string {text}"));
            }
        }
    }
}
