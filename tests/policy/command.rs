//! `skillcal policy` run as a process: the embedded Maia nets' figures at known positions.

use std::process::Command;

fn policy(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("policy")
        .args(args)
        .output()
        .expect("run skillcal policy");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (move, probability) lines and the wdl line.
fn parse(stdout: &str) -> (Vec<(String, f64)>, [f64; 3]) {
    let mut moves = Vec::new();
    let mut wdl = [f64::NAN; 3];
    for line in stdout.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts[0] == "wdl" {
            for i in 0..3 {
                wdl[i] = parts[i + 1].parse().unwrap();
            }
        } else {
            moves.push((parts[0].to_string(), parts[1].parse().unwrap()));
        }
    }
    (moves, wdl)
}

#[test]
fn maia_1100_start_position_matches_lc0() {
    let (ok, stdout, stderr) = policy(&["--net", "1100"]);
    assert!(ok, "{stderr}");
    let (moves, wdl) = parse(&stdout);
    assert_eq!(moves.len(), 20);
    // lc0 (BLAS backend, PolicyTemperature 1): e2e4 66.09%, d2d4 20.95%, e2e3 3.01%, g1f3 2.39%
    let want = [
        ("e2e4", 0.6609),
        ("d2d4", 0.2095),
        ("e2e3", 0.0301),
        ("g1f3", 0.0239),
    ];
    for (i, (m, p)) in want.iter().enumerate() {
        assert_eq!(moves[i].0, *m, "{stdout}");
        assert!((moves[i].1 - p).abs() < 1e-3, "{m}: {} vs {p}", moves[i].1);
    }
    let sum: f64 = moves.iter().map(|(_, p)| p).sum();
    assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    for (got, want) in wdl.iter().zip([0.504, 0.039, 0.458]) {
        assert!((got - want).abs() < 2e-3, "{wdl:?}");
    }
    // sorted, most likely first
    assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));
}

#[test]
fn moves_are_history_and_black_sees_its_own_side() {
    let (ok, stdout, stderr) = policy(&["--net", "1500", "--moves", "e2e4", "e7e5", "g1f3"]);
    assert!(ok, "{stderr}");
    let (moves, _) = parse(&stdout);
    // black to move after 1.e4 e5 2.Nf3: humans defend the pawn with the knight
    assert_eq!(moves[0].0, "b8c6", "{stdout}");
    assert!(moves[0].1 > 0.4, "{stdout}");
}

#[test]
fn bad_input_is_named() {
    let (ok, _, stderr) = policy(&["--net", "1150"]);
    assert!(!ok);
    assert!(stderr.contains("1150"), "{stderr}");
    let (ok, _, stderr) = policy(&["--moves", "e2e4", "e2e4"]);
    assert!(!ok);
    assert!(stderr.contains("move 2 \"e2e4\""), "{stderr}");
    let (ok, _, stderr) = policy(&["--net", "/nonexistent/net.pb.gz"]);
    assert!(!ok);
    assert!(stderr.contains("/nonexistent/net.pb.gz"), "{stderr}");
}

/// `skillcal policy ARGS` ended after at most a minute: (success, stderr), or `None` when it
/// was still running and has been killed.
fn policy_within_a_minute(args: &[&str]) -> Option<(bool, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("policy")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(60) {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            return Some((status.success(), err));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn a_net_that_is_not_a_regular_file_is_refused() {
    // /dev/zero never ends and a FIFO blocks until a writer comes: both refused before a read
    let (ok, err) = policy_within_a_minute(&["--net", "/dev/zero"]).expect("returns");
    assert!(
        !ok && err.contains("/dev/zero") && err.contains("not a regular file"),
        "{err}"
    );
    let dir = std::env::temp_dir().join(format!("skillcal-policy-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("net.pb.gz");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (ok, err) = policy_within_a_minute(&["--net", fifo.to_str().unwrap()]).expect("returns");
    assert!(!ok && err.contains("a FIFO"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_negative_number_reaches_its_flags_check() {
    let (ok, _, stderr) = policy(&["--temperature", "-1"]);
    assert!(!ok);
    assert!(
        stderr.contains("--temperature -1: must be above 0"),
        "{stderr}"
    );
}
