//! The one search thread. Every style (the engine's own search, `Style human`, `Style maia`)
//! hands [`Uci::spawn_search`] a move choice; the owner alone takes the engine, starts the thread
//! (64 MB stack: the search recurses), waits as UCI wants (for `ponderhit` or `stop` while
//! pondering, for `stop` after `go infinite`, and for a person's think time when the choice asks
//! for one), prints `bestmove` and gives the engine back. `stop` ends every wait at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::Uci;
use crate::engine::position::uci_string;
use crate::engine::search::{Control, Engine};

/// What the answering thread says: a line per report, then the move.
pub(super) type Say = Arc<dyn Fn(&str) + Send + Sync>;

/// How often a wait looks at `stop` and `ponderhit`: well inside the 50 ms a GUI allows.
const POLL: Duration = Duration::from_millis(1);

/// What a move choice answers.
#[derive(Clone, Debug, Default)]
pub(super) struct Answer {
    /// None: no legal move (`bestmove 0000`).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// Answer no sooner than this after the move became ours (`go`, or `ponderhit` when
    /// pondering): a person's think time. `stop` ends the wait.
    pub think: Option<Duration>,
}

/// How `go` asked to be answered.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Wait {
    /// `go infinite`: `bestmove` waits for `stop`.
    pub infinite: bool,
    /// `go ponder`: `bestmove` waits for `ponderhit` or `stop`.
    pub ponder: bool,
}

/// The `bestmove` line of an answer.
fn bestmove_line(answer: &Answer) -> String {
    match (answer.best, answer.ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(m), Some(p)) => format!("bestmove {} ponder {}", uci_string(m), uci_string(p)),
        (Some(m), None) => format!("bestmove {}", uci_string(m)),
    }
}

/// Sleeps while `more()` holds and `stop` is not set, polling.
fn wait_while(control: &Control, mut more: impl FnMut() -> bool) {
    while more() && !control.stop.load(Ordering::SeqCst) {
        std::thread::sleep(POLL);
    }
}

impl Uci {
    /// Starts the search thread on `choose` (see the module's text). `name` names the thread.
    pub(super) fn spawn_search<F>(&mut self, name: &str, wait: Wait, choose: F)
    where
        F: FnOnce(&mut Engine, &Control, &Say) -> Answer + Send + 'static,
    {
        let start = Instant::now();
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => Engine::new(self.opts.hash_mb),
        };
        self.control = Control::default();
        self.control.ponder.store(wait.ponder, Ordering::SeqCst);
        let control = self.control.clone();
        self.ponderhit_at = Arc::default();
        let ponderhit_at = self.ponderhit_at.clone();
        self.answered = Arc::new(AtomicBool::new(false));
        let answered = self.answered.clone();
        let out = self.out.clone();
        let say: Say = Arc::new(move |line: &str| out.say(line));
        let handle = std::thread::Builder::new()
            .name(name.into())
            .stack_size(64 << 20)
            .spawn(move || {
                let answer = choose(&mut engine, &control, &say);
                // the move becomes ours at `go`, or at `ponderhit` (which may have come while
                // `choose` ran: its instant is kept, so the think time counts from it)
                let mut ours = start;
                if wait.ponder {
                    wait_while(&control, || control.ponder.load(Ordering::SeqCst));
                    let hit = *ponderhit_at.lock().unwrap_or_else(|e| e.into_inner());
                    ours = hit.unwrap_or_else(Instant::now);
                }
                if let Some(think) = answer.think {
                    let until = ours + think;
                    wait_while(&control, || Instant::now() < until);
                }
                if wait.infinite {
                    wait_while(&control, || true);
                }
                say(&bestmove_line(&answer));
                answered.store(true, Ordering::SeqCst);
                engine
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => self.say(&format!("info string cannot start the {name} thread: {e}")),
        }
    }

    /// Says once per game which clock seed `RandomSeed 0` drew, so a game can be replayed.
    pub(super) fn tell_seed(&mut self) {
        if self.settings.random_seed == 0 && !self.seed_told {
            self.say(&format!(
                "info string RandomSeed 0: seeded from the clock with {} (set RandomSeed to replay)",
                self.seed
            ));
            self.seed_told = true;
        }
    }
}
