//! The config `skillcal init` writes for a UCI engine, from what the engine declares after `uci`
//! (the CLI starts the engine; this room turns its declarations into a commented calibration
//! config). The strength path follows what the engine offers: its `UCI_Elo` (with
//! `UCI_LimitStrength`), else a `Skill Level`, else the `go nodes` limit. The measured reference
//! pool and the default book are built into the binary and written out beside the config, so an
//! installed `skillcal` calibrates from any folder.

use std::path::{Path, PathBuf};

use crate::arena::{Declared, NodeLimit, OptionDecl, OptionKind, TimeControl};
use crate::calibrate::error::{CalibrateError, Result};

/// The measured pool and the default book a calibration config loads, carried in the binary so
/// `init` writes a runnable config outside the repository.
const POOL_FILES: [(&str, &[u8]); 6] = [
    (
        "pool.toml",
        include_bytes!("../../../results/pool/pool.toml"),
    ),
    (
        "pool-pairs.csv",
        include_bytes!("../../../results/pool/pool-pairs.csv"),
    ),
    ("pool.csv", include_bytes!("../../../results/pool/pool.csv")),
    (
        "pool-covariance.csv",
        include_bytes!("../../../results/pool/pool-covariance.csv"),
    ),
    (
        "human-scale.csv",
        include_bytes!("../../../results/pool/human-scale.csv"),
    ),
    (BOOK, include_bytes!("../../../configs/books/2moves_v1.epd")),
];
const BOOK: &str = "2moves_v1.epd";
/// The folder, beside the config, the pool and the book are written to.
const POOL_DIR: &str = "skillcal-pool";

/// The engine as the user named it: the program found and its arguments.
#[derive(Clone, Debug)]
pub struct EngineLine {
    /// What was typed after `--engine`, quoted in the config's first line.
    pub written: String,
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// The limit every setting of a knob path plays at: the table holds at it, and a GUI's clock
/// is another condition (`skillcal tc-check` measures what a clock changes).
#[derive(Clone, Debug, PartialEq)]
pub enum TableLimit {
    /// `go nodes N` every move: the same strength on any machine and at any load.
    Nodes(u64),
    /// A clock, `base+inc` in seconds (`10+0.1`): as a GUI gives it, but what the engine
    /// reaches in that time depends on the machine.
    Clock(String),
}

impl TableLimit {
    /// The pool's node budget: its members were measured at 50,000 nodes a move.
    pub const POOL_NODES: u64 = 50_000;

    /// Parses `nodes=N` (N at least 1) or `tc=BASE+INC`.
    pub fn parse(s: &str) -> std::result::Result<TableLimit, String> {
        let expected = || format!("'{s}': expected nodes=N or tc=BASE+INC (seconds, as 10+0.1)");
        let (k, v) = s.split_once('=').ok_or_else(expected)?;
        let v = v.trim();
        match k.trim() {
            "nodes" => match v.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(TableLimit::Nodes(n)),
                _ => Err(format!(
                    "'{s}': the node count must be a whole number of at least 1"
                )),
            },
            "tc" => TimeControl::parse(v)
                .map(|_| TableLimit::Clock(v.to_string()))
                .map_err(|e| format!("'{s}': {e}")),
            _ => Err(expected()),
        }
    }

    /// The `[subject]` line and its comment.
    fn line(&self) -> String {
        match self {
            TableLimit::Nodes(n) => format!(
                "# every setting plays at {n} nodes a move (the pool's members at {pool}): the\n\
                 # table holds at this limit; at a GUI's clock the same setting may play\n\
                 # stronger or weaker (`skillcal tc-check` measures it; `init --limit tc=10+0.1`\n\
                 # calibrates at a clock)\nlimits = {{ nodes = {n} }}",
                pool = TableLimit::POOL_NODES
            ),
            TableLimit::Clock(tc) => format!(
                "# every setting plays on a clock of {tc} (seconds, base+increment): the table\n\
                 # holds at this clock on this machine; another clock or a slower machine moves\n\
                 # the rows (`skillcal tc-check` measures it)\nlimits = {{ tc = {} }}",
                quoted(tc)
            ),
        }
    }
}

/// What `init` was asked for beside the engine.
#[derive(Clone, Debug)]
pub struct StarterOptions {
    /// The limit of a knob path (`None`: the pool's node budget). A node path is its own limit.
    pub limit: Option<TableLimit>,
    /// Games played at once.
    pub concurrency: usize,
}

/// The spin range of option `name`, if the engine declares it as a spin.
fn spin(declared: &[OptionDecl], name: &str) -> Option<(i64, i64)> {
    OptionDecl::find(declared, name).and_then(OptionDecl::spin_range)
}

fn is_check(declared: &[OptionDecl], name: &str) -> bool {
    OptionDecl::find(declared, name).is_some_and(|d| matches!(d.kind, OptionKind::Check { .. }))
}

/// The `[subject]` options, the `[[path]]` table, the targets, and the comment saying why.
struct Strength {
    why: String,
    options: Vec<(String, String)>,
    limits: String,
    path: String,
    targets: (i64, i64),
}

fn choose_path(declared: &Declared, limit: Option<&TableLimit>) -> Result<Strength> {
    let d = &declared.options[..];
    let mut options = Vec::new();
    // one thread and a small hash as the pool's members play; an engine's own opening book
    // would play the book's moves instead of the weakened search and of the run's openings
    for (name, value) in [("Threads", "1"), ("Hash", "16"), ("OwnBook", "false")] {
        if let Some(decl) = OptionDecl::find(d, name) {
            if decl.check(value).is_ok() {
                options.push((decl.name.clone(), value.to_string()));
            }
        }
    }
    let nodes = limit
        .cloned()
        .unwrap_or(TableLimit::Nodes(TableLimit::POOL_NODES))
        .line();
    if let Some((lo, hi)) = spin(d, "Skill Level") {
        return Ok(Strength {
            why: format!(
                "the engine declares a Skill Level ({lo}..{hi}), the knob its strength settings \
                 move{}: the table maps each target Elo to a Skill Level",
                match spin(d, "UCI_Elo") {
                    Some((a, b)) if is_check(d, "UCI_LimitStrength") => format!(
                        " (its UCI_Elo, {a}..{b}, is a narrower label over it; to calibrate \
                         those labels instead, use the path in the comment below)"
                    ),
                    _ => String::new(),
                }
            ),
            options,
            limits: nodes,
            path: format!(
                "knob = \"Skill Level\"\nfrom = {lo}\nto = {hi}{}",
                match spin(d, "UCI_Elo") {
                    Some((a, b)) if is_check(d, "UCI_LimitStrength") => format!(
                        "\n# or its UCI_Elo labels (add UCI_LimitStrength = true to [subject] \
                         options):\n# knob = \"UCI_Elo\"\n# from = {a}\n# to = {b}"
                    ),
                    _ => String::new(),
                }
            ),
            targets: (600, 2800),
        });
    }
    if let (Some((lo, hi)), true) = (spin(d, "UCI_Elo"), is_check(d, "UCI_LimitStrength")) {
        options.push(("UCI_LimitStrength".into(), "true".into()));
        let round_up = |x: i64| (x + 99).div_euclid(100) * 100;
        return Ok(Strength {
            why: format!(
                "the engine declares UCI_Elo ({lo}..{hi}) and UCI_LimitStrength: its own labels \
                 are calibrated, and the table says where each one plays on the pool's scale"
            ),
            options,
            limits: nodes,
            path: format!("knob = \"UCI_Elo\"\nfrom = {lo}\nto = {hi}"),
            targets: (round_up(lo).max(600), (hi / 100 * 100).min(2800)),
        });
    }
    if let Some(l) = limit {
        return Err(CalibrateError::Config(format!(
            "--limit {}: the engine declares neither UCI_Elo nor a Skill Level, so it is \
             weakened by a search limit (`go nodes`, or `go depth` when it ignores the node \
             limit): each row of its table is that limit, and it takes no other",
            match l {
                TableLimit::Nodes(n) => format!("nodes={n}"),
                TableLimit::Clock(tc) => format!("tc={tc}"),
            }
        )));
    }
    if let NodeLimit::Ignored(what) = &declared.node_limit {
        return Ok(Strength {
            why: format!(
                "the engine declares neither UCI_Elo with UCI_LimitStrength nor a Skill Level, and \
                 it ignores the `go nodes` limit ({what}): it is weakened by the `go depth` \
                 limit instead, coarser (each ply is a step) but as independent of the machine"
            ),
            options,
            limits: "# no fixed limits: the path sets `go depth`, so each row of the table is the\n\
                     # search depth to give the engine (`go depth N`); on a GUI's clock the engine\n\
                     # searches as deep as the clock allows, which is another strength"
                .into(),
            path: "limit = \"depth\"\nfrom = 1\nto = 12".into(),
            targets: (800, 2600),
        });
    }
    Ok(Strength {
        why: "the engine declares neither UCI_Elo with UCI_LimitStrength nor a Skill Level: it \
              is weakened by the `go nodes` limit, the one knob every UCI engine takes"
            .into(),
        options,
        limits: "# no fixed limits: the path sets `go nodes`, so each row of the table is the\n\
                 # node count to give the engine (`go nodes N`); on a GUI's clock the engine\n\
                 # searches as many nodes as the clock allows, which is another strength"
            .into(),
        path: "limit = \"nodes\"\nfrom = 16\nto = 1000000\nscale = \"log\"".into(),
        targets: (800, 2600),
    })
}

/// `text` as `#` comment lines of at most 100 characters.
fn comment(text: &str) -> String {
    let mut lines = vec![String::from("#")];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("one line at least");
        if last.len() + 1 + word.len() > 100 && last.len() > 1 {
            lines.push(format!("# {word}"));
        } else {
            last.push(' ');
            last.push_str(word);
        }
    }
    lines.join("\n")
}

/// A TOML string (basic string, escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML key: bare when it can be, else quoted (`"Skill Level"`).
fn key(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        s.to_string()
    } else {
        quoted(s)
    }
}

fn config_text(
    engine: &EngineLine,
    declared: &Declared,
    p: &Strength,
    concurrency: usize,
) -> String {
    let id = declared
        .id_name
        .clone()
        .unwrap_or_else(|| engine.written.clone());
    let slug: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let options: Vec<String> = p
        .options
        .iter()
        .map(|(k, v)| {
            let value = match v.as_str() {
                "true" | "false" => v.clone(),
                _ if v.parse::<i64>().is_ok() => v.clone(),
                _ => quoted(v),
            };
            format!("{} = {value}", key(k))
        })
        .collect();
    let (from, to) = p.targets;
    format!(
        r#"# Calibration of {id} ({program}), written by `skillcal init --engine {engine}`.
# Run it:    skillcal calibrate THIS_FILE --out run
# Every key: docs/reference/config.md (in the skillcal repository).

name = {name}
# every random choice (openings, plan tie-breaks) follows this seed
seed = 1
# games played at once: at most the machine's cores
concurrency = {concurrency}
# total games; the run stops earlier once every target meets its precision goal
budget = 4000
# the goal: each row's 95% interval within +-75 Elo (twice that below the lowest rated member)
precision = 75
# target Elo of the table's rows; targets the path does not reach are flagged, not invented
targets = {{ from = {from}, to = {to}, step = 100 }}

[subject]
command = {command}{args}
options = {{ {options} }}
{limits}

{why}
[[path]]
{path}

# The curve through the tested settings: a natural cubic spline, its knots where the settings
# were played. An engine's strength is rarely even in its knob (Fairy-Stockfish's Skill Levels
# -20 to -8 play within about 300 Elo of each other, -6 to 10 span about 1,800: a straight line
# missed its tested settings by up to 660 Elo); a spline that is not increasing or does not
# converge gives way to the increasing form, of the other knot counts, the polynomials and the
# monotone form (increasing by construction, for a flat stretch such as Skill -20 to -5), that
# fits the tested settings best, each rated on its own (the report names it).
[fit]
model = "spline"
knots = 6
knots_at = "data"

# The first batch meets an engine of unknown strength with opponents over the whole scale: a
# pairing one side has won all of, 8 games in, stops there (it says only that the gap is large,
# and its further games would tell the fit little); the planner's later pairings are close.
[plan]
stop_after_sweep = 8

# The reference pool, measured once (Stockfish 15.1 Skill 0-10, Fairy-Stockfish 11.1 Skill 0 to
# -12, and Maia-1 1100/1500/1900 played by skillcal's built-in engine): its members' ratings
# and games, written beside this file by `skillcal init`. Its engines are /usr/games/stockfish
# and /usr/games/fairy-stockfish (Debian's packages) and skillcal itself.
[pool]
file = "{POOL_DIR}"

[openings]
file = "{POOL_DIR}/{BOOK}"
order = "random"

# decided games end early; long quiet games are drawn
[adjudication]
resign = {{ score_cp = 700, moves = 4 }}
draw = {{ score_cp = 10, moves = 8, after_move = 40 }}
max_plies = 400
"#,
        program = engine.program.display(),
        engine = if engine.written.contains(char::is_whitespace) {
            format!("\"{}\"", engine.written)
        } else {
            engine.written.clone()
        },
        args = if engine.args.is_empty() {
            String::new()
        } else {
            let args: Vec<String> = engine.args.iter().map(|a| quoted(a)).collect();
            format!("\nargs = [{}]", args.join(", "))
        },
        name = quoted(if slug.is_empty() { "engine" } else { &slug }),
        command = quoted(&engine.program.display().to_string()),
        options = options.join(", "),
        limits = p.limits,
        why = comment(&format!("The strength path, chosen because {}.", p.why)),
        path = p.path,
    )
}

/// Writes the pool and the book into `dir`, leaving files already there as they are when they
/// hold the same bytes.
fn write_pool(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| CalibrateError::io("create", dir, e))?;
    for (name, bytes) in POOL_FILES {
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(old) if old == bytes => continue,
            Ok(_) => {
                return Err(CalibrateError::file(
                    &path,
                    "exists with other content: move it away (init writes the shipped pool there)",
                ))
            }
            Err(_) => {
                std::fs::write(&path, bytes).map_err(|e| CalibrateError::io("write", &path, e))?
            }
        }
    }
    Ok(())
}

/// Writes the config for the engine to `out` and the pool and book beside it, and loads the
/// config as `calibrate` will; returns why the strength path was chosen.
pub fn write_starter(
    out: &Path,
    engine: &EngineLine,
    declared: &Declared,
    opts: &StarterOptions,
) -> Result<String> {
    if out.exists() {
        return Err(CalibrateError::file(
            out,
            "exists; give another name or move it away",
        ));
    }
    if opts.concurrency == 0 {
        return Err(CalibrateError::Config(
            "--concurrency 0: at least 1 game at a time".into(),
        ));
    }
    let p = choose_path(declared, opts.limit.as_ref())?;
    let base = out.parent().unwrap_or(Path::new(""));
    write_pool(&base.join(POOL_DIR))?;
    let text = config_text(engine, declared, &p, opts.concurrency);
    std::fs::write(out, &text).map_err(|e| CalibrateError::io("write", out, e))?;
    // the written config loads as `calibrate` will load it
    super::CalibrationConfig::load(out).map_err(|e| {
        e.context(format!(
            "{}: the config written does not load",
            out.display()
        ))
    })?;
    Ok(p.why)
}

/// The folder, beside the config, that [`write_starter`] writes the pool and the book to.
pub fn pool_dir(out: &Path) -> PathBuf {
    out.parent().unwrap_or(Path::new("")).join(POOL_DIR)
}
