//! The semantic checks of a calibration config (after parsing): each error names the file and
//! the key, and no value that parses but cannot work (NaN, infinity, an empty first batch, a
//! million targets) is let through to a run that would play nothing or nonsense.

use super::calibration::{
    CalibrationConfig, CalibrationOpenings, GoLimit, KnobPath, Scale, Targets,
};
use crate::calibrate::error::{config_err, Result};
use crate::strength::{Kind, Knob};

/// Most targets a config may name: each is a table row and a line of every report.
pub const MAX_TARGETS: usize = 1000;

/// A target is a row of the table the engine loads: within the Elo a table may name (games
/// were played and a table of 300-digit rows written for `from = 1e300`).
fn check_target_elo(t: f64, origin: &str) -> Result<()> {
    let (lo, hi) = crate::strength::ELO_BOUNDS;
    if !(lo..=hi).contains(&t) {
        config_err!(
            "{origin}: key `targets`: {} is outside {lo}..={hi} Elo (the rows a UCI_Elo table \
             may have)",
            crate::rating::shown(t)
        );
    }
    Ok(())
}

/// A game budget (`what` names the key or flag): games come in colour-swapped pairs, so a
/// budget under 2 plays none and the run ends as if it had finished.
pub fn check_budget(budget: usize, what: &str) -> Result<()> {
    if budget < 2 {
        config_err!(
            "{what}: {budget} plays no game; at least 2 (games come in colour-swapped pairs)"
        );
    }
    Ok(())
}

/// A run name (`name`), which names the default run folder `results/NAME`: a separator or `..`
/// would put that folder outside results/.
pub fn check_run_name(name: &str, origin: &str) -> Result<()> {
    if name.contains(['/', '\\']) || name == "." || name == ".." {
        config_err!(
            "{origin}: key `name`: `{name}` is not a run name (it names the folder \
             results/NAME): no `/` or `\\`, and not `.` or `..`"
        );
    }
    Ok(())
}

/// Whether two paths move the same thing: a UCI option (names compared as UCI does, case
/// aside) or the same `go` limit.
fn same_knob(a: &KnobPath, b: &KnobPath) -> bool {
    match (a.limit, b.limit) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.knob.trim().eq_ignore_ascii_case(b.knob.trim()),
        _ => false,
    }
}

/// Engine option values from TOML: what `setoption` can send. An array or a table was sent as
/// its TOML text.
pub(crate) fn check_option_values(
    options: &std::collections::BTreeMap<String, toml::Value>,
    key: &str,
    origin: &str,
) -> Result<()> {
    for (name, v) in options {
        if matches!(
            v,
            toml::Value::Array(_) | toml::Value::Table(_) | toml::Value::Datetime(_)
        ) {
            config_err!(
                "{origin}: key `{key}.{name}`: expected a number, string or boolean, found {} `{v}`",
                v.type_str()
            );
        }
    }
    Ok(())
}

impl CalibrationOpenings {
    /// The checks shared by calibration and pool configs.
    pub fn check(&self, origin: &str) -> Result<()> {
        // 0 plies kept no move of a PGN opening, and the book then failed to read as PGN
        if self.plies == Some(0) {
            config_err!("{origin}: key `openings.plies`: must be at least 1");
        }
        Ok(())
    }
}

impl CalibrationConfig {
    /// A path's ends against the range its knob is kept in (`KnobPath::value` clamps into it):
    /// for the built-in engine its own option's bounds, so an end outside them would be sent
    /// as the bound, silently.
    fn check_knob_range(&self, i: usize, k: &KnobPath, origin: &str) -> Result<()> {
        let knob = k.knob.trim();
        let (lo, hi, zero) = match Knob::from_name(knob).map(Knob::kind) {
            Some(Kind::Int {
                min,
                max,
                unlimited_zero,
                ..
            }) => (
                (if unlimited_zero { min.max(1) } else { min }) as f64,
                max as f64,
                unlimited_zero,
            ),
            Some(Kind::Float { min, max, .. }) => (min, max, false),
            _ => return Ok(()),
        };
        let builtin = self
            .subject
            .command
            .as_deref()
            .is_none_or(crate::arena::is_builtin_command);
        for (end, v) in [("from", k.from), ("to", k.to)] {
            if !(lo..=hi).contains(&v) {
                let whose = if builtin {
                    ""
                } else {
                    ", which skillcal keeps this path in whatever the engine"
                };
                let zero = if zero && v < lo {
                    "; 0 would mean unlimited"
                } else {
                    ""
                };
                config_err!(
                    "{origin}: key `path[{i}] ({knob}).{end}`: {v} is outside {lo}..={hi} \
                     (the built-in engine's range of {knob}{whose}{zero})"
                );
            }
        }
        Ok(())
    }

    pub fn validate(&self, origin: &str) -> Result<()> {
        check_run_name(&self.name, origin)?;
        if self.concurrency == 0 {
            config_err!("{origin}: key `concurrency`: must be at least 1");
        }
        check_budget(self.budget, &format!("{origin}: key `budget`"))?;
        for (key, p) in [
            ("precision", Some(self.precision)),
            ("precision_extrapolated", self.precision_extrapolated),
        ] {
            if p.is_some_and(|p| !(p.is_finite() && p > 0.0)) {
                config_err!("{origin}: key `{key}`: must be a positive number of Elo");
            }
        }
        if let Some([lo, hi]) = self.precision_range {
            if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                config_err!("{origin}: key `precision_range`: need [low, high] with low < high");
            }
        }
        match self.precision_outside {
            Some(p) if !(p.is_finite() && p > 0.0) => {
                config_err!("{origin}: key `precision_outside`: must be a positive number of Elo")
            }
            Some(_) if self.precision_range.is_none() => config_err!(
                "{origin}: key `precision_outside`: needs `precision_range` (the targets it does not cover)"
            ),
            _ => {}
        }
        self.validate_targets(origin)?;
        check_option_values(&self.subject.options, "subject.options", origin)?;
        if self.path.is_empty() {
            config_err!("{origin}: key `path`: at least one [[path]] knob is needed");
        }
        self.validate_path(origin)?;
        if let Some(k) = self.fit.knots {
            if !crate::calibrate::fit::KNOTS_RANGE.contains(&k) {
                config_err!("{origin}: key `fit.knots`: {k} is outside 4..=10");
            }
            // knots shape only the spline and the monotone form: the configured form, a
            // candidate of `select_form`, or else a fallback alone
            use super::calibration::ModelKind;
            if !matches!(self.fit.model, ModelKind::Spline | ModelKind::Monotone)
                && !self.fit.select_form
            {
                let m = self.fit.model.name();
                config_err!(
                    "{origin}: key `fit.knots`: `fit.model` is `{m}`, not the spline or the \
                     monotone form; the knots would count only if the {m} fit failed and one of \
                     them replaced it. Set `model = \"spline\"` (or `\"monotone\"`, or \
                     `select_form = true`) or remove it"
                );
            }
        }
        self.validate_plan(origin)?;
        if self.pool.file.is_some() {
            // The members come from the file when the config is loaded.
            if !self.pool.members.is_empty() || self.pool.command.is_some() {
                config_err!(
                    "{origin}: key `pool.file`: a measured pool brings its own members; remove \
                     `pool.member` and `pool.command` (or `pool.file`)"
                );
            }
            if self.plan.pool_games > 0 {
                config_err!(
                    "{origin}: key `plan.pool_games`: the measured pool (`pool.file`) has its \
                     games already; set it to 0"
                );
            }
        } else {
            if self.pool.hold {
                config_err!(
                    "{origin}: key `pool.hold`: holds the members at a measured pool's ratings; \
                     it needs `pool.file`"
                );
            }
            self.validate_pool(origin)?;
        }
        self.openings.check(origin)?;
        if self.verify.opponents_per_level == 0 {
            config_err!("{origin}: key `verify.opponents_per_level`: must be at least 1");
        }
        self.check_also_against(&format!("{origin}: key `verify.also_against`"))?;
        if self.verify.games_per_opponent < 2 || !self.verify.games_per_opponent.is_multiple_of(2) {
            config_err!("{origin}: key `verify.games_per_opponent`: must be even and at least 2");
        }
        Ok(())
    }

    /// `targets`: finite, within the Elo a table may name, increasing, and not too many.
    fn validate_targets(&self, origin: &str) -> Result<()> {
        let count = match &self.targets {
            Targets::Range { from, to, step } => {
                if ![from, to, step].iter().all(|v| v.is_finite()) {
                    config_err!(
                        "{origin}: key `targets`: from, to and step must be numbers of Elo"
                    );
                }
                if *step <= 0.0 || to < from {
                    config_err!("{origin}: key `targets`: need from <= to and step > 0");
                }
                check_target_elo(*from, origin)?;
                check_target_elo(*to, origin)?;
                // counted before the list is made: a tiny step made 200,001 targets
                ((to - from) / step).floor() + 1.0
            }
            Targets::List(v) => {
                if v.iter().any(|t| !t.is_finite()) {
                    config_err!("{origin}: key `targets`: every target must be a number of Elo");
                }
                for t in v {
                    check_target_elo(*t, origin)?;
                }
                // the table's rows: an engine refuses a table whose Elo does not increase,
                // and that was found only at the first fit, after games were played
                if let Some(w) = v.windows(2).find(|w| w[1] <= w[0]) {
                    let why = if w[1] == w[0] {
                        format!("{} given twice", w[0])
                    } else {
                        format!("{} after {}", w[1], w[0])
                    };
                    config_err!("{origin}: key `targets`: must increase ({why})");
                }
                v.len() as f64
            }
        };
        if count > MAX_TARGETS as f64 {
            config_err!(
                "{origin}: key `targets`: {count} targets; at most {MAX_TARGETS} (a larger step)"
            );
        }
        if self.targets.values().is_empty() {
            config_err!("{origin}: key `targets`: no target Elo given");
        }
        Ok(())
    }

    /// Each `[[path]]` knob: a knob of the subject, its range, scale and limits.
    fn validate_path(&self, origin: &str) -> Result<()> {
        for (i, k) in self.path.iter().enumerate() {
            let key = format!("path[{i}] ({})", k.name());
            match (k.knob.trim().is_empty(), k.limit) {
                (true, None) => config_err!(
                    "{origin}: key `path[{i}]`: names neither `knob` (a UCI option) nor `limit` (a go limit: nodes, depth, movetime)"
                ),
                (false, Some(l)) => config_err!(
                    "{origin}: key `path[{i}]`: names both `knob` ({}) and `limit` ({}); a path moves one of them",
                    k.knob,
                    l.name()
                ),
                _ => {}
            }
            for (end, v) in [("from", k.from), ("to", k.to), ("offset", k.offset)] {
                if !v.is_finite() {
                    config_err!("{origin}: key `{key}.{end}`: {v} is not a finite number");
                }
            }
            if let Some(l) = k.limit {
                if k.from.min(k.to) < 1.0 {
                    config_err!(
                        "{origin}: key `{key}`: a go {} limit needs from and to >= 1",
                        l.name()
                    );
                }
                if l.is_set(&self.subject.limits) {
                    config_err!(
                        "{origin}: key `subject.limits.{}`: path[{i}] moves go {}; remove it from the subject's limits",
                        if l == GoLimit::Movetime { "movetime_ms" } else { l.name() },
                        l.name()
                    );
                }
            }
            // both would be sent at every setting and the engine keep the last one
            if let Some(j) = self.path[..i].iter().position(|p| same_knob(p, k)) {
                config_err!(
                    "{origin}: key `{key}`: path[{j}] already moves {}; one path per knob",
                    k.name()
                );
            }
            if k.limit.is_none() {
                let knob = k.knob.trim();
                if let Some(o) = self
                    .subject
                    .options
                    .keys()
                    .find(|o| o.trim().eq_ignore_ascii_case(knob))
                {
                    config_err!(
                        "{origin}: key `subject.options.{o}`: path[{i}] moves {knob}; remove it \
                         from the subject's options (the path sets it at every setting)"
                    );
                }
                self.check_knob_range(i, k, origin)?;
            }
            if k.from == k.to {
                config_err!(
                    "{origin}: key `{key}`: `from` and `to` are equal; the knob would not move"
                );
            }
            match k.scale {
                Scale::Log if k.from <= 0.0 || k.to <= 0.0 => {
                    config_err!("{origin}: key `{key}.scale`: log scale needs from and to > 0")
                }
                Scale::Log1p if k.offset <= 0.0 || k.from < 0.0 || k.to < 0.0 => {
                    config_err!(
                        "{origin}: key `{key}.offset`: log1p needs offset > 0 and values >= 0"
                    )
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The `[plan]` keys: the grid, t's domain, the first batch and guess, the pairings.
    fn validate_plan(&self, origin: &str) -> Result<()> {
        let p = &self.plan;
        if p.grid == 0 || p.grid > 1000 {
            config_err!("{origin}: key `plan.grid`: must be in 1..=1000");
        }
        if !(p.t_min > -1.0 && p.t_min <= 0.0) {
            config_err!(
                "{origin}: key `plan.t_min`: {} is outside (-1, 0]; t = 0 is the path's `from` end",
                p.t_min
            );
        }
        if p.initial.iter().any(|t| !(p.t_min..=1.0).contains(t)) {
            config_err!(
                "{origin}: key `plan.initial`: strength parameters lie in [plan.t_min, 1] = [{}, 1]",
                p.t_min
            );
        }
        // one setting has no curve to fit: the first batches would replay it to the budget's end
        let mut first: Vec<f64> = p
            .initial
            .iter()
            .map(|&t| super::calibration::quantize(self, t))
            .collect();
        first.sort_by(f64::total_cmp);
        first.dedup();
        if first.len() < 2 {
            config_err!(
                "{origin}: key `plan.initial`: needs at least two settings apart on the plan's grid (1/{}), to fit a first curve",
                p.grid
            );
        }
        if let Some([weak, strong]) = p.guess {
            if !(weak.is_finite() && strong.is_finite()) {
                config_err!(
                    "{origin}: key `plan.guess`: needs two numbers of Elo, [at t = 0, at t = 1]"
                );
            }
            // t = 1 is the path's strongest end: a guess the other way round picks the first
            // opponents of each end at the other end of the pool
            if weak >= strong {
                config_err!(
                    "{origin}: key `plan.guess`: [{weak}, {strong}] is [at t = 0, at t = 1], and \
                     t = 0 is the weakest end; the first must be lower"
                );
            }
        }
        if !(p.max_gap.is_finite() && p.max_gap > 0.0) {
            config_err!("{origin}: key `plan.max_gap`: must be a positive number of Elo");
        }
        if p.games_per_pairing < 2 || !p.games_per_pairing.is_multiple_of(2) {
            config_err!("{origin}: key `plan.games_per_pairing`: must be even and at least 2");
        }
        if p.opponents_per_setting == 0 {
            config_err!("{origin}: key `plan.opponents_per_setting`: must be at least 1");
        }
        if p.batch_settings == 0 {
            config_err!("{origin}: key `plan.batch_settings`: must be at least 1");
        }
        if (1..4).contains(&p.stop_after_sweep) {
            config_err!(
                "{origin}: key `plan.stop_after_sweep`: {} must be 0 (every pairing plays its \
                 count) or at least 4 (fewer stop pairings between near equals)",
                p.stop_after_sweep
            );
        }
        if !p.pool_games.is_multiple_of(2) {
            config_err!(
                "{origin}: key `plan.pool_games`: {} is odd; must be even (games come in \
                 colour-swapped pairs, as `plan.games_per_pairing`)",
                p.pool_games
            );
        }
        Ok(())
    }

    /// Every name in `verify.also_against` is a pool member that rates (not retired);
    /// `what` names where the list came from (a config key or a flag).
    pub fn check_also_against(&self, what: &str) -> Result<()> {
        for name in &self.verify.also_against {
            if !self.pool.members.iter().any(|m| &m.name == name) {
                let known: Vec<&str> = self.pool.members.iter().map(|m| m.name.as_str()).collect();
                config_err!(
                    "{what}: `{name}` is not a member of the pool (members: {})",
                    known.join(", ")
                );
            }
        }
        Ok(())
    }

    /// The checks of the `[pool]` members, wherever they came from.
    pub(crate) fn validate_pool(&self, origin: &str) -> Result<()> {
        if self.pool.members.is_empty() {
            config_err!("{origin}: key `pool.member`: the reference pool is empty");
        }
        self.pool.validate_members(origin)
    }
}
