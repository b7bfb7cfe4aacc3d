//! The UCI client: one engine process; spawn, handshake, new game, `go` until `bestmove`,
//! quit. (fastchess's `engine/uci_engine`; the engine skillcal ships is `crate::engine`.)
//!
//! Every child is spawned with `kill_on_drop` in its own process group, so dropping an
//! [`UciEngine`] (normal end, failure, task abort on Ctrl-C) ends the process, and a
//! terminal's Ctrl-C reaches only the arena, which then ends the engines itself.
//!
//! This is the one UCI handshake of the crate: the arena's games, `analyse` (through
//! `uci_probe::BlockingEngine`) and `init` (through `uci_probe::probe_engine`) all start engines here, so each reads
//! `id name` and the options the same way and reports a failed start with the engine's stderr.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

use super::uci_option::OptionDecl;
pub use super::uci_parse::SearchInfo;
use super::uci_parse::{parse_bestmove, parse_info};

/// Everything needed to start an engine process (resolved from the config).
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub options: Vec<(String, String)>,
    /// Option that receives the per-game seed: `Some(name)` forced, `Some("")` never, `None`
    /// auto (`Seed` or `RandomSeed` if offered and not set in `options`).
    pub seed_option: Option<String>,
}

/// Why talking to an engine failed (the message names the engine).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFault {
    /// The process could not start, closed its output or exited.
    #[error("{0}")]
    Crash(String),
    /// No answer before the deadline.
    #[error("{0}")]
    Timeout(String),
}

/// A `bestmove` answer.
pub struct BestMove {
    /// The move token exactly as sent (may be garbage).
    pub token: String,
    pub info: SearchInfo,
    /// When the write of `position` + `go` began.
    pub issued: Instant,
    /// When `go` had been written.
    pub sent: Instant,
    /// When the `bestmove` line arrived.
    pub received: Instant,
}

pub struct UciEngine {
    pub spec: LaunchSpec,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    /// Options the engine declared (`option name ... type ...`), in its order.
    pub declared: Vec<OptionDecl>,
    /// What the engine called itself (`id name ...`), if it did.
    pub id_name: Option<String>,
    seed_option: Option<String>,
    /// The last lines the engine wrote to stderr (read all along, so a chatty engine never
    /// blocks on a full pipe): said with a failure, since an engine that cannot start mostly
    /// says why there ("gnuchess: not found").
    stderr: StderrTail,
    /// The engine's latest `info string` and unknown lines: said with a crash, since an engine
    /// often gives its reason there before it exits (Stockfish: a network it cannot load).
    last_words: VecDeque<String>,
}

impl UciEngine {
    /// Starts the engine and runs `uci`/`uciok`, the options and `isready`/`readyok`.
    pub async fn start(spec: &LaunchSpec, handshake: Duration) -> Result<Self, EngineFault> {
        let mut eng = Self::launch(spec, handshake).await?;
        eng.configure(handshake).await?;
        Ok(eng)
    }

    /// Starts the engine and runs `uci`/`uciok` only: its declarations are read and nothing is
    /// set yet, so a caller can check the options before any is sent ([`UciEngine::configure`]
    /// sends them).
    pub async fn launch(spec: &LaunchSpec, handshake: Duration) -> Result<Self, EngineFault> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(|e| {
            EngineFault::Crash(format!(
                "engine {}: cannot start {}: {e}",
                spec.name,
                spec.program.display()
            ))
        })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped"));
        let stderr = StderrTail::follow(child.stderr.take().expect("piped"));
        let mut eng = UciEngine {
            spec: spec.clone(),
            child,
            stdin,
            stdout,
            line: Vec::with_capacity(512),
            declared: Vec::new(),
            id_name: None,
            seed_option: None,
            stderr,
            last_words: VecDeque::new(),
        };
        eng.send("uci\n").await?;
        let deadline = Instant::now() + handshake;
        loop {
            let line = eng.read_line(deadline, "uciok").await?;
            let t = line.trim();
            if t == "uciok" {
                break;
            }
            if let Some(name) = t.strip_prefix("id name ") {
                eng.id_name = Some(name.trim().to_string());
            }
            if let Some(decl) = OptionDecl::parse(t) {
                eng.declared.push(decl);
            }
        }
        Ok(eng)
    }

    /// After [`UciEngine::launch`]: sends the spec's options, settles the seed option and
    /// runs `isready`/`readyok`.
    pub async fn configure(&mut self, handshake: Duration) -> Result<(), EngineFault> {
        let spec = &self.spec;
        let mut cmds = String::new();
        for (k, v) in &spec.options {
            cmds.push_str(&format!("setoption name {k} value {v}\n"));
        }
        self.seed_option = match &spec.seed_option {
            Some(s) if s.is_empty() => None,
            Some(s) => Some(s.clone()),
            None => self
                .declared
                .iter()
                .map(|d| &d.name)
                .find(|o| o.eq_ignore_ascii_case("seed") || o.eq_ignore_ascii_case("randomseed"))
                .filter(|o| !spec.options.iter().any(|(k, _)| k.eq_ignore_ascii_case(o)))
                .cloned(),
        };
        cmds.push_str("isready\n");
        self.send(&cmds).await?;
        self.wait_ready(Instant::now() + handshake).await
    }

    /// Sends the seed option (if any) the least and the greatest value a game's seed can give
    /// it, each followed by `isready`: an engine that dies on them (Stockfish's `Hash` named
    /// as the seed option cannot allocate its maximum) fails here, not in every game.
    pub async fn try_seed_option(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        let Some(opt) = self.seed_option.clone() else {
            return Ok(());
        };
        let values = match self.seed_span(&opt) {
            Some((lo, hi)) => [lo, hi],
            None => [0, u64::MAX],
        };
        for (v, end) in values.into_iter().zip(["least", "greatest"]) {
            let sent = format!("setoption name {opt} value {v}");
            let r = match self.send(&format!("{sent}\nisready\n")).await {
                Ok(()) => self.wait_ready(Instant::now() + timeout).await,
                Err(f) => Err(f),
            };
            r.map_err(|f| {
                let m = format!("after `{sent}` (the {end} value a game's seed gives it): {f}");
                match f {
                    EngineFault::Crash(_) => EngineFault::Crash(m),
                    EngineFault::Timeout(_) => EngineFault::Timeout(m),
                }
            })?;
        }
        Ok(())
    }

    /// The declaration of option `name` (case-insensitive, as UCI says).
    pub fn declaration(&self, name: &str) -> Option<&OptionDecl> {
        OptionDecl::find(&self.declared, name)
    }

    /// `ucinewgame`, the game's seed if the engine takes one, then `isready`/`readyok`.
    pub async fn new_game(&mut self, seed: u64, timeout: Duration) -> Result<(), EngineFault> {
        let mut cmds = String::from("ucinewgame\n");
        if let Some(opt) = &self.seed_option {
            let value = self.fit_seed(opt, seed);
            cmds.push_str(&format!("setoption name {opt} value {value}\n"));
        }
        cmds.push_str("isready\n");
        self.send(&cmds).await?;
        self.wait_ready(Instant::now() + timeout).await
    }

    /// The values a game's seed is mapped onto for option `opt`: its spin range from 1 up (0
    /// is often "seed from the clock"); `None` when the seed goes as it is (a string option).
    fn seed_span(&self, opt: &str) -> Option<(u64, u64)> {
        match self.declaration(opt).and_then(OptionDecl::spin_range) {
            Some((min, max)) if max > min => {
                let lo = min.max(1) as u64;
                let hi = max as u64;
                Some(if hi < lo {
                    (min as u64, min as u64)
                } else {
                    (lo, hi)
                })
            }
            _ => None,
        }
    }

    /// The seed mapped into the option's spin range, avoiding 0 (often "seed from the clock").
    fn fit_seed(&self, opt: &str, seed: u64) -> u64 {
        match self.seed_span(opt) {
            Some((lo, hi)) => lo + seed % (hi - lo).saturating_add(1).max(1),
            None => seed,
        }
    }

    async fn wait_ready(&mut self, deadline: Instant) -> Result<(), EngineFault> {
        loop {
            if self.read_line(deadline, "readyok").await?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Sends `position` + `go` (one write) and waits for `bestmove` until `deadline`.
    pub async fn go(&mut self, commands: &str, deadline: Instant) -> Result<BestMove, EngineFault> {
        let issued = Instant::now();
        self.send(commands).await?;
        let sent = Instant::now();
        let mut info = SearchInfo::default();
        loop {
            let line = self.read_line(deadline, "bestmove").await?;
            let received = Instant::now();
            let t = line.trim();
            if let Some(token) = parse_bestmove(t) {
                let token = token.to_string();
                return Ok(BestMove {
                    token,
                    info,
                    issued,
                    sent,
                    received,
                });
            }
            if t.starts_with("info ") {
                parse_info(t, &mut info);
            }
        }
    }

    pub async fn send(&mut self, text: &str) -> Result<(), EngineFault> {
        let Err(e) = self.write(text).await else {
            return Ok(());
        };
        // a broken pipe mostly means the engine has exited: its status says why, the pipe not
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            if let Ok(Ok(status)) =
                tokio::time::timeout(Duration::from_secs(1), self.child.wait()).await
            {
                self.stderr.settle().await;
                let first = text.lines().next().unwrap_or_default().trim();
                return Err(EngineFault::Crash(format!(
                    "engine {}: exited ({status}) before it was sent '{first}'{}",
                    self.spec.name,
                    self.said()
                )));
            }
        }
        Err(EngineFault::Crash(format!(
            "engine {}: write failed: {e}",
            self.spec.name
        )))
    }

    async fn write(&mut self, text: &str) -> std::io::Result<()> {
        self.stdin.write_all(text.as_bytes()).await?;
        self.stdin.flush().await
    }

    /// The engine's last words for a crash message ("" when it said none): its last lines on
    /// stdout that were not the protocol's, then its stderr's last lines.
    fn said(&self) -> String {
        let mut out = String::new();
        if !self.last_words.is_empty() {
            let words: Vec<&str> = self.last_words.iter().map(String::as_str).collect();
            out.push_str(&format!("; it said last: {}", words.join(" / ")));
        }
        let err = self.stderr.lines();
        if !err.is_empty() {
            out.push_str(&format!("; its stderr ended: {}", err.join(" / ")));
        }
        out
    }

    /// Reads one line (lossy UTF-8: garbage bytes must not stop the match).
    async fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<String, EngineFault> {
        self.line.clear();
        match tokio::time::timeout_at(deadline, self.stdout.read_until(b'\n', &mut self.line)).await
        {
            Err(_) => Err(EngineFault::Timeout(format!(
                "engine {}: no '{waiting_for}' in time{}",
                self.spec.name,
                self.said()
            ))),
            Ok(Err(e)) => Err(EngineFault::Crash(format!(
                "engine {}: read failed: {e}",
                self.spec.name
            ))),
            Ok(Ok(0)) => {
                let status =
                    match tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await
                    {
                        Ok(Ok(s)) => format!(" ({s})"),
                        _ => String::new(),
                    };
                self.stderr.settle().await;
                Err(EngineFault::Crash(format!(
                    "engine {}: disconnected while waiting for '{waiting_for}'{status}{}",
                    self.spec.name,
                    self.said()
                )))
            }
            Ok(Ok(_)) => {
                let line = String::from_utf8_lossy(&self.line).into_owned();
                self.remember(&line);
                Ok(line)
            }
        }
    }

    /// Keeps the line among the last words when it is not the protocol's own.
    fn remember(&mut self, line: &str) {
        let t = line.trim();
        let protocol = [
            "bestmove",
            "readyok",
            "uciok",
            "id ",
            "option ",
            "copyprotection",
        ]
        .iter()
        .any(|p| t.starts_with(p))
            || (t.starts_with("info ") && !t.starts_with("info string"));
        if protocol {
            return;
        }
        keep_line(&mut self.last_words, t);
    }

    /// Polite shutdown: `quit`, a short wait, then kill.
    pub async fn quit(mut self) {
        let _ = self.write("quit\n").await;
        if tokio::time::timeout(Duration::from_millis(300), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// How many of an engine's last lines a failure message quotes, and how long each may be.
const KEPT: usize = 4;
const LONGEST: usize = 240;

/// Appends `line` (trimmed, cut at [`LONGEST`] characters) to the last [`KEPT`] lines.
fn keep_line(lines: &mut VecDeque<String>, line: &str) {
    let t = line.trim();
    if t.is_empty() {
        return;
    }
    if lines.len() == KEPT {
        lines.pop_front();
    }
    let mut kept: String = t.chars().take(LONGEST).collect();
    if kept.len() < t.len() {
        kept.push_str("...");
    }
    lines.push_back(kept);
}

/// The last lines of an engine's stderr, read by a task of their own until the pipe closes.
#[derive(Default)]
struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    reader: Option<tokio::task::JoinHandle<()>>,
}

impl StderrTail {
    fn follow(pipe: impl AsyncRead + Unpin + Send + 'static) -> StderrTail {
        let lines = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&lines);
        let reader = tokio::spawn(async move {
            let mut reader = BufReader::new(pipe);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        keep_line(&mut kept.lock().expect("not poisoned"), &line);
                    }
                }
            }
        });
        StderrTail {
            lines,
            reader: Some(reader),
        }
    }

    /// After the process has exited: lets the reader take what is left in the pipe (briefly;
    /// a grandchild may hold the pipe open).
    async fn settle(&mut self) {
        if let Some(reader) = self.reader.take() {
            let _ = tokio::time::timeout(Duration::from_millis(200), reader).await;
        }
    }

    fn lines(&self) -> Vec<String> {
        self.lines
            .lock()
            .expect("not poisoned")
            .iter()
            .cloned()
            .collect()
    }
}
