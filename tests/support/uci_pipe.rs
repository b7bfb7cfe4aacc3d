//! The real `skillcal` binary driven over pipes (`tests/engine/uci.rs`, `uci_robust.rs`): lines
//! read on a thread, waited for with a timeout, the process killed when dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl Engine {
    /// Starts `skillcal` (UCI on stdin/stdout, stderr discarded).
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skillcal"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start skillcal");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    /// Sends one line. The engine may have died (some tests look for that): a failed write is
    /// reported by the next [`Engine::until`], with the exit status.
    pub fn send(&mut self, line: &str) {
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => {
                    let status = self.child.try_wait().ok().flatten();
                    panic!(
                        "no {prefix:?} within {timeout:?} (exit status {status:?}); got {seen:#?}"
                    )
                }
            }
        }
    }

    /// Plays the engine against itself from the start position (at most `plies` plies), sending
    /// `go` each move and checking each `bestmove` legal; each move with the lines said for it.
    pub fn self_play(
        &mut self,
        plies: usize,
        go: &str,
        wait: Duration,
    ) -> Vec<(String, Vec<String>)> {
        use shakmaty::{uci::UciMove, Chess, Position};
        let mut pos = Chess::default();
        let mut played: Vec<(String, Vec<String>)> = Vec::new();
        while played.len() < plies && !pos.is_game_over() {
            let moves: Vec<&str> = played.iter().map(|(m, _)| m.as_str()).collect();
            self.send(&format!("position startpos moves {}", moves.join(" ")));
            self.send(go);
            let lines = self.until("bestmove", wait);
            let best = lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string();
            let m = best
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .unwrap_or_else(|| panic!("illegal bestmove {best} after {moves:?}: {lines:#?}"));
            pos.play_unchecked(m);
            played.push((best, lines));
        }
        played
    }

    /// Sends `quit` and checks the exit status is 0.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "no exit after quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
