//! Option and `go` values the engine cannot take are named with the reason and what happens
//! instead (audit cases 21, 23, 32, 477, 484, 486, 487).

use std::process::Command;

use skillcal::engine::{Options, Uci};

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
        "Style=blend",
        "--set",
        "UCI_Elo=1500",
        "--set",
        "UCI_LimitStrength=true",
    ]);
    assert!(ok && !err.contains("note:"), "{err}");
    // under the default Style a row is a point on human's schedule: Maia's policy, no bench
    let (ok, err) = bench(&[
        "1",
        "--set",
        "UCI_Elo=1500",
        "--set",
        "UCI_LimitStrength=true",
    ]);
    assert!(
        !ok && err.contains("Style human below HumanStrength 1000 (set, or a UCI_Elo row's)"),
        "{err}"
    );
}

/// `info string` lines from the engine up to the `readyok` after `line`.
fn answer(e: &mut crate::support::uci_pipe::Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.send("isready");
    let mut out = e.until("readyok", std::time::Duration::from_secs(20));
    out.pop();
    out.retain(|l| l.starts_with("info string"));
    out
}

/// The `UCI_Elo` declaration after `uci`.
fn declared_elo(e: &mut crate::support::uci_pipe::Engine) -> String {
    e.send("uci");
    let out = e.until("uciok", std::time::Duration::from_secs(20));
    out.into_iter()
        .find(|l| l.starts_with("option name UCI_Elo "))
        .expect("UCI_Elo declared")
}

/// `UCI_Elo` is declared `min 600 max 2600` (the loaded table's range), but 100 was taken
/// without a word, the only note at `go`, and out-of-range messages said `0..=5000`. Over a
/// real pipe: a value outside the declared range is answered at `setoption`, naming the value,
/// the range and its table, and what is played instead, and `go` plays that row; the range
/// follows a `StrengthTable` file and the `Style`, as the declaration does.
#[test]
fn uci_elo_outside_the_declared_range_is_said_at_setoption() {
    let mut e = crate::support::uci_pipe::Engine::start();
    assert_eq!(
        declared_elo(&mut e),
        "option name UCI_Elo type spin default 600 min 600 max 2600"
    );
    assert_eq!(
        answer(&mut e, "setoption name UCI_Elo value 100"),
        ["info string UCI_Elo 100 is outside 600..=2600, the range of the Style human table: 600 is used"]
    );
    assert_eq!(
        answer(&mut e, "setoption name UCI_Elo value 99999999999999999999"),
        ["info string UCI_Elo 99999999999999999999 is outside 600..=2600, the range of the Style human table: 2600 is used"]
    );
    assert!(answer(&mut e, "setoption name UCI_Elo value 1500").is_empty());
    assert!(answer(&mut e, "setoption name UCI_Elo value 2600").is_empty());

    let dir = std::env::temp_dir().join(format!("skillcal-elo-range-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("t.csv");
    std::fs::write(&table, "elo,LimitNodes\n1000,100\n2000,10000\n").unwrap();
    assert!(answer(
        &mut e,
        &format!("setoption name StrengthTable value {}", table.display())
    )
    .is_empty());
    assert_eq!(
        declared_elo(&mut e),
        "option name UCI_Elo type spin default 1000 min 1000 max 2000"
    );
    assert_eq!(
        answer(&mut e, "setoption name UCI_Elo value 2500"),
        [format!(
            "info string UCI_Elo 2500 is outside 1000..=2000, the range of the table {}: 2000 is used",
            table.display()
        )]
    );
    // what the note says is used is what `go` plays
    answer(&mut e, "setoption name UCI_LimitStrength value true");
    e.send("position startpos");
    e.send("go depth 1");
    let out = e.until("bestmove", std::time::Duration::from_secs(20));
    assert!(
        out.iter().any(|l| l.starts_with("info string UCI_Elo 2500 (Style human, table ")
            && l.contains("LimitNodes=10000; 2500 is outside the table's 1000-2000: its 2000 row is played")),
        "{out:#?}"
    );

    answer(&mut e, "setoption name StrengthTable value <embedded>");
    answer(&mut e, "setoption name UCI_LimitStrength value false");
    answer(&mut e, "setoption name Style value nodes");
    assert_eq!(
        declared_elo(&mut e),
        "option name UCI_Elo type spin default 800 min 800 max 2400"
    );
    assert_eq!(
        answer(&mut e, "setoption name UCI_Elo value 700"),
        ["info string UCI_Elo 700 is outside 800..=2400, the range of the Style nodes table: 800 is used"]
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `uci` declares `UCI_Elo`'s range before any scale is chosen, so on a human scale a GUI's
/// slider built from it is off by the scale's offset. Over a real pipe: choosing a scale says
/// the usable range on it in whole Elo, a value outside it is answered on that scale, and `go`
/// names the mapped value rounded (it printed "529.2575815533426 is outside").
#[test]
fn uci_elo_scale_says_the_usable_range_on_its_scale() {
    let mut e = crate::support::uci_pipe::Engine::start();
    let blitz = answer(&mut e, "setoption name UCI_EloScale value lichess-blitz");
    let [line] = blitz.as_slice() else {
        panic!("one line expected: {blitz:#?}")
    };
    let range = line
        .strip_prefix("info string UCI_EloScale lichess-blitz: UCI_Elo is usable from ")
        .and_then(|r| r.strip_suffix(" (the Style human table's 600-2600 on the pool's scale)"))
        .unwrap_or_else(|| panic!("{line}"));
    let (lo, hi) = range.split_once(" to ").unwrap();
    let (lo, hi): (i64, i64) = (lo.parse().unwrap(), hi.parse().unwrap());
    // a Lichess blitz rating is about 120 above the pool's
    assert!((700..=740).contains(&lo) && hi - lo == 2000, "{line}");
    assert_eq!(
        answer(&mut e, "setoption name UCI_Elo value 650"),
        [format!(
            "info string UCI_Elo 650 is outside {lo}..={hi}, the range of the Style human table \
             on lichess-blitz: {lo} is used"
        )]
    );
    assert!(answer(&mut e, &format!("setoption name UCI_Elo value {hi}")).is_empty());
    answer(&mut e, "setoption name UCI_Elo value 650");
    answer(&mut e, "setoption name UCI_LimitStrength value true");
    e.send("position startpos");
    e.send("go depth 1");
    let out = e.until("bestmove", std::time::Duration::from_secs(20));
    assert!(
        out.iter().any(|l| {
            let mapped = l
                .split_once("; 650 on lichess-blitz is ")
                .and_then(|(_, r)| r.split_once(" on the pool's scale; "));
            l.starts_with("info string UCI_Elo 650 (Style human")
                && mapped.is_some_and(|(pool, rest)| {
                    pool.bytes().all(|b| b.is_ascii_digit())
                        && rest.starts_with(&format!(
                            "{pool} is outside the table's 600-2600: its 600 row is played"
                        ))
                })
        }),
        "{out:#?}"
    );
    // the Style sets the table, so its range on the scale is said again
    let nodes = answer(&mut e, "setoption name Style value nodes");
    assert!(
        nodes.iter().any(|l| l
            .starts_with("info string UCI_EloScale lichess-blitz: UCI_Elo is usable from ")
            && l.ends_with("(the Style nodes table's 800-2400 on the pool's scale)")),
        "{nodes:#?}"
    );
    assert_eq!(
        answer(&mut e, "setoption name UCI_EloScale value pool"),
        ["info string UCI_EloScale pool: UCI_Elo is usable from 800 to 2400 (the Style nodes table's)"]
    );
    e.quit();
}

/// A `StrengthTable` that is no regular file hung the engine (a FIFO blocks its reader until a
/// writer comes, so `isready` and `quit` went unanswered) or filled memory (`/dev/zero`). Each
/// is refused at once, naming the file and why, and the table in use stays.
#[test]
fn a_strength_table_that_is_no_regular_file_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("skillcal-table-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("f");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut e = crate::support::uci_pipe::Engine::start();
    // the FIFO first: before the fix it hangs here, and /dev/zero is never read
    for (path, why) in [
        (fifo.clone(), "not a regular file (a FIFO)"),
        (
            "/dev/zero".into(),
            "not a regular file (a character device)",
        ),
        (dir.clone(), "not a regular file (a directory)"),
    ] {
        let out = answer(
            &mut e,
            &format!("setoption name StrengthTable value {}", path.display()),
        );
        assert!(
            out.len() == 1 && out[0].contains(&path.display().to_string()) && out[0].contains(why),
            "{}: {out:#?}",
            path.display()
        );
    }
    assert_eq!(
        declared_elo(&mut e),
        "option name UCI_Elo type spin default 600 min 600 max 2600"
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bench --set UCI_Elo=100` played the 600 row without a note, and `--set Hash=16` said only
/// `unknown option 'Hash'`. An out-of-range `UCI_Elo` is refused (against the table in use once
/// every option is set), and an unknown option's error lists what bench takes.
#[test]
fn bench_refuses_uci_elo_outside_the_range_and_lists_its_options() {
    let (ok, err) = bench(&[
        "1",
        "--set",
        "UCI_LimitStrength=true",
        "--set",
        "UCI_Elo=100",
    ]);
    assert!(!ok, "{err}");
    assert!(
        err.contains(
            "bench --set 'UCI_Elo=100': UCI_Elo 100 is outside 600..=2600, the range of the Style human table"
        ),
        "{err}"
    );
    let (ok, err) = bench(&["1", "--set", "Style=nodes", "--set", "UCI_Elo=2500"]);
    assert!(
        !ok && err
            .contains("UCI_Elo 2500 is outside 800..=2400, the range of the Style nodes table"),
        "{err}"
    );
    let (ok, err) = bench(&["1", "--set", "Style=maia"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("bench --set 'Style=maia': bench measures the search"),
        "{err}"
    );
    let (ok, err) = bench(&["1", "--set", "Hash=16"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains(
            "bench --set 'Hash=16': unknown option 'Hash'; bench --set takes the weakening options: ScoreInaccuracy, "
        ) && err.contains(", UCI_Elo, UCI_EloScale, Style, StrengthTable, MaiaNet, PolicyTemperature, HumanTemperature, HumanTime, HumanTimeScale, HumanTimeModel (it searches with a 16 MB hash and one thread of its own)"),
        "{err}"
    );
    // the range is the table's once every option is set: UCI_Elo may come first
    let dir = std::env::temp_dir().join(format!("skillcal-bench-elo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("wide.csv");
    std::fs::write(&table, "elo,LimitNodes\n1000,100\n3000,2000\n").unwrap();
    let set_table = format!("StrengthTable={}", table.display());
    let (ok, err) = bench(&[
        "1",
        "--set",
        "UCI_Elo=2800",
        "--set",
        &set_table,
        "--set",
        "UCI_LimitStrength=true",
    ]);
    assert!(ok, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
