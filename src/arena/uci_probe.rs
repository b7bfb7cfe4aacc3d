//! The UCI client driven from outside a match: `init`'s probe of what an engine declares and
//! whether it stops at `go nodes`, and [`BlockingEngine`], the client on a blocking thread
//! (`analyse`'s workers). Both run [`UciEngine`]'s own handshake on a runtime of their own.

use std::time::Duration;

use tokio::time::Instant;

use super::uci_engine::{BestMove, EngineFault, LaunchSpec, UciEngine};
use super::uci_option::OptionDecl;

/// What an engine declares after `uci`: its `id name` and options, and whether it stops at
/// `go nodes N`.
#[derive(Clone, Debug)]
pub struct Declared {
    pub id_name: Option<String>,
    pub options: Vec<OptionDecl>,
    pub node_limit: NodeLimit,
}

/// Whether an engine stops at `go nodes N`: UCI makes the limit optional, and Fruit's
/// descendants (Toga II, GNU Chess 6) read it and search on until `stop`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeLimit {
    /// It answered within the probe's wait, having searched about the nodes it was given.
    Obeyed,
    /// It searched far past the limit, or did not answer within the probe's wait: what it did.
    Ignored(String),
}

/// The nodes of the probe's `go nodes` and the middlegame it searches (no opening book holds
/// it, so an engine's own book cannot answer instead of its search).
const PROBE_NODES: u64 = 1_000;
const PROBE_FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";
/// How long the probe waits for `bestmove`: a thousand nodes take milliseconds.
const PROBE_WAIT: Duration = Duration::from_secs(3);

impl UciEngine {
    /// Searches [`PROBE_FEN`] at `go nodes` [`PROBE_NODES`]: an engine that reports more than
    /// ten times the nodes, or gives no `bestmove` within [`PROBE_WAIT`] (it is then sent
    /// `stop`), ignores the node limit.
    async fn probe_node_limit(&mut self, handshake: Duration) -> Result<NodeLimit, EngineFault> {
        self.new_game(0, handshake).await?;
        let go = format!("position fen {PROBE_FEN}\ngo nodes {PROBE_NODES}\n");
        match self.go(&go, Instant::now() + PROBE_WAIT).await {
            Ok(bm) => Ok(match bm.info.nodes {
                Some(n) if n > 10 * PROBE_NODES => {
                    NodeLimit::Ignored(format!("at `go nodes {PROBE_NODES}` it searched {n} nodes"))
                }
                _ => NodeLimit::Obeyed,
            }),
            Err(EngineFault::Timeout(_)) => {
                let stopped = self.go("stop\n", Instant::now() + PROBE_WAIT).await;
                let searched = match stopped.ok().and_then(|bm| bm.info.nodes) {
                    Some(n) => format!(", {n} nodes by then"),
                    None => String::new(),
                };
                Ok(NodeLimit::Ignored(format!(
                    "at `go nodes {PROBE_NODES}` it gave no move within {} s{searched}",
                    PROBE_WAIT.as_secs()
                )))
            }
            Err(f) => Err(f),
        }
    }
}

/// Starts the engine, runs `uci` up to `uciok`, tries its node limit, and quits it: what it
/// declares, for a caller that does not play it (`init`). Its own opening book is turned off
/// for the node probe. Blocking: not inside a runtime.
pub fn probe_engine(spec: &LaunchSpec, handshake: Duration) -> Result<Declared, EngineFault> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| EngineFault::Crash(format!("cannot start the tokio runtime: {e}")))?;
    rt.block_on(async {
        let mut eng = UciEngine::launch(spec, handshake).await?;
        if let Some(book) = eng.declaration("OwnBook") {
            if book.check("false").is_ok() {
                eng.spec.options.push((book.name.clone(), "false".into()));
            }
        }
        eng.configure(handshake).await?;
        let node_limit = eng.probe_node_limit(handshake).await?;
        let declared = Declared {
            id_name: eng.id_name.clone(),
            options: eng.declared.clone(),
            node_limit,
        };
        eng.quit().await;
        Ok(declared)
    })
}

/// A `UciEngine` driven from a blocking thread (`analyse`'s workers): the same handshake,
/// option checks and parsers as the arena's, on a runtime of its own.
pub struct BlockingEngine {
    rt: tokio::runtime::Runtime,
    engine: Option<UciEngine>,
}

impl BlockingEngine {
    /// Starts the engine and runs `uci`/`uciok`; nothing is set yet (see
    /// [`BlockingEngine::configure`]).
    pub fn launch(spec: &LaunchSpec, handshake: Duration) -> Result<Self, EngineFault> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| EngineFault::Crash(format!("cannot start the tokio runtime: {e}")))?;
        let engine = rt.block_on(UciEngine::launch(spec, handshake))?;
        Ok(BlockingEngine {
            rt,
            engine: Some(engine),
        })
    }

    fn engine(&mut self) -> &mut UciEngine {
        self.engine.as_mut().expect("present until dropped")
    }

    /// What the engine declared after `uci`.
    pub fn declared(&self) -> &[OptionDecl] {
        &self
            .engine
            .as_ref()
            .expect("present until dropped")
            .declared
    }

    /// Sends the spec's options and waits for `readyok`.
    pub fn configure(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        let BlockingEngine { rt, engine } = self;
        let e = engine.as_mut().expect("present until dropped");
        rt.block_on(e.configure(timeout))
    }

    /// `ucinewgame` (and the seed, if the spec names a seed option), then `readyok`.
    pub fn new_game(&mut self, seed: u64, timeout: Duration) -> Result<(), EngineFault> {
        let BlockingEngine { rt, engine } = self;
        let e = engine.as_mut().expect("present until dropped");
        rt.block_on(e.new_game(seed, timeout))
    }

    /// Sends `commands` (`position` and `go`) and waits for `bestmove` as long as `wait`.
    pub fn go(&mut self, commands: &str, wait: Duration) -> Result<BestMove, EngineFault> {
        let deadline = Instant::now() + wait;
        let BlockingEngine { rt, engine } = self;
        let e = engine.as_mut().expect("present until dropped");
        rt.block_on(e.go(commands, deadline))
    }

    /// The engine's name in messages.
    pub fn name(&mut self) -> &str {
        &self.engine().spec.name
    }
}

impl Drop for BlockingEngine {
    fn drop(&mut self) {
        if let Some(e) = self.engine.take() {
            self.rt.block_on(e.quit());
        }
    }
}
