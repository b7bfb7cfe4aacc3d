//! The one place that talks to an engine: one engine process per worker thread, driven through
//! the arena's UCI client (`arena::BlockingEngine`: the same handshake, parsers and failure
//! messages as a match's), and programs are found as the arena finds them
//! (`arena::find_program`). With one thread and a node limit an answer depends only on what
//! the process searched since its last `ucinewgame`: `evaluate` sends one before each position,
//! `new_game` + `search` search a game's positions in order after one.

use std::path::PathBuf;
use std::time::Duration;

use shakmaty::uci::UciMove;

pub use crate::arena::find_program;
use crate::arena::{BlockingEngine, EngineFault, LaunchSpec, OptionDecl};

use super::score::Score;
use crate::analysis::error::{AnalysisError, Result};

fn usage(message: String) -> AnalysisError {
    AnalysisError::Usage(message)
}

/// What separates a position from its own `go` line under [`Limit::Clock`].
pub const CLOCK_GO: char = '\t';

/// How long each search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes(u64),
    Depth(u32),
    MoveTime(u64),
    /// The person's own clocks before the move (`go wtime btime winc binc`), for an engine
    /// that plays by its clock; each position carries its `go` (see [`EngineProcess::search`]).
    Clock,
}

impl Limit {
    /// The deepest `depth=N` accepted (Stockfish's MAX_PLY is 246).
    pub const MAX_DEPTH: u32 = 245;

    /// Parses `nodes=N`, `depth=N` or `movetime=MS`, each at least 1, or `clock`.
    pub fn parse(s: &str) -> Result<Limit> {
        let expected = || {
            usage(format!(
                "limit '{s}': expected nodes=N, depth=N, movetime=MS or clock"
            ))
        };
        if s.trim() == "clock" {
            return Ok(Limit::Clock);
        }
        let (k, v) = s.split_once('=').ok_or_else(expected)?;
        let n: u64 = v
            .trim()
            .parse()
            .map_err(|e| usage(format!("limit '{s}': '{v}' is not a number ({e})")))?;
        // 0 is no limit at all to many engines (Stockfish searches on until stopped)
        let bad = |range: &str| usage(format!("limit '{s}': must be {range}"));
        Ok(match k.trim() {
            "nodes" | "movetime" if n == 0 => return Err(bad("at least 1")),
            "nodes" => Limit::Nodes(n),
            "depth" => Limit::Depth(
                u32::try_from(n)
                    .ok()
                    .filter(|d| (1..=Limit::MAX_DEPTH).contains(d))
                    .ok_or_else(|| bad(&format!("from 1 to {}", Limit::MAX_DEPTH)))?,
            ),
            "movetime" => Limit::MoveTime(n),
            _ => return Err(expected()),
        })
    }

    /// The `go` line; None for [`Limit::Clock`], whose `go` each position carries.
    fn go(&self) -> Option<String> {
        match self {
            Limit::Nodes(n) => Some(format!("go nodes {n}")),
            Limit::Depth(d) => Some(format!("go depth {d}")),
            Limit::MoveTime(t) => Some(format!("go movetime {t}")),
            Limit::Clock => None,
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "nodes={n}"),
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::MoveTime(t) => write!(f, "movetime={t}"),
            Limit::Clock => write!(f, "clock"),
        }
    }
}

/// An engine to start: program, arguments, UCI options, search limit.
#[derive(Clone, Debug)]
pub struct AnalysisEngine {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub limit: Limit,
}

/// A spec's program and its options text: `builtin:K=V` -> (`builtin`, `K=V`).
pub fn split_spec(spec: &str) -> (&str, &str) {
    spec.split_once(':').unwrap_or((spec, ""))
}

impl AnalysisEngine {
    /// Parses `builtin[:K=V,...]` (the skillcal binary, found as the arena finds it, speaking
    /// UCI) or `PROGRAM [ARGS][:K=V,...]` (a path, or a name found on PATH or in /usr/games,
    /// and its arguments quoted as a shell would): the
    /// arena's spec parser, so `analyse` reads a spec as `match` does.
    pub fn parse_spec(spec: &str, limit: Limit) -> Result<AnalysisEngine> {
        let parsed = crate::arena::EngineConfig::from_spec(spec)
            .map_err(|e| usage(format!("engine '{spec}': {e}")))?;
        let options = parsed.options.0;
        let (program, args) = if parsed.command == "builtin" {
            let bin = crate::arena::this_skillcal().map_err(AnalysisError::Other)?;
            (bin, vec!["uci".to_string()])
        } else {
            let program = find_program(&parsed.command)
                .map_err(|m| usage(format!("engine '{spec}': program {m}")))?;
            (program, parsed.args)
        };
        Ok(AnalysisEngine {
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
    pub fn with_option(&self, name: &str, value: &str) -> AnalysisEngine {
        let mut c = self.clone();
        c.options.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        c.options.push((name.to_string(), value.to_string()));
        c
    }
}

/// The answer for one position, from the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: Score,
    /// Best move in UCI notation (empty when the engine gave none).
    pub best: String,
    pub depth: u32,
}

/// How long an engine may take to answer `uci` or `isready` (a large hash is cleared then).
const READY: Duration = Duration::from_secs(60);
/// How long a node- or depth-limited search may take before the engine counts as hung (a move
/// time adds itself to it).
const SEARCH: Duration = Duration::from_secs(3600);

/// A running engine process: the arena's UCI client ([`BlockingEngine`]) on this thread.
pub struct EngineProcess {
    engine: BlockingEngine,
    limit: Limit,
}

fn fault(f: EngineFault) -> AnalysisError {
    AnalysisError::Engine(f.to_string())
}

impl EngineProcess {
    /// Starts the program (or its checked substitute, `SKILLCAL_ENGINE_SUBSTITUTE`, which
    /// answers as the program does, so the cache keeps the program's identity), runs `uci`, sets
    /// the options, waits for `readyok`.
    pub fn start(cfg: &AnalysisEngine) -> Result<EngineProcess> {
        let name = cfg.program.display().to_string();
        let timed = matches!(cfg.limit, Limit::MoveTime(_) | Limit::Clock).then_some(name.as_str());
        let program =
            crate::arena::substitute(&cfg.program, timed).map_err(AnalysisError::Engine)?;
        let spec = LaunchSpec {
            name: name.clone(),
            program,
            args: cfg.args.clone(),
            dir: None,
            options: cfg.options.clone(),
            seed_option: Some(String::new()),
        };
        let mut engine = BlockingEngine::launch(&spec, READY).map_err(fault)?;
        // a value the engine cannot take is an error here, not a crash (Stockfish 15.1 dies
        // on `Hash` = `abc`) or a search at the engine's default
        let declared = engine.declared();
        for (k, v) in &cfg.options {
            let decl = OptionDecl::find(declared, k).ok_or_else(|| {
                usage(format!(
                    "engine {name}: unknown UCI option {k}; the engine offers: {}",
                    OptionDecl::offered(declared)
                ))
            })?;
            decl.check(v).map_err(|allowed| {
                usage(format!(
                    "engine {name}: option {k} = '{v}' is not accepted: allowed: {allowed}"
                ))
            })?;
        }
        engine.configure(READY).map_err(fault)?;
        Ok(EngineProcess {
            engine,
            limit: cfg.limit,
        })
    }

    /// Searches `fen` on its own, after `ucinewgame`.
    pub fn evaluate(&mut self, fen: &str) -> Result<Eval> {
        self.new_game()?;
        self.search(fen)
    }

    /// `ucinewgame`: clears the hash table and the search's history tables. In Stockfish 15.1
    /// that cost about a quarter of a 20,000-node search here (docs/analysis.md), which is why a
    /// game's positions share one.
    pub fn new_game(&mut self) -> Result<()> {
        self.engine.new_game(0, READY).map_err(fault)
    }

    /// Searches `fen` (what follows `position fen`: a FEN, and `moves ...` after it; under
    /// [`Limit::Clock`] then a tab and the position's own `go` line) with the configured limit,
    /// keeping what earlier searches left in the tables; the score of the last `info` line with
    /// one (exact or bound, first PV only) and the `bestmove`.
    pub fn search(&mut self, fen: &str) -> Result<Eval> {
        let (position, own_go) = match fen.split_once(CLOCK_GO) {
            Some((p, g)) => (p, Some(g)),
            None => (fen, None),
        };
        let name = self.engine.name().to_string();
        let go = match (self.limit.go(), own_go) {
            (Some(go), _) => go,
            (None, Some(go)) => go.to_string(),
            (None, None) => {
                return Err(AnalysisError::Engine(format!(
                    "engine {name}: limit clock, but no clock for {fen}"
                )))
            }
        };
        let commands = format!("position fen {position}\n{go}\n");
        let wait = match self.limit {
            Limit::MoveTime(ms) => SEARCH + Duration::from_millis(ms),
            _ => SEARCH,
        };
        let bm = self.engine.go(&commands, wait).map_err(fault)?;
        // `bestmove (none)` or `bestmove 0000`: no legal move.
        if !UciMove::from_ascii(bm.token.as_bytes()).is_ok_and(|m| m != UciMove::Null) {
            return Err(AnalysisError::Engine(format!(
                "engine {name}: no move in {fen}"
            )));
        }
        let score = match (bm.info.mate, bm.info.cp) {
            (Some(m), _) => Score::Mate(m),
            (None, Some(c)) => Score::Cp(c),
            (None, None) => {
                return Err(AnalysisError::Engine(format!(
                    "engine {name}: no score before bestmove for {fen}"
                )))
            }
        };
        Ok(Eval {
            score,
            best: bm.token,
            depth: bm.info.depth.unwrap_or(0),
        })
    }
}
