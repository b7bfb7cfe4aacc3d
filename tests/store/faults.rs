//! Faults: workers killed with SIGKILL in the middle of a unit (twice), and PostgreSQL stopped
//! for ten seconds mid-run: the run completes and every game is stored exactly once.

use std::path::Path;
use std::process::Child;

use crate::support::arena::MOCK;
use crate::support::pg::{games_without_seconds, spawn, worker, Pg};

/// A match of slow mock engines (20 ms a move, at most 40 plies): 16 games, 8 units.
fn match_args<'a>(url: &'a str, out: &'a str, engine: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "--store",
        url,
        "--out",
        out,
        "--engine",
        engine,
        "--engine",
        engine,
        "--nodes",
        "1",
        "--games",
        "16",
        "--max-plies",
        "40",
        "--no-progress",
    ]
}

/// Waits until `f` holds, polling the store.
fn until(what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..1200 {
        if f() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("gave up waiting until {what}");
}

/// The store holds each of the 16 games once and the exported games.csv has ids 1..=16.
fn check_exactly_once(pg: &Pg, out: &Path) {
    assert_eq!(pg.number("SELECT count(*) FROM games"), 16);
    assert_eq!(pg.number("SELECT count(DISTINCT game_id) FROM games"), 16);
    let rows = games_without_seconds(&out.join("games.csv"));
    let ids: Vec<u64> = rows
        .iter()
        .map(|r| r.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, (1..=16).collect::<Vec<u64>>());
}

fn kill9(child: &mut Child) {
    let status = std::process::Command::new("kill")
        .args(["-9", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap();
}

#[test]
fn workers_killed_mid_unit_twice_lose_no_game() {
    let pg = Pg::start("kill");
    pg.init();
    let dir = std::env::temp_dir().join(format!("skillcal-store-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let engine = format!("{MOCK}:DelayMs=20");
    let mut coordinator = spawn(
        &match_args(&pg.url, out.to_str().unwrap(), &engine),
        &dir.join("coordinator.log"),
    );
    until("the run is enqueued", || {
        pg.number("SELECT count(*) FROM units") == 8
    });
    for round in 0..2 {
        let mut w = worker(
            &pg.url,
            &["--lease", "3"],
            &dir.join(format!("killed{round}.log")),
        );
        let owner = format!("%:{}", w.id());
        let held = format!(
            "SELECT count(*) FROM units WHERE state = 'running' AND lease_owner LIKE '{owner}'"
        );
        until("the worker holds a unit", || pg.number(&held) == 1);
        kill9(&mut w);
    }
    let mut rest: Vec<_> = (0..2)
        .map(|i| {
            worker(
                &pg.url,
                &["--lease", "3", "--idle-exit", "3"],
                &dir.join(format!("w{i}.log")),
            )
        })
        .collect();
    assert!(
        coordinator.wait().unwrap().success(),
        "{}",
        std::fs::read_to_string(dir.join("coordinator.log")).unwrap_or_default()
    );
    for w in &mut rest {
        assert!(w.wait().unwrap().success());
    }
    check_exactly_once(&pg, &out);
    // every lease a kill cut short was leased again: two units once each, or (when the second
    // worker, slow to start, found the first's lease already expired) one unit twice
    assert!(pg.number("SELECT COALESCE(sum(attempts - 1), 0) FROM units") >= 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgres_stopped_ten_seconds_mid_run_loses_nothing() {
    let pg = Pg::start("restart");
    pg.init();
    let dir = std::env::temp_dir().join(format!("skillcal-store-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let engine = format!("{MOCK}:DelayMs=20");
    let mut coordinator = spawn(
        &match_args(&pg.url, out.to_str().unwrap(), &engine),
        &dir.join("coordinator.log"),
    );
    let mut workers: Vec<_> = (0..2)
        .map(|i| {
            worker(
                &pg.url,
                &["--idle-exit", "5"],
                &dir.join(format!("w{i}.log")),
            )
        })
        .collect();
    until("a unit is stored", || {
        pg.number("SELECT count(*) FROM units WHERE state = 'done'") >= 1
    });
    pg.stop();
    std::thread::sleep(std::time::Duration::from_secs(10));
    pg.start_again();
    assert!(
        coordinator.wait().unwrap().success(),
        "{}",
        std::fs::read_to_string(dir.join("coordinator.log")).unwrap_or_default()
    );
    for w in &mut workers {
        assert!(w.wait().unwrap().success());
    }
    check_exactly_once(&pg, &out);
    let _ = std::fs::remove_dir_all(&dir);
}
