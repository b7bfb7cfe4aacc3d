//! How a run behaves beyond its config: progress, summaries, signals, the skillcal binary.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Semaphore;

/// How a run behaves (what the config does not say).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Show an indicatif progress bar (on stderr, only when it is a terminal).
    pub progress: bool,
    /// Print the W-D-L / Elo summary every `summary_every` games (to the bar or stderr).
    pub summaries: bool,
    /// Stop on Ctrl-C / SIGTERM: end all engines, keep finished games, return an error.
    pub handle_signals: bool,
    /// The `skillcal` binary for `builtin` engines (overrides config and $SKILLCAL_BIN).
    pub skillcal_bin: Option<PathBuf>,
    /// Where the opening book was named (a config file or a flag), for errors about the book.
    pub book_source: Option<String>,
    /// Game slots shared with the other matches of a batch run at once: each game takes one
    /// for as long as it plays, so a match's last game leaves its core to the next match's
    /// games instead of idle ([`crate::arena::run_matches`]). None: the match's own
    /// `concurrency` alone.
    pub slots: Option<Arc<Semaphore>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            progress: false,
            summaries: false,
            handle_signals: true,
            skillcal_bin: None,
            book_source: None,
            slots: None,
        }
    }
}
