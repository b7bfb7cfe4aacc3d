//! A match config's checks: everything that can be checked without starting engines, each error
//! naming its key.

use std::collections::BTreeMap;

use super::config::{MatchConfig, MAX_MATCH_GAMES};
use super::error::{config_bail, ArenaError, Result};

impl MatchConfig {
    /// Checks everything that can be checked without starting engines; errors name the key.
    pub fn validate(&self) -> Result<()> {
        if self.engines.len() < 2 {
            config_bail!(
                "engines: a match needs at least two engines (have {})",
                self.engines.len()
            );
        }
        // `games` caps the games of a pairing; a cap above what the rounds play would be read
        // as cutechess's `-games N` (N games) and silently play fewer
        if let Some(g) = self.games {
            let full = self.rounds.saturating_mul(self.games_per_opening);
            if g > full {
                config_bail!(
                    "games: {g} is more than the {full} games a pairing plays in {} round(s) of \
                     {} games; raise rounds to {} (games only caps a pairing's games)",
                    self.rounds,
                    self.games_per_opening,
                    g.div_ceil(self.games_per_opening.max(1))
                );
            }
        }
        // The shared limits first, so a bad `[limits]` (or `--tc`) is not blamed on engines[0].
        self.limits.check("limits")?;
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for (i, e) in self.engines.iter().enumerate() {
            let key = format!("engines[{i}]");
            if e.command.trim().is_empty() {
                config_bail!("{key}.command: missing");
            }
            let name = e
                .display_name()
                .map_err(|e| e.context(format!("{key}.command")))?;
            e.check(&key, &name)?;
            if let Some(j) = names.insert(name.clone(), i) {
                config_bail!("{key}.name: '{name}' is also the name of engines[{j}]; engine names must be unique (set `name`)");
            }
            let lim = e.limits.merged_over(&self.limits);
            lim.check(&format!("{key}.limits"))?;
            if lim.is_empty() {
                config_bail!("{key}.limits: no limit at all (set tc, movetime_ms, nodes or depth here or in [limits])");
            }
        }
        if self.rounds == 0 {
            config_bail!("rounds: must be at least 1");
        }
        if !(1..=2).contains(&self.games_per_opening) {
            config_bail!("games_per_opening: must be 1 or 2");
        }
        if self.games == Some(0) {
            config_bail!("games: must be at least 1");
        }
        let per_pairing = u64::from(self.rounds) * u64::from(self.games_per_opening);
        let per_pairing = self
            .games
            .map_or(per_pairing, |g| per_pairing.min(u64::from(g)));
        let pairings = self.pairings().len() as u64;
        if per_pairing * pairings > MAX_MATCH_GAMES {
            config_bail!(
                "rounds: {} round(s) of {} game(s) for each of {pairings} pairing(s) make {} games; \
                 one match plays at most {MAX_MATCH_GAMES} (split a longer run into several --out folders)",
                self.rounds,
                self.games_per_opening,
                per_pairing * pairings
            );
        }
        if self.concurrency == 0 {
            config_bail!("concurrency: must be at least 1");
        }
        self.adjudication.check("adjudication")?;
        // 0 plies kept no move of a PGN opening, and the book then failed to read as PGN
        if self.openings.plies == Some(0) {
            config_bail!("openings.plies: must be at least 1");
        }
        if self.timeouts.handshake_ms == 0 || self.timeouts.stall_ms == 0 {
            config_bail!("timeouts: handshake_ms and stall_ms must be positive");
        }
        if let Some(r) = &self.rating {
            r.check(&self.engine_names()?).map_err(ArenaError::Config)?;
        }
        if let Some(t) = &self.sprt {
            if self.engines.len() != 2 {
                config_bail!(
                    "sprt: tests one engine against another; this match has {} engines",
                    self.engines.len()
                );
            }
            if self.games_per_opening != 2 {
                config_bail!("sprt: needs opening pairs (games_per_opening = 2)");
            }
            if !(t.elo0.is_finite() && t.elo1.is_finite() && t.elo0 < t.elo1) {
                config_bail!(
                    "sprt: elo0 must be below elo1 (have {} and {})",
                    t.elo0,
                    t.elo1
                );
            }
            for (key, v) in [("alpha", t.alpha), ("beta", t.beta)] {
                if !(v > 0.0 && v < 0.5) {
                    config_bail!("sprt.{key}: must lie in (0, 0.5) (have {v})");
                }
            }
        }
        Ok(())
    }
}
