//! Option and `go` values the engine cannot take are named with the reason and what happens
//! instead (audit cases 21, 23, 32, 477, 484, 486, 487).

use std::process::Command;

use skillcal::engine::uci::{Options, Uci};

/// The `info string` lines one input line gets.
fn says(uci: &mut Uci, line: &str) -> Vec<String> {
    let (_, out) = uci.respond(line);
    out.into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

#[test]
fn hash_outside_its_range_is_ignored_naming_the_range() {
    let mut uci = Uci::capturing(Options::default());
    for (value, reason) in [
        ("0", "0 is outside 1..=4096"),
        ("5000", "5000 is outside 1..=4096"),
        (
            "99999999999999999999",
            "99999999999999999999 is outside 1..=4096",
        ),
        ("lots", "'lots' is not an integer"),
    ] {
        let out = says(&mut uci, &format!("setoption name Hash value {value}"));
        assert_eq!(
            out,
            [format!(
                "info string option Hash: bad value '{value}': {reason}; ignored"
            )]
        );
    }
    assert!(says(&mut uci, "setoption name Hash value 32").is_empty());
}

#[test]
fn a_ponder_value_that_is_no_boolean_is_ignored() {
    let mut uci = Uci::capturing(Options::default());
    assert!(says(&mut uci, "setoption name Ponder value true").is_empty());
    assert_eq!(
        says(&mut uci, "setoption name Ponder value maybe"),
        ["info string option Ponder: bad value 'maybe': 'maybe' is not true or false; ignored"]
    );
}

#[test]
fn a_random_seed_too_large_is_out_of_range() {
    let mut uci = Uci::capturing(Options::default());
    let out = says(
        &mut uci,
        "setoption name RandomSeed value 99999999999999999999",
    );
    assert_eq!(
        out,
        [
            "info string option RandomSeed: bad value '99999999999999999999': \
          99999999999999999999 is outside 0..=2147483647; ignored"
        ]
    );
}

#[test]
fn movestogo_0_is_read_as_none_and_said() {
    let mut uci = Uci::capturing(Options::default());
    uci.respond("position startpos");
    let out = says(&mut uci, "go wtime 1000 btime 1000 movestogo 0 depth 1");
    assert!(
        out.contains(&"info string go movestogo: 0 read as no movestogo (the time is for the rest of the game)".to_string()),
        "{out:?}"
    );
    assert!(
        !says(&mut uci, "go wtime 1000 btime 1000 movestogo 1 depth 1")
            .iter()
            .any(|l| l.contains("movestogo"))
    );
}

fn bench(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("bench")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bench_set_twice_is_an_error() {
    let (ok, err) = bench(&[
        "1",
        "--set",
        "ScoreInaccuracy=5",
        "--set",
        "scoreinaccuracy=10",
    ]);
    assert!(!ok);
    assert!(
        err.contains(
            "bench --set 'scoreinaccuracy=10': scoreinaccuracy is already set by --set 'ScoreInaccuracy=5'"
        ),
        "{err}"
    );
}

#[test]
fn bench_uci_elo_without_limit_strength_is_noted() {
    let note =
        "note: bench --set 'UCI_Elo=1500' has no effect without --set UCI_LimitStrength=true";
    let (ok, err) = bench(&["1", "--set", "UCI_Elo=1500"]);
    assert!(ok && err.contains(note), "{err}");
    let (ok, err) = bench(&[
        "1",
        "--set",
        "UCI_Elo=1500",
        "--set",
        "UCI_LimitStrength=true",
    ]);
    assert!(ok && !err.contains("note:"), "{err}");
}
