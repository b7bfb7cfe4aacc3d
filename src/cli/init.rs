//! `skillcal init --engine CMD`: a commented calibration config for a UCI engine, written from
//! the options it declares. The strength path follows what the engine offers: its `UCI_Elo`
//! (with `UCI_LimitStrength`), else a `Skill Level`, else the `go nodes` limit. The measured
//! reference pool and the default book are built into the binary and written out beside the
//! config, so an installed `skillcal` calibrates from any folder.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::arena::{OptionDecl, OptionKind};

/// The shipped pool (`results/pool`, measured by `skillcal pool configs/pool.toml`) and the
/// default book, as a calibration config loads them.
const POOL_FILES: [(&str, &[u8]); 6] = [
    ("pool.toml", include_bytes!("../../results/pool/pool.toml")),
    (
        "pool-pairs.csv",
        include_bytes!("../../results/pool/pool-pairs.csv"),
    ),
    ("pool.csv", include_bytes!("../../results/pool/pool.csv")),
    (
        "pool-covariance.csv",
        include_bytes!("../../results/pool/pool-covariance.csv"),
    ),
    (
        "human-scale.csv",
        include_bytes!("../../results/pool/human-scale.csv"),
    ),
    (BOOK, include_bytes!("../../configs/books/2moves_v1.epd")),
];
const BOOK: &str = "2moves_v1.epd";
/// The folder, beside the config, the pool and the book are written to.
const POOL_DIR: &str = "skillcal-pool";
/// How long an engine may take to answer `uci` with `uciok`.
const HANDSHAKE: Duration = Duration::from_secs(10);

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal init --engine fairy-stockfish --out fairy.toml\n  \
                        skillcal calibrate fairy.toml --out fairy-run"
)]
pub struct InitArgs {
    /// The engine: a program on PATH (or /usr/games) or a path.
    #[arg(long)]
    engine: String,
    /// The config to write.
    #[arg(long, default_value = "calibration.toml")]
    out: PathBuf,
}

/// What the engine said after `uci`.
struct Declared {
    name: Option<String>,
    options: Vec<OptionDecl>,
}

/// Starts the engine and reads its `id name` and options up to `uciok`.
fn probe(engine: &str) -> Result<(PathBuf, Declared)> {
    let program = crate::arena::find_program(engine)
        .map_err(|e| anyhow::anyhow!("--engine {engine}: {e}"))?;
    let mut child = Command::new(&program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("--engine {engine}: cannot start {}", program.display()))?;
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let _ = writeln!(stdin, "uci").and_then(|_| stdin.flush());
    let mut declared = Declared {
        name: None,
        options: Vec::new(),
    };
    let answered = loop {
        match rx.recv_timeout(HANDSHAKE) {
            Ok(line) if line.trim() == "uciok" => break Ok(()),
            Ok(line) => {
                if let Some(name) = line.trim().strip_prefix("id name ") {
                    declared.name = Some(name.trim().to_string());
                }
                declared.options.extend(OptionDecl::parse(&line));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                break Err(format!("no `uciok` within {} s", HANDSHAKE.as_secs()))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Err("it closed its output before `uciok`".to_string())
            }
        }
    };
    let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
    drop(stdin);
    if answered.is_err() {
        let _ = child.kill();
    }
    let _ = child.wait();
    if let Err(why) = answered {
        bail!(
            "--engine {engine} ({}) does not speak UCI: {why}",
            program.display()
        );
    }
    Ok((program, declared))
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

fn choose_path(d: &[OptionDecl]) -> Strength {
    let mut options = Vec::new();
    for (name, value) in [("Threads", "1"), ("Hash", "16")] {
        if let Some(decl) = OptionDecl::find(d, name) {
            if decl.check(value).is_ok() {
                options.push((decl.name.clone(), value.to_string()));
            }
        }
    }
    let nodes =
        "limits = { nodes = 50000 }   # every setting at the pool's node budget".to_string();
    if let Some((lo, hi)) = spin(d, "Skill Level") {
        return Strength {
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
        };
    }
    if let (Some((lo, hi)), true) = (spin(d, "UCI_Elo"), is_check(d, "UCI_LimitStrength")) {
        options.push(("UCI_LimitStrength".into(), "true".into()));
        let round_up = |x: i64| (x + 99).div_euclid(100) * 100;
        return Strength {
            why: format!(
                "the engine declares UCI_Elo ({lo}..{hi}) and UCI_LimitStrength: its own labels \
                 are calibrated, and the table says where each one plays on the pool's scale"
            ),
            options,
            limits: nodes,
            path: format!("knob = \"UCI_Elo\"\nfrom = {lo}\nto = {hi}"),
            targets: (round_up(lo).max(600), (hi / 100 * 100).min(2800)),
        };
    }
    Strength {
        why: "the engine declares neither UCI_Elo with UCI_LimitStrength nor a Skill Level: it \
              is weakened by the `go nodes` limit, the one knob every UCI engine takes"
            .into(),
        options,
        limits: "# no fixed limits: the path sets `go nodes`".into(),
        path: "limit = \"nodes\"\nfrom = 16\nto = 1000000\nscale = \"log\"".into(),
        targets: (800, 2600),
    }
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

fn config_text(engine: &str, program: &Path, declared: &Declared, p: &Strength) -> String {
    let id = declared.name.clone().unwrap_or_else(|| engine.to_string());
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
concurrency = 2
# total games; the run stops earlier once every target meets its precision goal
budget = 4000
# the goal: each row's 95% interval within +-75 Elo (twice that below the lowest rated member)
precision = 75
# target Elo of the table's rows; targets the path does not reach are flagged, not invented
targets = {{ from = {from}, to = {to}, step = 100 }}

[subject]
command = {command}
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
        program = program.display(),
        name = quoted(if slug.is_empty() { "engine" } else { &slug }),
        command = quoted(&program.display().to_string()),
        options = options.join(", "),
        limits = p.limits,
        why = comment(&format!("The strength path, chosen because {}.", p.why)),
        path = p.path,
    )
}

/// Writes the pool and the book into `dir`, leaving files already there as they are when they
/// hold the same bytes.
fn write_pool(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, bytes) in POOL_FILES {
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(old) if old == bytes => continue,
            Ok(_) => bail!(
                "{} exists with other content: move it away (init writes the shipped pool there)",
                path.display()
            ),
            Err(_) => std::fs::write(&path, bytes)
                .with_context(|| format!("cannot write {}", path.display()))?,
        }
    }
    Ok(())
}

pub fn run(a: &InitArgs) -> Result<()> {
    if a.out.exists() {
        bail!(
            "--out {}: exists; give another name or move it away",
            a.out.display()
        );
    }
    let (program, declared) = probe(&a.engine)?;
    let p = choose_path(&declared.options);
    let base = a.out.parent().unwrap_or(Path::new(""));
    write_pool(&base.join(POOL_DIR))?;
    let text = config_text(&a.engine, &program, &declared, &p);
    std::fs::write(&a.out, &text).with_context(|| format!("cannot write {}", a.out.display()))?;
    // the written config loads as `calibrate` will load it
    crate::calibrate::config::CalibrationConfig::load(&a.out)
        .with_context(|| format!("{}: the config written does not load", a.out.display()))?;
    outln!("wrote {} ({})", a.out.display(), p.why);
    outln!(
        "wrote {}/ (the reference pool and the book)",
        base.join(POOL_DIR).display()
    );
    outln!("next: skillcal calibrate {} --out run", a.out.display());
    Ok(())
}
