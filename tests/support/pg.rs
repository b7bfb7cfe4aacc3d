//! A throwaway PostgreSQL cluster for a test (`scripts/pg-temp.sh`: data and Unix socket in a
//! temporary folder, no TCP), removed when the test ends; and the store's commands as
//! processes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use super::arena::SKILLCAL;

/// A running cluster with a `skillcal` database; stopped and removed on drop.
pub struct Pg {
    pub dir: PathBuf,
    pub url: String,
}

fn script(args: &[&str]) -> String {
    let out = Command::new("scripts/pg-temp.sh")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("scripts/pg-temp.sh runs");
    assert!(
        out.status.success(),
        "scripts/pg-temp.sh {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

impl Pg {
    /// A new cluster for the test `name`.
    pub fn start(name: &str) -> Pg {
        let dir = std::env::temp_dir().join(format!("skillcal-pg-{name}-{}", std::process::id()));
        let _ = Command::new("scripts/pg-temp.sh")
            .args(["destroy", dir.to_str().unwrap()])
            .output();
        std::fs::create_dir_all(&dir).unwrap();
        let url = script(&["start", dir.to_str().unwrap()]);
        Pg { dir, url }
    }

    /// A clean stop (the workers' connections are closed by the server).
    pub fn stop(&self) {
        script(&["stop", self.dir.to_str().unwrap()]);
    }

    /// Starts the stopped cluster again, on the same socket.
    pub fn start_again(&self) {
        script(&["start", self.dir.to_str().unwrap()]);
    }

    /// `skillcal store init` on it.
    pub fn init(&self) {
        let (ok, err) = skillcal(&["store", "init", "--store", &self.url]);
        assert!(ok, "store init: {err}");
    }

    /// One number from a query (`SELECT count(*) ...`).
    pub fn number(&self, sql: &str) -> i64 {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (c, conn) = tokio_postgres::connect(&self.url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            let row = c.query_one(sql, &[]).await.unwrap();
            row.try_get::<_, i64>(0)
                .or_else(|_| row.try_get::<_, i32>(0).map(i64::from))
                .unwrap()
        })
    }

    /// Runs statements (a test's changes to the schema).
    pub fn execute(&self, sql: &str) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (c, conn) = tokio_postgres::connect(&self.url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            c.batch_execute(sql).await.unwrap();
        })
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        let _ = Command::new("scripts/pg-temp.sh")
            .args(["destroy", self.dir.to_str().unwrap()])
            .output();
    }
}

/// `skillcal ARGS`: (success, stderr).
pub fn skillcal(args: &[&str]) -> (bool, String) {
    let out = Command::new(SKILLCAL)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `skillcal ARGS` in the background, its output in `log`.
pub fn spawn(args: &[&str], log: &Path) -> Child {
    let f = std::fs::File::create(log).unwrap();
    Command::new(SKILLCAL)
        .args(args)
        .stdin(Stdio::null())
        .stdout(f.try_clone().unwrap())
        .stderr(f)
        .spawn()
        .unwrap()
}

/// A worker on `url` with `extra` flags, its output in `log`.
pub fn worker(url: &str, extra: &[&str], log: &Path) -> Child {
    let mut args = vec!["worker", "--store", url];
    args.extend_from_slice(extra);
    spawn(&args, log)
}

/// games.csv without its `seconds` column (the one value that depends on the machine).
pub fn games_without_seconds(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = rdr.headers().unwrap().clone();
    let secs = headers.iter().position(|h| h == "seconds").unwrap();
    let mut rows: Vec<(u64, String)> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            let id: u64 = r[0].parse().unwrap();
            let kept: Vec<&str> = r
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != secs)
                .map(|(_, v)| v)
                .collect();
            (id, kept.join(","))
        })
        .collect();
    rows.sort_by_key(|r| r.0);
    rows.into_iter().map(|r| r.1).collect()
}
