//! The match configuration: the TOML schema, its validation, and the engine specs
//! (`builtin:Key=Value,...` or a command) that the CLI flags also use.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::engine_config::resolve_table_option;
pub use super::engine_config::{is_builtin_command, EngineConfig};
use super::error::{config_bail, ArenaError, IoContext, Result};
use super::time_control::GoLimits;
pub use super::uci_option::UciOptions;
use crate::rating::{EloScale, RatingSection};

/// Where the default opening book lives, relative to the repository root.
pub const DEFAULT_BOOK: &str = "configs/books/2moves_v1.epd";

/// The most games one match plays: its schedule is built whole when it starts (a 10-million-game
/// one took 2 GB before its first game), and the u32 product of rounds and games per opening
/// wrapped to a match of 0 games. An SPRT stops long before; a longer run splits into folders.
pub const MAX_MATCH_GAMES: u64 = 1_000_000;

/// One match: engines, limits, openings, pairing, adjudication, seed.
///
/// Deserialized from TOML (see the module documentation of [`crate::arena`] for an example)
/// or built in code (`MatchConfig { engines, ..Default::default() }`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MatchConfig {
    /// PGN `Event` tag.
    pub event: String,
    /// The engines; names must be unique.
    pub engines: Vec<EngineConfig>,
    /// `gauntlet` (first engine against each of the rest) or `round_robin`.
    pub pairing: Pairing,
    /// Openings per pairing; each is played `games_per_opening` times.
    pub rounds: u32,
    /// 2 = each opening twice with colours swapped (a game pair); 1 = once.
    pub games_per_opening: u32,
    /// Optional cap on games per pairing (the last pair may be cut short).
    pub games: Option<u32>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Seed for opening order and the per-game seeds.
    pub seed: u64,
    /// Default limits for every engine; an engine's own `limits` override field by field.
    pub limits: GoLimits,
    pub openings: OpeningsConfig,
    pub adjudication: AdjudicationConfig,
    pub timeouts: Timeouts,
    /// Print a results summary every N finished games (0: only at the end).
    pub summary_every: u32,
    /// Path of the `skillcal` binary used for `builtin` engines (else $SKILLCAL_BIN, else
    /// this executable).
    pub skillcal_bin: Option<PathBuf>,
    /// Stop early by a sequential test of the first engine against the second.
    pub sprt: Option<SprtConfig>,
    /// A pairing one engine has won every game of, this many games in, plays no more
    /// (0 or absent: every pairing plays its count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_after_sweep: Option<u32>,
    /// `[rating]`: anchors and the scale's name for reports (says nothing about the games).
    pub rating: Option<RatingSection>,
}

/// `[sprt]`: fishtest's generalized SPRT on the opening pairs of a two-engine match, H0: the
/// first engine is `elo0` stronger than the second, against H1: `elo1`. The match stops (games
/// under way finish) once the log-likelihood ratio leaves (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// `logistic` (the default) or `normalized` (fishtest's normalized Elo).
    #[serde(default)]
    pub model: EloScale,
}

impl SprtConfig {
    /// The test with the default error rates, as `--sprt ELO0,ELO1` gives it.
    pub fn new(elo0: f64, elo1: f64) -> SprtConfig {
        SprtConfig {
            elo0,
            elo1,
            alpha: default_error_rate(),
            beta: default_error_rate(),
            model: EloScale::Logistic,
        }
    }
}

fn default_error_rate() -> f64 {
    0.05
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            event: "skillcal match".into(),
            engines: Vec::new(),
            pairing: Pairing::Gauntlet,
            rounds: 1,
            games_per_opening: 2,
            games: None,
            concurrency: 1,
            seed: 1,
            limits: GoLimits::default(),
            openings: OpeningsConfig::default(),
            adjudication: AdjudicationConfig::default(),
            timeouts: Timeouts::default(),
            summary_every: 50,
            skillcal_bin: None,
            sprt: None,
            stop_after_sweep: None,
            rating: None,
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    #[default]
    Gauntlet,
    RoundRobin,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum BookOrder {
    Sequential,
    #[default]
    Random,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BookFormat {
    Epd,
    Pgn,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct OpeningsConfig {
    /// EPD or PGN file; default `configs/books/2moves_v1.epd`.
    pub file: Option<PathBuf>,
    /// `epd` or `pgn`; default from the file's extension.
    pub format: Option<BookFormat>,
    /// `sequential` or `random` (a permutation of the book drawn from the match seed).
    pub order: BookOrder,
    /// Keep at most this many plies of each PGN opening.
    pub plies: Option<u32>,
    /// Index (0-based) into the book order of the first round's opening.
    pub start: usize,
}

/// Adjudication rules; each is off unless given.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct AdjudicationConfig {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// The game is drawn (termination `max_plies`) when it reaches this many plies.
    pub max_plies: Option<u32>,
}

impl AdjudicationConfig {
    /// Checks the rules; errors start with `key` (`adjudication`).
    pub fn check(&self, key: &str) -> Result<()> {
        if let Some(r) = &self.resign {
            if r.score_cp <= 0 || r.moves == 0 {
                config_bail!("{key}.resign: score_cp and moves must be positive");
            }
        }
        if let Some(d) = &self.draw {
            if d.score_cp < 0 || d.moves == 0 {
                config_bail!("{key}.draw: score_cp must be >= 0 and moves positive");
            }
        }
        if self.max_plies == Some(0) {
            config_bail!("{key}.max_plies: must be positive");
        }
        Ok(())
    }
}

/// Both engines report at least `score_cp` against the loser for `moves` consecutive moves each.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResignRule {
    pub score_cp: i32,
    pub moves: u32,
}

/// From move number `after_move` on, both engines report |score| <= `score_cp` for `moves`
/// consecutive moves each.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DrawRule {
    pub score_cp: i32,
    pub moves: u32,
    #[serde(default)]
    pub after_move: u32,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Timeouts {
    /// `uci` -> `uciok` and `isready` -> `readyok`.
    pub handshake_ms: u64,
    /// Longest wait for `bestmove` when no clock or movetime bounds it (node/depth limits).
    pub stall_ms: u64,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake_ms: 10_000,
            stall_ms: 60_000,
        }
    }
}

impl MatchConfig {
    /// Reads and validates a TOML match config; errors name the file and the key (with line).
    ///
    /// Paths inside the file (the book, `skillcal_bin`, engine commands with a slash, engine
    /// `dir`, `StrengthTable` values) are relative to the file's folder.
    pub fn from_file(path: &Path) -> Result<MatchConfig> {
        let cfg = MatchConfig::read_file(path)?;
        cfg.validate().map_err(|e| ArenaError::file(path, e))?;
        Ok(cfg)
    }

    /// Reads a TOML match config without validating it: for a caller that first lays flags
    /// over it (`skillcal match --config F --engine ...`), then validates what will be played.
    pub fn read_file(path: &Path) -> Result<MatchConfig> {
        let text = crate::fsutil::read_text_capped(path, crate::fsutil::CONFIG_CAP)
            .at("read match config", path)?;
        let mut cfg: MatchConfig = toml::from_str(&text).map_err(|e| ArenaError::file(path, e))?;
        cfg.resolve_paths(path.parent().unwrap_or(Path::new("")));
        Ok(cfg)
    }

    /// Makes the relative paths inside the config relative to `base` instead of the working
    /// directory (`base` itself may be relative: `configs` for `configs/x.toml`).
    pub fn resolve_paths(&mut self, base: &Path) {
        let join = |p: &Path| {
            if p.is_relative() {
                base.join(p)
            } else {
                p.to_path_buf()
            }
        };
        if let Some(f) = &mut self.openings.file {
            *f = join(f);
        }
        if let Some(b) = &mut self.skillcal_bin {
            *b = join(b);
        }
        for e in &mut self.engines {
            if let Some(d) = &mut e.dir {
                *d = join(d);
            }
            for (k, v) in &mut e.options.0 {
                resolve_table_option(k, v, base);
            }
            if let Some(spec) = e.command.strip_prefix("builtin:") {
                // `builtin:StrengthTable=tables/x.csv,...`: the same rule inside the spec
                let parts: Vec<String> = spec
                    .split(',')
                    .map(|part| match part.split_once('=') {
                        Some((k, v)) => {
                            let mut v = v.trim().to_string();
                            resolve_table_option(k, &mut v, base);
                            format!("{k}={v}")
                        }
                        None => part.to_string(),
                    })
                    .collect();
                e.command = format!("builtin:{}", parts.join(","));
            } else if !e.is_builtin()
                && e.command.contains('/')
                && Path::new(&e.command).is_relative()
            {
                e.command = base.join(&e.command).to_string_lossy().into_owned();
            }
        }
    }

    /// Parses and validates TOML text.
    pub fn from_toml_str(text: &str) -> Result<MatchConfig> {
        let cfg: MatchConfig =
            toml::from_str(text).map_err(|e| ArenaError::Config(e.to_string()))?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Names of the engines in config order.
    pub fn engine_names(&self) -> Result<Vec<String>> {
        self.engines.iter().map(|e| e.display_name()).collect()
    }

    /// The limits that apply to engine `i`.
    pub fn engine_limits(&self, i: usize) -> GoLimits {
        self.engines[i].limits.merged_over(&self.limits)
    }

    /// The engine pairs (first plays White in the pair's first game).
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.pairing {
            Pairing::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Pairing::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    /// Games per pairing.
    pub fn games_per_pairing(&self) -> u32 {
        let full = self.rounds.saturating_mul(self.games_per_opening);
        self.games.map_or(full, |g| g.min(full))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_errors_name_the_key() {
        let text = r#"
            rounds = 2
            [limits]
            nodes = 1000
            [[engines]]
            command = "/usr/games/stockfish"
            options = { "Skill Level" = 2, Hash = 16 }
            [[engines]]
            command = "/usr/games/stockfish"
            limits = { tc = "fast" }
        "#;
        let err = format!("{:#}", MatchConfig::from_toml_str(text).unwrap_err());
        assert!(err.contains("engines[1].limits.tc"), "{err}");
        let dup = text
            .replace("tc = \"fast\"", "nodes = 5")
            .replace("options = { \"Skill Level\" = 2, Hash = 16 }", "");
        let err = format!("{:#}", MatchConfig::from_toml_str(&dup).unwrap_err());
        assert!(err.contains("engines[1].name"), "{err}");
        let shared = text.replace("nodes = 1000", "tc = \"10+x\"");
        let err = format!("{:#}", MatchConfig::from_toml_str(&shared).unwrap_err());
        assert!(err.starts_with("limits.tc"), "{err}");
        let typo = "roundz = 3\n";
        let err = format!("{:#}", MatchConfig::from_toml_str(typo).unwrap_err());
        assert!(err.contains("roundz"), "{err}");
    }

    /// A u32 product of rounds and games per opening wrapped to 0 games (a match "done" at
    /// once); 10 million rounds took 2 GB before the first game.
    #[test]
    fn a_match_of_too_many_games_is_refused() {
        let text = |rounds: u64| {
            format!(
                "rounds = {rounds}\n[limits]\nnodes = 10\n[[engines]]\ncommand = \"builtin\"\n\
                 [[engines]]\nname = \"b\"\ncommand = \"builtin\"\n"
            )
        };
        for rounds in [2_147_483_648, 10_000_000, 500_001] {
            let err = format!(
                "{:#}",
                MatchConfig::from_toml_str(&text(rounds)).unwrap_err()
            );
            assert!(
                err.starts_with("rounds:") && err.contains("at most 1000000"),
                "{err}"
            );
        }
        let cfg = MatchConfig::from_toml_str(&text(500_000)).unwrap();
        assert_eq!(cfg.games_per_pairing(), 1_000_000);
    }

    /// Names that break the PGN tags or games.csv (`rate` and `report` then refused the match's
    /// own files), options given twice, and a built-in engine labelled with a UCI_Elo it would
    /// not play.
    #[test]
    fn names_and_options_that_mislead_are_refused() {
        let base = "[limits]\nnodes = 10\n[[engines]]\nname = \"a\"\ncommand = \"builtin\"\n";
        let second = |name: &str, command: &str| {
            format!("{base}[[engines]]\nname = {name:?}\ncommand = {command:?}\n")
        };
        for name in ["", "  ", " b", "a\nb", "say \"hi\"", "back\\slash"] {
            let err = format!(
                "{:#}",
                MatchConfig::from_toml_str(&second(name, "builtin")).unwrap_err()
            );
            assert!(
                err.contains("engines[1].name") && err.contains("cannot name"),
                "{err}"
            );
        }
        assert!(MatchConfig::from_toml_str(&second("Skill 3 (SF 15.1)", "builtin")).is_ok());
        let err = format!(
            "{:#}",
            MatchConfig::from_toml_str(&second("b", "builtin:Hash=16,hash=32")).unwrap_err()
        );
        assert!(err.contains("option hash is given twice"), "{err}");
        let err = format!(
            "{:#}",
            MatchConfig::from_toml_str(&second("b", "builtin:UCI_Elo=1500")).unwrap_err()
        );
        assert!(err.contains("without UCI_LimitStrength=true"), "{err}");
        let limited = second("b", "builtin:UCI_LimitStrength=true,UCI_Elo=1500");
        assert!(MatchConfig::from_toml_str(&limited).is_ok());
        let seeded = second("b", "builtin:Seed=5").replace(
            "command = \"builtin:Seed=5\"",
            "command = \"builtin:Seed=5\"\nseed_option = \"seed\"",
        );
        let err = format!("{:#}", MatchConfig::from_toml_str(&seeded).unwrap_err());
        assert!(
            err.contains("engines[1].seed_option: seed is set in the options too"),
            "{err}"
        );
    }

    #[test]
    fn toml_options_keep_values() {
        let text = r#"
            [limits]
            nodes = 1000
            [[engines]]
            command = "builtin:LimitNodes=500"
            [[engines]]
            name = "sf"
            command = "stockfish"
            options = { "Skill Level" = 2, Ponder = false }
        "#;
        let cfg = MatchConfig::from_toml_str(text).unwrap();
        assert_eq!(
            cfg.engines[1].settings_string().unwrap(),
            "Ponder=false;Skill Level=2"
        );
        assert_eq!(
            cfg.engine_names().unwrap(),
            vec!["skillcal[LimitNodes=500]", "sf"]
        );
        assert_eq!(cfg.games_per_pairing(), 2);
    }
}
