//! The one place that talks to an engine: a small synchronous UCI driver (std::process, lines
//! parsed by vampirc-uci). Each position is searched after `ucinewgame`, so with one thread and
//! a node limit the answer depends on the position alone, whichever process gets it.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{bail, Context, Result};
use vampirc_uci::{UciInfoAttribute, UciMessage};

use super::lichess::Score;

/// How long each search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes(u64),
    Depth(u32),
    MoveTime(u64),
}

impl Limit {
    /// Parses `nodes=N`, `depth=N` or `movetime=MS`.
    pub fn parse(s: &str) -> Result<Limit> {
        let (k, v) = s
            .split_once('=')
            .with_context(|| format!("limit '{s}': expected nodes=N, depth=N or movetime=MS"))?;
        let n: u64 = v
            .trim()
            .parse()
            .with_context(|| format!("limit '{s}': '{v}' is not a number"))?;
        Ok(match k.trim() {
            "nodes" => Limit::Nodes(n),
            "depth" => Limit::Depth(n as u32),
            "movetime" => Limit::MoveTime(n),
            _ => bail!("limit '{s}': expected nodes=N, depth=N or movetime=MS"),
        })
    }

    fn go(&self) -> String {
        match self {
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::MoveTime(t) => format!("go movetime {t}"),
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "nodes={n}"),
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::MoveTime(t) => write!(f, "movetime={t}"),
        }
    }
}

/// An engine to start: program, arguments, UCI options, search limit.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub limit: Limit,
}

impl EngineConfig {
    /// Parses `builtin[:K=V,...]` (this skillcal binary, or $SKILLCAL_BIN, speaking UCI) or
    /// `PROGRAM[:K=V,...]` (a path, or a name found on PATH or in /usr/games).
    pub fn parse_spec(spec: &str, limit: Limit) -> Result<EngineConfig> {
        let (cmd, opts) = match spec.split_once(':') {
            Some((c, o)) => (c, o),
            None => (spec, ""),
        };
        let mut options = Vec::new();
        for kv in opts.split(',').filter(|s| !s.trim().is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .with_context(|| format!("engine '{spec}': option '{kv}' is not Name=Value"))?;
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        let (program, args) = if cmd == "builtin" {
            let bin = match std::env::var_os("SKILLCAL_BIN") {
                Some(p) => PathBuf::from(p),
                None => std::env::current_exe().context("cannot locate the skillcal binary")?,
            };
            (bin, vec!["uci".to_string()])
        } else {
            (find_program(cmd)?, Vec::new())
        };
        Ok(EngineConfig {
            program,
            args,
            options,
            limit,
        })
    }

    /// Identity for the evaluation cache: program (with its size, so a replaced binary does not
    /// reuse old answers), arguments and options in order. The limit is a separate key column.
    pub fn identity(&self) -> String {
        let size = std::fs::metadata(&self.program)
            .map(|m| m.len())
            .unwrap_or(0);
        let opts: Vec<String> = self
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!(
            "{}#{size} {}|{}",
            self.program.display(),
            self.args.join(" "),
            opts.join(";")
        )
    }

    /// For people: program file name, arguments and options (`stockfish Threads=1 Hash=16`).
    pub fn label(&self) -> String {
        let name = self
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut parts = vec![name];
        parts.extend(self.args.iter().cloned());
        parts.extend(self.options.iter().map(|(k, v)| format!("{k}={v}")));
        parts.join(" ")
    }

    /// A copy with one option set (replaced when present).
    pub fn with_option(&self, name: &str, value: &str) -> EngineConfig {
        let mut c = self.clone();
        c.options.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        c.options.push((name.to_string(), value.to_string()));
        c
    }
}

/// Finds a program: a path as given, else on PATH, else in /usr/games.
pub fn find_program(name: &str) -> Result<PathBuf> {
    let p = PathBuf::from(name);
    if name.contains('/') {
        if p.is_file() {
            return Ok(p);
        }
        bail!("engine program {name} not found");
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path).chain([PathBuf::from("/usr/games")]) {
        let c = dir.join(name);
        if c.is_file() {
            return Ok(c);
        }
    }
    bail!("engine program '{name}' not found on PATH or in /usr/games")
}

/// The answer for one position, from the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: Score,
    /// Best move in UCI notation (empty when the engine gave none).
    pub best: String,
    pub depth: u32,
}

/// A running engine process.
pub struct UciEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    limit: Limit,
}

impl UciEngine {
    /// Starts the program, runs `uci`, sets the options, waits for `readyok`.
    pub fn start(cfg: &EngineConfig) -> Result<UciEngine> {
        let name = cfg.program.display().to_string();
        let mut child = Command::new(&cfg.program)
            .args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {name}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut e = UciEngine {
            name,
            child,
            stdin,
            stdout,
            limit: cfg.limit,
        };
        e.send("uci")?;
        e.wait_for("uciok")?;
        for (k, v) in &cfg.options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.send("isready")?;
        e.wait_for("readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("engine {}: cannot write (did it exit?)", self.name))
    }

    fn read_line(&mut self) -> Result<String> {
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .with_context(|| format!("engine {}: cannot read", self.name))?;
        if n == 0 {
            bail!("engine {} closed its output (crashed?)", self.name);
        }
        Ok(line)
    }

    fn wait_for(&mut self, token: &str) -> Result<()> {
        loop {
            if self.read_line()?.trim() == token {
                return Ok(());
            }
        }
    }

    /// Searches `fen` with the configured limit; the score of the last `info` line with one
    /// (exact or bound, first PV only) and the `bestmove`.
    pub fn evaluate(&mut self, fen: &str) -> Result<Eval> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        self.send(&format!("position fen {fen}"))?;
        let go = self.limit.go();
        self.send(&go)?;
        let mut score = None;
        let mut depth = 0;
        loop {
            let line = self.read_line()?;
            match vampirc_uci::parse_one(line.trim()) {
                UciMessage::Info(attrs) => {
                    let mut pv1 = true;
                    let mut s = None;
                    let mut d = None;
                    for a in attrs {
                        match a {
                            UciInfoAttribute::MultiPv(k) => pv1 = k == 1,
                            UciInfoAttribute::Score { cp, mate, .. } => {
                                s = match (mate, cp) {
                                    (Some(m), _) => Some(Score::Mate(m as i32)),
                                    (None, Some(c)) => Some(Score::Cp(c)),
                                    _ => None,
                                }
                            }
                            UciInfoAttribute::Depth(x) => d = Some(x as u32),
                            _ => {}
                        }
                    }
                    if pv1 {
                        if let Some(s) = s {
                            score = Some(s);
                            depth = d.unwrap_or(depth);
                        }
                    }
                }
                UciMessage::BestMove { best_move, .. } => {
                    let score = score.with_context(|| {
                        format!("engine {}: no score before bestmove for {fen}", self.name)
                    })?;
                    return Ok(Eval {
                        score,
                        best: best_move.to_string(),
                        depth,
                    });
                }
                _ => {
                    let t = line.trim_start();
                    // `bestmove (none)` does not parse as a move: no legal move.
                    if t.starts_with("bestmove") {
                        bail!("engine {}: no move in {fen}", self.name);
                    }
                    // An info line vampirc-uci does not take: read its score by hand.
                    if t.starts_with("info")
                        && (!t.contains(" multipv ") || t.contains(" multipv 1 "))
                    {
                        if let Some((s, d)) = scan_info(t) {
                            score = Some(s);
                            depth = d.unwrap_or(depth);
                        }
                    }
                }
            }
        }
    }
}

/// Score and depth from an `info` line's tokens (`score cp N` / `score mate N`, `depth N`).
fn scan_info(line: &str) -> Option<(Score, Option<u32>)> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let at = |k: &str| toks.iter().position(|t| *t == k);
    let depth = at("depth").and_then(|i| toks.get(i + 1)?.parse().ok());
    let i = at("score")?;
    let v: i32 = toks.get(i + 2)?.parse().ok()?;
    let s = match *toks.get(i + 1)? {
        "cp" => Score::Cp(v),
        "mate" => Score::Mate(v),
        _ => return None,
    };
    Some((s, depth))
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
