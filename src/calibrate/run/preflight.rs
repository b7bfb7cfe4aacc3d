//! What a run (a calibration's, or a pool's) will hand the arena, checked before it writes
//! anything: the book, its order and the adjudication rules, every engine's program and limits, and
//! every engine started once by the arena's own preflight (the subject at both ends of its path,
//! each pool member). An option the engine lacks or a value it refuses failed only in the first
//! match, after the run's folder and match plans were written, and a rerun with the config
//! corrected resumed the stale plans.

use super::players::subject_engine;
use crate::calibrate::config::PoolRunConfig;
use crate::calibrate::config::{option_string, CalibrationConfig, PoolConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::calibrate::play::EngineSpec;
use crate::calibrate::play::{check_book_rules_and_programs, check_engines};

impl PoolConfig {
    /// Checks that every member's program can be found before any folder is made: a missing
    /// engine otherwise fails only in the first match, after the run's folder, plan and match
    /// folders were written. Errors name the config key and the member.
    pub fn check_commands(&self, origin: &str) -> Result<()> {
        for (j, m) in self.members.iter().enumerate() {
            let (key, command) = match (&m.command, &self.command) {
                (Some(c), _) => (format!("pool.member[{j}].command"), c.as_str()),
                (None, Some(c)) => ("pool.command".to_string(), c.as_str()),
                (None, None) => ("pool.command".to_string(), ""),
            };
            check_command(
                command,
                &format!("{origin}: key `{key}` (member `{}`)", m.name),
            )?;
        }
        Ok(())
    }

    /// Each member's limits, then each member started once with the options it will be sent;
    /// `origin` names the file the members come from.
    pub fn check_engines(&self, origin: &str) -> Result<()> {
        let mut engines = Vec::new();
        for (j, m) in self.members.iter().enumerate() {
            let e = crate::calibrate::play::member_engine(self, j);
            let key = match m.limits {
                Some(_) => format!("pool.member[{j}].limits"),
                None => "pool.limits".to_string(),
            };
            check_limits(&e, &key, origin)?;
            engines.push((format!("pool.member[{j}]"), e));
        }
        check_engines(&engines, origin)
    }
}

/// Finds an engine command's program (the built-in engine needs none); errors start with `what`.
fn check_command(command: &str, what: &str) -> Result<()> {
    if crate::arena::is_builtin_command(command) {
        return Ok(());
    }
    crate::arena::find_program(command)
        .map(|_| ())
        .map_err(|m| CalibrateError::Config(format!("{what}: {m}")))
}

/// An engine's `go` limits as the arena checks them, named by the config key they come from.
fn check_limits(e: &EngineSpec, key: &str, origin: &str) -> Result<()> {
    e.limits
        .check(key)
        .map_err(|err| CalibrateError::Config(format!("{origin}: key {err}")))?;
    if e.limits.is_empty() {
        return Err(CalibrateError::config(
            origin,
            key,
            "no limit at all (set tc, movetime_ms, nodes or depth)",
        ));
    }
    Ok(())
}

impl PoolRunConfig {
    /// What the arena will be handed (book order, adjudication, the book read and parsed, each
    /// member started once), checked before the run makes a folder or plays; `origin` names the
    /// config.
    pub fn check_playable(&self, origin: &str) -> Result<()> {
        check_book_rules_and_programs(&self.openings, &self.adjudication, &self.pool, origin)?;
        self.pool.check_engines(origin)
    }
}

impl CalibrationConfig {
    /// What the arena will be handed (book order, adjudication, the book read and parsed, the
    /// engines started once), checked before a run makes a folder or plays; `origin` names the
    /// config.
    pub fn check_playable(&self, origin: &str) -> Result<()> {
        check_book_rules_and_programs(&self.openings, &self.adjudication, &self.pool, origin)?;
        if let Some(c) = self.subject.command.as_deref() {
            check_command(c, &format!("{origin}: key `subject.command`"))?;
        }
        // the subject's own options first, so an error there is not blamed on the path; then
        // the path's two ends (its knobs move monotonically between them)
        let mut own = subject_engine(self, 1.0);
        own.options = self
            .subject
            .options
            .iter()
            .map(|(k, v)| (k.clone(), option_string(v)))
            .collect();
        let mut engines = vec![("subject.options".to_string(), own)];
        for t in [self.plan.t_min, 1.0] {
            let e = subject_engine(self, t);
            check_limits(&e, "subject.limits", origin)?;
            engines.push((format!("[[path]] at t = {t}"), e));
        }
        check_engines(&engines, origin)?;
        // a measured pool's members are keyed in that pool's own config
        let pool_origin = match &self.pool.file {
            Some(d) => d.join("pool.toml").display().to_string(),
            None => origin.to_string(),
        };
        self.pool.check_engines(&pool_origin)
    }
}
