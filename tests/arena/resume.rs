//! Resume: a run killed with SIGKILL and rerun ends with exactly the planned games, no
//! duplicates; a finished run replays nothing; more rounds extend; another config is refused.

use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::arena::{check_run_dir, read_pgn, temp_dir, MOCK, SKILLCAL};
use skillcal::arena::read_games_csv;

fn write_config(dir: &std::path::Path, rounds: u32, seed: u64) -> std::path::PathBuf {
    let text = format!(
        r#"
rounds = {rounds}
concurrency = 2
seed = {seed}
[limits]
nodes = 10
[adjudication]
max_plies = 24
[[engines]]
name = "slow-a"
command = "{MOCK}"
options = {{ DelayMs = 15 }}
[[engines]]
name = "slow-b"
command = "{MOCK}"
options = {{ DelayMs = 15 }}
"#
    );
    let p = dir.join("match-config.toml");
    std::fs::write(&p, text).unwrap();
    p
}

fn csv_rows(dir: &std::path::Path) -> usize {
    std::fs::read_to_string(dir.join("games.csv"))
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

fn run_cli(cfg: &std::path::Path, out: &std::path::Path) -> std::process::Output {
    Command::new(SKILLCAL)
        .args(["match", "--no-progress", "--config"])
        .arg(cfg)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn sigkill_then_rerun_gives_exactly_the_planned_games() {
    let dir = temp_dir("resume-kill");
    let out = dir.join("run");
    let cfg = write_config(&dir, 8, 3); // 16 games, ~0.4 s each
    let mut child = Command::new(SKILLCAL)
        .args(["match", "--no-progress", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while csv_rows(&out) < 4 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no games appeared");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: no cleanup at all
    child.wait().unwrap();
    let before = csv_rows(&out);
    assert!(
        before < 16,
        "killed too late to test anything ({before} games)"
    );

    let o = run_cli(&cfg, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("16/16 games done"), "{text}");
    let rows = read_games_csv(&out.join("games.csv")).unwrap();
    let ids: BTreeSet<u64> = rows.iter().map(|r| r.game_id).collect();
    assert_eq!(rows.len(), 16);
    assert_eq!(ids, (1..=16).collect());
    let pgn_ids: BTreeSet<String> = read_pgn(&out.join("games.pgn"))
        .iter()
        .map(|g| g.tags["GameId"].clone())
        .collect();
    assert_eq!(pgn_ids.len(), 16);
    check_run_dir(&out);

    // Finished: a rerun plays nothing and changes nothing.
    let pgn = std::fs::read(out.join("games.pgn")).unwrap();
    let o = run_cli(&cfg, &out);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("(0 played now"));
    assert_eq!(std::fs::read(out.join("games.pgn")).unwrap(), pgn);

    // More rounds extend the same match; a different seed is refused.
    let cfg2 = write_config(&dir, 9, 3);
    let o = run_cli(&cfg2, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read_games_csv(&out.join("games.csv")).unwrap().len(), 18);
    let cfg3 = write_config(&dir, 9, 4);
    let o = run_cli(&cfg3, &out);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("different config") && err.contains("seed"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match resumed with the default book named explicitly is the same match, not "a different
/// config" (the snapshot compared the book's path as written: none against a path).
#[test]
fn the_default_book_named_explicitly_resumes_the_same_match() {
    let dir = temp_dir("resume-default-book");
    let out = dir.join("run");
    let cfg = write_config(&dir, 1, 5);
    let o = run_cli(&cfg, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let book = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/books/2moves_v1.epd");
    let text = std::fs::read_to_string(write_config(&dir, 2, 5)).unwrap();
    let named = dir.join("named-book.toml");
    std::fs::write(
        &named,
        format!("{text}[openings]\nfile = \"{}\"\n", book.display()),
    )
    .unwrap();
    let o = run_cli(&named, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read_games_csv(&out.join("games.csv")).unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pids whose parent is `pid` (from /proc).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) {
            // Fields after the `(comm)`: state, ppid, ...
            let rest = &stat[stat.rfind(')').unwrap() + 2..];
            let ppid: u32 = rest.split(' ').nth(1).unwrap().parse().unwrap();
            if ppid == pid {
                out.push(p);
            }
        }
    }
    out
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s[s.rfind(')').unwrap() + 2..].starts_with('Z'))
        .unwrap_or(false)
}

fn wait_gone(pids: &[u32]) {
    let t0 = Instant::now();
    while pids.iter().any(|&p| alive(p)) {
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "engine processes outlived the arena: {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_and_sigkill_leave_no_engine_running() {
    for signal in ["-INT", "-KILL"] {
        let dir = temp_dir(&format!("resume-signal{signal}"));
        let out = dir.join("run");
        let cfg = write_config(&dir, 20, 5);
        let child = Command::new(SKILLCAL)
            .args(["match", "--no-progress", "--config"])
            .arg(&cfg)
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        while csv_rows(&out) < 1 {
            assert!(t0.elapsed() < Duration::from_secs(60), "no games appeared");
            std::thread::sleep(Duration::from_millis(20));
        }
        let engines = children_of(child.id());
        assert!(
            engines.len() >= 2,
            "expected running engines, found {engines:?}"
        );
        let st = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(st.success());
        let o = child.wait_with_output().unwrap();
        assert!(!o.status.success());
        if signal == "-INT" {
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("interrupted") && err.contains("resume"),
                "{err}"
            );
        }
        wait_gone(&engines);
        // What was finished is intact.
        check_run_dir(&out);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
