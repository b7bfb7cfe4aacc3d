//! Files named on the command line or in a config (a StrengthTable, a book, a config) that are
//! no regular file: a FIFO hung the match preflight (its reader blocks until a writer comes),
//! `/dev/zero` filled memory. Each is refused before any folder is made, naming the file and
//! why. And a negative count is named as one, not as an unknown flag.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::arena::{skillcal_under_test, temp_dir};

/// `skillcal ARGS`; a run still going after a minute (the hang this guards against) is killed
/// and fails the test rather than holding the suite.
fn skillcal_guarded(args: &[&str]) -> Output {
    let mut child = Command::new(skillcal_under_test())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("skillcal {args:?} still running after a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn refused(args: &[String], out: &Path, names: &Path, why: &str) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = skillcal_guarded(&args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?}\n{stderr}");
    assert!(
        stderr.contains(&names.display().to_string()) && stderr.contains(why),
        "{args:?}\n{stderr}"
    );
    assert!(!out.exists(), "{args:?} made {}", out.display());
}

#[test]
fn a_fifo_or_a_device_is_refused_before_a_folder_is_made() {
    let dir = temp_dir("named-files");
    // named .epd, so a book's format is known from the name and the file is what is refused
    let fifo = dir.join("f.epd");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let zero = dir.join("zero.epd");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let out = dir.join("X");
    let o = out.to_str().unwrap();
    for (path, why) in [
        (fifo.as_path(), "not a regular file (a FIFO)"),
        (zero.as_path(), "not a regular file (a character device)"),
    ] {
        let p = path.to_str().unwrap();
        let table = format!("builtin:StrengthTable={p}");
        let common = ["--nodes", "2000", "--rounds", "1", "--out", o];
        let with = |head: &[&str]| -> Vec<String> {
            head.iter().chain(&common).map(|s| s.to_string()).collect()
        };
        refused(
            &with(&["match", "--engine", &table, "--engine", "builtin"]),
            &out,
            path,
            why,
        );
        refused(
            &with(&[
                "match", "--engine", "builtin", "--engine", "builtin", "--book", p,
            ]),
            &out,
            path,
            why,
        );
        refused(&with(&["match", "--config", p]), &out, path, why);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_negative_count_is_named_as_one() {
    let dir = temp_dir("negative-nodes");
    let out = dir.join("X");
    let o = skillcal_guarded(&[
        "match",
        "--engine",
        "builtin",
        "--engine",
        "builtin",
        "--nodes",
        "-5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        stderr.contains("--nodes") && stderr.contains("a node count cannot be negative"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
