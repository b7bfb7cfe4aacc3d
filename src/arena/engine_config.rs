//! One engine of a match: its command (or `builtin[:Key=Value,...]`), options, limits and
//! name, and the checks that need no engine process.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::{config_bail, Result};
use super::time_control::GoLimits;
use super::uci_option::UciOptions;

/// A command line as a shell would split it (quotes and backslashes, no expansion): the
/// program and its arguments, so `"gnuchess --uci"` or `"lc0 --weights='my net.pb.gz'"` names
/// an engine with its arguments wherever one is named.
pub fn split_command_line(line: &str) -> std::result::Result<(String, Vec<String>), String> {
    let words = shlex::split(line)
        .ok_or_else(|| format!("'{line}': unbalanced quotes or a trailing backslash"))?;
    let mut words = words.into_iter();
    let program = words
        .next()
        .ok_or_else(|| format!("'{line}': no program named"))?;
    Ok((program, words.collect()))
}

/// An engine: a command (or `builtin[:Key=Value,...]`), its arguments, directory and options.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Unique name in the match; made from the command and options when absent.
    pub name: Option<String>,
    /// Executable path or name (searched on PATH and /usr/games), or `builtin[:K=V,...]`.
    pub command: String,
    pub args: Vec<String>,
    /// Working directory of the engine process.
    pub dir: Option<PathBuf>,
    /// UCI options sent with `setoption` after `uciok`.
    pub options: UciOptions,
    /// Overrides of the match's default limits.
    pub limits: GoLimits,
    /// UCI option that receives each game's seed before the game. Default: `Seed` or
    /// `RandomSeed` when the engine offers it (and the config does not set it); "" = never.
    /// A named option must be one the engine declares, of type spin (the seed is mapped into
    /// its range from 1 up) or string (the seed as it is); anything else fails the preflight,
    /// as does an engine that does not answer `isready` after the least or the greatest value
    /// a seed can give the option.
    pub seed_option: Option<String>,
    /// The `id name` the engine must answer `uci` with, checked before any game: for an engine
    /// whose results hold for one build (a pool member's rating).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_name: Option<String>,
}

impl EngineConfig {
    /// Parses a CLI engine spec: `builtin`, `builtin:K=V,K=V`, `COMMAND` or `COMMAND:K=V,...`,
    /// where COMMAND may carry arguments (`"gnuchess --uci:Hash=16"`).
    pub fn from_spec(spec: &str) -> Result<EngineConfig> {
        let (command, opts) = match spec.split_once(':') {
            Some((c, o)) => (c, o),
            None => (spec, ""),
        };
        if command.is_empty() {
            config_bail!("engine spec '{spec}': missing command");
        }
        // the command is a command line: a program and its arguments, quoted as a shell would
        let (command, args) = match split_command_line(command) {
            Ok(words) => words,
            Err(e) => config_bail!("engine spec '{spec}': {e}"),
        };
        let mut options = Vec::new();
        for pair in opts.split(',').filter(|p| !p.trim().is_empty()) {
            let Some((k, v)) = pair.split_once('=') else {
                config_bail!("engine spec '{spec}': '{pair}' is not Key=Value");
            };
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(EngineConfig {
            command,
            args,
            options: UciOptions::from(options),
            ..Default::default()
        })
    }

    /// True for the built-in engine (`builtin` or `builtin:...`).
    pub fn is_builtin(&self) -> bool {
        is_builtin_command(&self.command)
    }

    /// Options from `builtin:K=V,...` in `command` followed by the `options` table, in the
    /// order written: the order `setoption` sends them.
    pub fn all_options(&self) -> Result<Vec<(String, String)>> {
        let mut out = self.spec_options()?;
        out.extend(self.options.0.iter().cloned());
        Ok(out)
    }

    /// The options of `builtin:K=V,...` in `command`, as written.
    fn spec_options(&self) -> Result<Vec<(String, String)>> {
        Ok(match self.command.strip_prefix("builtin:") {
            Some(rest) => {
                EngineConfig::from_spec(&format!("builtin:{rest}"))?
                    .options
                    .0
            }
            None => Vec::new(),
        })
    }

    /// The options that name the engine: the command's as written, then the table's (sorted
    /// when read from TOML: see [`UciOptions::for_name`]).
    fn identity_options(&self) -> Result<Vec<(String, String)>> {
        let mut out = self.spec_options()?;
        out.extend(self.options.for_name());
        Ok(out)
    }

    /// The name given, or a readable one from the command and options,
    /// e.g. `skillcal[ScoreInaccuracy=50,LimitNodes=20000]`.
    pub fn display_name(&self) -> Result<String> {
        if let Some(n) = &self.name {
            return Ok(n.clone());
        }
        let base = if self.is_builtin() {
            "skillcal".to_string()
        } else {
            Path::new(&self.command)
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.command.clone())
        };
        // the arguments tell engines of one program apart (`lc0 --weights=...`); quotes and
        // backslashes would break the name's PGN tag, so a word with them stays out
        let base = std::iter::once(base)
            .chain(
                self.args
                    .iter()
                    .filter(|a| !a.chars().any(|c| c == '"' || c == '\\' || c.is_control()))
                    .cloned(),
            )
            .collect::<Vec<_>>()
            .join(" ");
        let opts = self.identity_options()?;
        if opts.is_empty() {
            Ok(base)
        } else {
            let list: Vec<String> = opts.iter().map(|(k, v)| format!("{k}={v}")).collect();
            Ok(format!("{base}[{}]", list.join(",")))
        }
    }

    /// What can be checked without starting the engine; `key` is its config key
    /// (`engines[1]`), `name` its display name.
    pub fn check(&self, key: &str, name: &str) -> Result<()> {
        // the name is a PGN tag value and a games.csv field, read back by `rate`/`report`
        if name.trim().is_empty()
            || name.trim() != name
            || name
                .chars()
                .any(|c| c.is_control() || c == '"' || c == '\\')
        {
            config_bail!(
                "{key}.name: {name:?} cannot name a player (empty, surrounding spaces, a \
                 control character, '\"' or '\\' would break the PGN tags and games.csv)"
            );
        }
        let options = self
            .all_options()
            .map_err(|err| err.context(format!("{key}.command")))?;
        for (n, (k, _)) in options.iter().enumerate() {
            if options[..n].iter().any(|(j, _)| j.eq_ignore_ascii_case(k)) {
                config_bail!("{key}: option {k} is given twice (in the command or options)");
            }
        }
        if let Some(so) = self.seed_option.as_deref().filter(|s| !s.is_empty()) {
            if options.iter().any(|(k, _)| k.eq_ignore_ascii_case(so)) {
                config_bail!(
                    "{key}.seed_option: {so} is set in the options too, and each game's seed \
                     would replace that value; drop one of the two"
                );
            }
        }
        // the built-in engine, as Stockfish, ignores UCI_Elo unless UCI_LimitStrength is on:
        // the games would be played at full strength under a label saying otherwise
        let set = |name: &str| {
            options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_ascii_lowercase())
        };
        if self.is_builtin()
            && set(crate::strength::UCI_ELO).is_some()
            && set(crate::strength::UCI_LIMIT_STRENGTH).as_deref() != Some("true")
        {
            config_bail!(
                "{key}: UCI_Elo has no effect without UCI_LimitStrength=true (the engine \
                 would play at full strength); add UCI_LimitStrength=true"
            );
        }
        Ok(())
    }

    /// `Key=Value;Key=Value` as written to games.csv.
    pub fn settings_string(&self) -> Result<String> {
        let opts = self.identity_options()?;
        let list: Vec<String> = opts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        Ok(list.join(";"))
    }
}

/// A `StrengthTable` value naming a file, made relative to `base`.
pub(crate) fn resolve_table_option(key: &str, value: &mut String, base: &Path) {
    let v = value.trim();
    if key
        .trim()
        .eq_ignore_ascii_case(crate::strength::STRENGTH_TABLE)
        && !v.is_empty()
        && v != crate::strength::EMBEDDED_NAME
        && Path::new(v).is_relative()
    {
        *value = base.join(v).to_string_lossy().into_owned();
    }
}

/// True for an engine command naming the built-in engine (`builtin` or `builtin:...`).
pub fn is_builtin_command(command: &str) -> bool {
    command == "builtin" || command.starts_with("builtin:")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_specs_and_names() {
        let e = EngineConfig::from_spec("builtin:ScoreInaccuracy=50,LimitNodes=20000").unwrap();
        assert!(e.is_builtin());
        assert_eq!(
            e.display_name().unwrap(),
            "skillcal[ScoreInaccuracy=50,LimitNodes=20000]"
        );
        assert_eq!(
            e.settings_string().unwrap(),
            "ScoreInaccuracy=50;LimitNodes=20000"
        );
        let e = EngineConfig {
            command: "builtin:Hash=8".into(),
            ..Default::default()
        };
        assert_eq!(e.all_options().unwrap(), vec![("Hash".into(), "8".into())]);
        assert!(EngineConfig::from_spec("builtin:Foo").is_err());
        let sf = EngineConfig::from_spec("/usr/games/stockfish:Skill Level=3").unwrap();
        assert_eq!(sf.display_name().unwrap(), "stockfish[Skill Level=3]");
    }
}
