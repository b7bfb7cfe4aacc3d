//! `skillcal rate` refusing what it cannot use, naming the flag or the file: bad arguments,
//! negative SPRT bounds, one file given twice, absurd anchors and prior SDs, pair ids that are not
//! one pair.

use super::*;

#[test]
fn bad_arguments_are_readable() {
    let csv = data("rating_arena.csv");
    let (ok, _, stderr) = skillcal(&["rate", csv.to_str().unwrap(), "--anchor", "nobody"]);
    assert!(!ok && stderr.contains("expected NAME=ELO"), "{stderr}");
    let (ok, _, stderr) = skillcal(&["rate", "/nonexistent/games.csv"]);
    assert!(!ok && stderr.contains("/nonexistent/games.csv"), "{stderr}");
    // the cause once: the message already holds the io error that is also its source
    let io = std::fs::read("/nonexistent/games.csv")
        .unwrap_err()
        .to_string();
    assert_eq!(stderr.matches(&io).count(), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // a folder holding no run's files gets no empty report
    let empty = std::env::temp_dir().join(format!("skillcal-empty-report-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (ok, _, stderr) = skillcal(&["report", empty.to_str().unwrap()]);
    assert!(!ok && stderr.contains("no results to report"), "{stderr}");
    assert!(!empty.join("report.html").exists());
    // a match folder whose games.csv has the header only: named, not "rating: no games"
    let header = std::fs::read_to_string(&csv).unwrap();
    let header = header.lines().next().unwrap();
    std::fs::write(empty.join("games.csv"), format!("{header}\n")).unwrap();
    let (ok, _, stderr) = skillcal(&["report", empty.to_str().unwrap()]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: no games to report",
            empty.join("games.csv").display()
        )),
        "{stderr}"
    );
    assert!(!empty.join("report.html").exists());
    let _ = std::fs::remove_dir_all(&empty);
    // a verification folder holds games.csv too, but its report is the verification's, not a
    // match's rating report written over it
    let verify =
        std::env::temp_dir().join(format!("skillcal-verify-report-{}", std::process::id()));
    std::fs::create_dir_all(&verify).unwrap();
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/range/verify-20261128-0125");
    for f in [
        "games.csv",
        "verify.csv",
        "verify_opponents.csv",
        "verified-table.csv",
    ] {
        std::fs::copy(shipped.join(f), verify.join(f)).unwrap();
    }
    let (ok, _, stderr) = skillcal(&["report", verify.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let md = std::fs::read_to_string(verify.join("report.md")).unwrap();
    assert!(
        md.contains("## Verification") && md.contains("RMS of measured"),
        "{md}"
    );
    assert!(
        !md.contains("rating report") && !verify.join("ratings.csv").exists(),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(&verify);
    // Each bad option fails with a message naming it, before any rating is printed.
    let pgn = data("rating_cutechess.pgn");
    let pgn = pgn.to_str().unwrap();
    let h2h = ["--head-to-head", "Stockfish Skill 4", "skillcal nodes=2000"];
    for (args, expect) in [
        (vec!["--sprt", "nan,5"], "--sprt"),
        (vec!["--sprt", "0,inf"], "--sprt"),
        (vec!["--sprt", "5,0"], "elo0 must be below elo1"),
        (vec!["--sprt", "0,5", "--alpha", "0"], "--alpha"),
        (vec!["--white-advantage", "nan"], "--white-advantage"),
        (vec!["--white-advantage", "inf"], "--white-advantage"),
        (vec!["--prior-sd", "inf"], "prior SD"),
        (vec!["--draw-rate", "1"], "--draw-rate"),
        (vec!["--confidence", "1.5"], "confidence"),
        (vec!["--bootstrap", "1"], "100 to 1000000 samples"),
        (vec!["--bootstrap", "99"], "100 to 1000000 samples"),
        (vec!["--bootstrap", "4294967296"], "100 to 1000000 samples"),
    ] {
        let mut all = vec!["rate", pgn];
        all.extend(h2h);
        all.extend(args.iter().copied());
        let (ok, stdout, stderr) = skillcal(&all);
        assert!(!ok && stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            !stdout.contains("rank"),
            "{args:?}: printed a table\n{stdout}"
        );
    }
    for (a, b, expect) in [
        ("Stockfish Skill 4", "Stockfish Skill 4", "against itself"),
        ("Stockfish Skill 4", "nobody", "'nobody' is not a player"),
    ] {
        let (ok, stdout, stderr) = skillcal(&["rate", pgn, "--head-to-head", a, b]);
        assert!(!ok && stderr.contains(expect), "{stderr}");
        assert!(!stdout.contains("rank"), "checked before rating:\n{stdout}");
    }
}

/// Negative values as typed (fishtest's non-regression bounds, a fixed white disadvantage):
/// clap took `-3,1` for a flag and refused it, and its own tip (`-- -3,1`) made it a file.
/// The match command's `--sprt` too: it reaches the match's own checks.
#[test]
fn negative_sprt_bounds_and_white_advantage_are_values() {
    let pgn = data("rating_cutechess.pgn");
    let (ok, stdout, stderr) = skillcal(&[
        "rate",
        pgn.to_str().unwrap(),
        "--head-to-head",
        "Stockfish Skill 4",
        "skillcal nodes=2000",
        "--sprt",
        "-3,1",
        "--bootstrap",
        "0",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("elo0 -3 elo1 1"), "{stdout}");
    let (ok, stdout, stderr) = skillcal(&[
        "rate",
        pgn.to_str().unwrap(),
        "--white-advantage",
        "-30",
        "--bootstrap",
        "0",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("white advantage: -30.0 (fixed)"),
        "{stdout}"
    );
    let out = std::env::temp_dir().join(format!("skillcal-neg-sprt-{}", std::process::id()));
    let (ok, _, stderr) = skillcal(&["match", "--sprt", "-5,0", "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains("give --config FILE or at least two --engine SPEC"),
        "{stderr}"
    );
    assert!(!out.exists(), "a refused match leaves no folder");
    // the SPRT's and the report's settings without them: refused, not ignored
    for (flag, value, needs) in [
        ("--alpha", "0.6", "--sprt"),
        ("--beta", "0.1", "--sprt"),
        ("--sprt-scale", "normalized", "--sprt"),
        ("--scale", "CCRL", "--report"),
    ] {
        let (ok, _, stderr) = skillcal(&["rate", pgn.to_str().unwrap(), flag, value]);
        assert!(!ok && stderr.contains(needs), "{flag}: {stderr}");
    }
}

/// `rate F F` (one file twice, however spelt) counted its games twice without a word; it is
/// refused, naming the file.
#[test]
fn rate_refuses_one_file_given_twice() {
    let pgn = data("rating_cutechess.pgn");
    let again = data("../data/rating_cutechess.pgn");
    for second in [&pgn, &again] {
        let (ok, stderr) = crate::support::arena::skillcal_stderr(&[
            "rate",
            pgn.to_str().unwrap(),
            second.to_str().unwrap(),
            "--bootstrap",
            "0",
        ]);
        let want = format!(
            "{} is given twice (also as {}): its games would count twice",
            second.display(),
            pgn.display()
        );
        assert!(!ok && stderr.contains(&want), "{stderr}");
    }
}

/// An anchor of 1e300 was blamed on the fit ("did not converge in 200 Newton steps"), a prior
/// SD of 1e-300 on an unconnected player ("information matrix is singular"): both are refused,
/// naming the flag, before any rating.
#[test]
fn rate_refuses_absurd_anchors_and_prior_sds_naming_the_flag() {
    let pgn = data("rating_cutechess.pgn");
    let pgn = pgn.to_str().unwrap();
    let p = "Stockfish Skill 4";
    let hard = format!("{p}=1e300");
    let inf = format!("{p}=-inf");
    let tiny_sd = format!("{p}=1500:1e-300");
    for (args, expect) in [
        (
            vec!["--anchor", hard.as_str()],
            format!("--anchor '{hard}': the rating must be within ±10000 Elo"),
        ),
        (
            vec!["--anchor", inf.as_str()],
            format!("--anchor '{inf}': the rating must be within ±10000 Elo"),
        ),
        (
            vec!["--anchor", tiny_sd.as_str()],
            format!("--anchor '{tiny_sd}': the SD must be from 1 to 100000 Elo"),
        ),
        (
            vec!["--prior-sd", "1e-300"],
            "--prior-sd 1e-300: the prior SD must be from 1 to 100000 Elo".to_string(),
        ),
        (
            vec!["--prior-sd", "0.5"],
            "--prior-sd 0.5: the prior SD must be from 1 to 100000 Elo".to_string(),
        ),
        (
            vec!["--prior-sd", "1e300"],
            "--prior-sd 1e300: the prior SD must be from 1 to 100000 Elo".to_string(),
        ),
    ] {
        let mut all = vec!["rate", pgn, "--bootstrap", "0"];
        all.extend(args.iter().copied());
        let (ok, stderr) = crate::support::arena::skillcal_stderr(&all);
        assert!(!ok && stderr.contains(&expect), "{args:?}: {stderr}");
    }
    // the bounds themselves are ratings
    let edge = format!("{p}=-10000");
    let (ok, stderr) = crate::support::arena::skillcal_stderr(&[
        "rate",
        pgn,
        "--bootstrap",
        "0",
        "--prior-sd",
        "1",
        "--anchor",
        &edge,
    ]);
    assert!(ok, "{stderr}");
}

/// Three games on one `pair_id` (or two that are not the same players with colours swapped)
/// were left out of the opening pairs without a word; a note names the file, the id and the
/// lines. The games are still rated.
#[test]
fn rate_notes_pair_ids_that_are_not_one_pair() {
    let dir = std::env::temp_dir().join(format!("skillcal-pair-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("games.csv");
    std::fs::write(
        &csv,
        "white,black,result,pair_id\n\
         A,B,1-0,1\nB,A,1/2-1/2,1\n\
         B,C,1-0,3\nC,B,1-0,3\nB,C,0-1,3\n\
         A,C,1-0,4\nA,C,0-1,4\n\
         C,A,1-0,5\n",
    )
    .unwrap();
    let r = load_games_report(&[&csv], &LoadOptions::default()).unwrap();
    assert_eq!(r.games.len(), 8);
    assert_eq!(
        r.pair_notes,
        vec![format!(
            "{}: 2 pair ids are not one pair each (the first: pair_id '3' is on 3 games \
             (lines 4, 5, 6)); their 5 games are rated, but left out of the opening pairs \
             (a pair is two games of the same two players, colours swapped)",
            csv.display()
        )]
    );
    let (ok, stderr) = crate::support::arena::skillcal_stderr(&[
        "rate",
        csv.to_str().unwrap(),
        "--bootstrap",
        "0",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(&format!("note: {}: 2 pair ids", csv.display())),
        "{stderr}"
    );
    // one bad id alone; a lone game (a pair a stopped match left unfinished) is no note
    std::fs::write(
        &csv,
        "white,black,result,pair_id\nA,B,1-0,1\nB,A,1-0,1\nA,B,0-1,2\nA,B,1-0,2\nB,A,1-0,7\n",
    )
    .unwrap();
    let r = load_games_report(&[&csv], &LoadOptions::default()).unwrap();
    assert_eq!(
        r.pair_notes,
        vec![format!(
            "{}: pair_id '2' on lines 4 and 5 is not the same two players with colours \
             swapped; these games are rated, but left out of the opening pairs (a pair is two \
             games of the same two players, colours swapped)",
            csv.display()
        )]
    );
    std::fs::remove_dir_all(&dir).ok();
}
