//! A match through the store, played by three workers, is the file path's match: the same
//! games with the same seed (node-bounded engines), each stored once; and an engine a worker
//! lacks is refused with a reason the coordinator shows.

use crate::support::arena::SKILLCAL;
use crate::support::pg::{games_without_seconds, spawn, worker, Pg};

#[test]
fn two_hundred_games_through_three_workers_are_the_file_paths() {
    let pg = Pg::start("same");
    pg.init();
    let dir = std::env::temp_dir().join(format!("skillcal-store-same-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (file_out, store_out, export_out) =
        (dir.join("file"), dir.join("store"), dir.join("export"));
    let common = [
        "--engine",
        "builtin",
        "--engine",
        "builtin:ScoreInaccuracy=150,Hash=8",
        "--nodes",
        "40",
        "--games",
        "200",
        "--max-plies",
        "60",
        "--seed",
        "7",
        "--no-progress",
    ];
    let mut args = vec![
        "match",
        "--out",
        file_out.to_str().unwrap(),
        "--concurrency",
        "2",
    ];
    args.extend_from_slice(&common);
    let status = std::process::Command::new(SKILLCAL)
        .args(&args)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );

    let mut args = vec![
        "match",
        "--store",
        &pg.url,
        "--out",
        store_out.to_str().unwrap(),
    ];
    args.extend_from_slice(&common);
    let mut coordinator = spawn(&args, &dir.join("coordinator.log"));
    let mut workers: Vec<_> = (0..3)
        .map(|i| {
            worker(
                &pg.url,
                &["--idle-exit", "5"],
                &dir.join(format!("worker{i}.log")),
            )
        })
        .collect();
    assert!(
        coordinator.wait().unwrap().success(),
        "{}",
        log(&dir, "coordinator.log")
    );
    for w in &mut workers {
        assert!(w.wait().unwrap().success());
    }
    let file = games_without_seconds(&file_out.join("games.csv"));
    assert_eq!(file.len(), 200);
    assert_eq!(games_without_seconds(&store_out.join("games.csv")), file);
    // every worker played, and the store holds each game once
    for i in 0..3 {
        let text = log(&dir, &format!("worker{i}.log"));
        assert!(!text.contains(" 0 games played"), "{text}");
    }
    assert_eq!(pg.number("SELECT count(DISTINCT game_id) FROM games"), 200);
    assert_eq!(pg.number("SELECT count(*) FROM games"), 200);

    // export writes the same folder again; `rate` reads it
    let (ok, err) = crate::support::pg::skillcal(&[
        "export",
        "--store",
        &pg.url,
        "1",
        export_out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(games_without_seconds(&export_out.join("games.csv")), file);
    assert_eq!(
        std::fs::read_to_string(export_out.join("games.pgn")).unwrap(),
        std::fs::read_to_string(store_out.join("games.pgn")).unwrap()
    );
    let (ok, err) =
        crate::support::pg::skillcal(&["rate", export_out.join("games.csv").to_str().unwrap()]);
    assert!(ok, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn log(dir: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_default()
}

#[test]
fn a_worker_without_an_engine_refuses_its_units_with_the_reason() {
    let pg = Pg::start("refuse");
    pg.init();
    let dir = std::env::temp_dir().join(format!("skillcal-store-refuse-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-engine");
    let out = dir.join("out");
    let mut coordinator = spawn(
        &[
            "match",
            "--store",
            &pg.url,
            "--out",
            out.to_str().unwrap(),
            "--engine",
            missing.to_str().unwrap(),
            "--engine",
            "builtin",
            "--nodes",
            "20",
            "--games",
            "2",
            "--no-progress",
        ],
        &dir.join("coordinator.log"),
    );
    for _ in 0..600 {
        if pg.number("SELECT count(*) FROM units") == 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let mut w = worker(&pg.url, &["--idle-exit", "1"], &dir.join("worker.log"));
    assert!(w.wait().unwrap().success(), "{}", log(&dir, "worker.log"));
    assert!(log(&dir, "worker.log").contains("0 games played, 1 units refused"));
    // the unit is back in the queue with the reason, and the coordinator shows it
    assert_eq!(
        pg.number(
            "SELECT count(*) FROM units WHERE state = 'queued' AND refusal LIKE '%no-such-engine%'"
        ),
        1
    );
    let mut shown = false;
    for _ in 0..100 {
        let text = log(&dir, "coordinator.log");
        if text.contains("unit 1 refused: worker ") && text.contains("engines[0].command") {
            shown = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    coordinator.kill().unwrap();
    coordinator.wait().unwrap();
    assert!(shown, "{}", log(&dir, "coordinator.log"));
    assert!(!out.exists(), "a match not played wrote its folder");
    assert_eq!(pg.number("SELECT count(*) FROM games"), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
