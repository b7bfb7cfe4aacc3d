//! Where the engine's lines go: stdout for the real engine, a buffer for tests and the fuzz
//! target.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where the engine's lines go (shared with the search thread).
#[derive(Clone)]
pub struct Output(Arc<dyn Fn(&str) + Send + Sync>);

impl Output {
    /// Each line to stdout, flushed.
    pub fn stdout() -> Output {
        Output(Arc::new(|line: &str| {
            let out = std::io::stdout();
            let mut lock = out.lock();
            let _ = writeln!(lock, "{line}");
            let _ = lock.flush();
        }))
    }

    /// Lines collected in a buffer.
    pub fn buffer() -> (Output, Arc<Mutex<Vec<String>>>) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&buf);
        let out = Output(Arc::new(move |line: &str| {
            if let Ok(mut b) = sink.lock() {
                b.push(line.to_string());
            }
        }));
        (out, buf)
    }

    pub(super) fn say(&self, line: &str) {
        (self.0)(line)
    }
}
