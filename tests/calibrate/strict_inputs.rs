//! Result CSVs read strictly: a row cut short or longer than its header, a file cut inside its
//! last line, totals that do not add up, and a header-only file where rows are needed are
//! errors naming file and line; a file the output depends on that is missing is said so.
//! `SKILLCAL_UNDER_TEST` runs these against another build (they failed on main before).

use std::path::Path;

use skillcal::results::{read_csv, CompareFamilyRow, GameRow, PoolPairRow};

use crate::support::arena::{skillcal_stderr, temp_dir};
use crate::support::runs::copy_full;

fn compare(dirs: &[&Path], out: &Path, more: &[&str]) -> (bool, String) {
    let mut args = vec!["compare".to_string()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    args.extend(["--out".into(), out.display().to_string()]);
    args.extend(more.iter().map(|s| s.to_string()));
    skillcal_stderr(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_cut_or_ragged_verify_csv_is_an_error_naming_file_and_line() {
    let dir = temp_dir("strict-verify");
    let fam = dir.join("fam");
    copy_full(&fam);
    let verify = fam.join("verify/verify.csv");
    let text = std::fs::read_to_string(&verify).unwrap();
    let out = dir.join("out");
    // the probe's cut: 200 bytes keep the header and part of the first row (its RMS read 0.036
    // Elo where the whole file gives tens)
    std::fs::write(&verify, &text[..200]).unwrap();
    let (ok, stderr) = compare(&[&fam], &out, &[]);
    assert!(!ok, "{stderr}");
    assert!(stderr.contains("verify.csv:2: "), "{stderr}");
    // a row with a field less, its line whole: serde would fill the missing field with None
    let mut lines: Vec<&str> = text.lines().collect();
    let header_fields = lines[0].split(',').count();
    let short = lines[2].rsplit_once(',').unwrap().0.to_string();
    lines[2] = &short;
    std::fs::write(&verify, lines.join("\n") + "\n").unwrap();
    let (ok, stderr) = compare(&[&fam], &out, &[]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "verify.csv:3: {} fields where the header has {header_fields}",
            header_fields - 1
        )),
        "{stderr}"
    );
    // a header alone: a verification that holds no level is a damaged file, not "not verified"
    std::fs::write(&verify, format!("{}\n", lines[0])).unwrap();
    let (ok, stderr) = compare(&[&fam], &out, &[]);
    assert!(
        !ok && stderr.contains("verify.csv: holds no rows"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_human_csv_cut_in_its_header_is_an_error() {
    let dir = temp_dir("strict-human");
    let fam = dir.join("fam");
    copy_full(&fam);
    let human = dir.join("human.csv");
    let out = dir.join("out");
    // cut inside the header, and a header alone: both read as "0 of 0 bands" before
    std::fs::write(&human, "band,settings,games,mov").unwrap();
    let (ok, stderr) = compare(&[&fam], &out, &["--human", human.to_str().unwrap()]);
    assert!(!ok && stderr.contains("human.csv:1: "), "{stderr}");
    std::fs::write(&human, format!("{}\n", crate::support::runs::ANALYSIS_HEAD)).unwrap();
    let (ok, stderr) = compare(&[&fam], &out, &["--human", human.to_str().unwrap()]);
    assert!(
        !ok && stderr.contains("human.csv: holds no rows"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fitted_family_without_table_details_says_so() {
    let dir = temp_dir("strict-details");
    let fam = dir.join("fam");
    copy_full(&fam);
    std::fs::remove_file(fam.join("table_details.csv")).unwrap();
    let out = dir.join("out");
    let (ok, stderr) = compare(&[&fam], &out, &[]);
    assert!(ok, "{stderr}");
    let rows: Vec<CompareFamilyRow> = read_csv(&out.join("compare_families.csv")).unwrap();
    assert_eq!(rows[0].status, "fit; missing table_details.csv");
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(
        md.contains("| no table_details.csv | no table_details.csv |"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_refuses_an_empty_games_csv_and_notes_a_missing_one() {
    let dir = temp_dir("strict-report");
    let run_dir = dir.join("run");
    copy_full(&run_dir);
    let games = run_dir.join("games.csv");
    let header = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/full/games.csv"),
    )
    .unwrap()
    .lines()
    .next()
    .unwrap()
    .to_string();
    // before: exit 0, the Games section dropped while the fit counted its games
    for text in [String::new(), format!("{header}\n")] {
        std::fs::write(&games, &text).unwrap();
        let (ok, stderr) = skillcal_stderr(&["report", run_dir.to_str().unwrap()]);
        assert!(!ok, "{text:?}: {stderr}");
        assert!(
            stderr.contains("games.csv") && stderr.contains("--fit-only"),
            "{stderr}"
        );
    }
    std::fs::remove_file(&games).unwrap();
    let (ok, stderr) = skillcal_stderr(&["report", run_dir.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let md = std::fs::read_to_string(run_dir.join("report.md")).unwrap();
    assert!(md.contains("games.csv is missing"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fit_only_refuses_a_0_byte_match_games_csv() {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/full");
    let dir = temp_dir("strict-fit-only");
    let m = dir.join("matches/b000-01");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::copy(full.join("calibrate.toml"), dir.join("calibrate.toml")).unwrap();
    std::fs::copy(
        full.join("matches/b000-01/calibration-match.toml"),
        m.join("calibration-match.toml"),
    )
    .unwrap();
    // the arena writes the header before any game, so no header is damage (it fitted on no
    // games before, as `pool --fit-only` never did)
    std::fs::write(m.join("games.csv"), "").unwrap();
    let config = dir.join("calibrate.toml");
    let (ok, stderr) = skillcal_stderr(&[
        "calibrate",
        config.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--fit-only",
    ]);
    assert!(!ok, "{stderr}");
    assert!(stderr.contains("b000-01/games.csv: empty file"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arena appends a game a row: a last line without its newline is a write a kill cut short,
/// left out as the arena's store leaves it out; in a file written whole it is an error.
#[test]
fn a_torn_last_line_is_left_out_of_games_csv_only() {
    let dir = temp_dir("strict-torn");
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/full");
    let text = std::fs::read_to_string(full.join("games.csv")).unwrap();
    let whole: Vec<&str> = text.lines().take(4).collect();
    let games = dir.join("games.csv");
    std::fs::write(&games, format!("{}\n{}", whole.join("\n"), "9,9,1,a,b")).unwrap();
    let rows: Vec<GameRow> = read_csv(&games).unwrap();
    assert_eq!(rows.len(), 3);
    let pairs = dir.join("pool-pairs.csv");
    std::fs::write(
        &pairs,
        "a,b,games,a_wins,draws,b_wins,a_points,fit_diff,fit_diff_sd\nx,y,4,1,2,1,2.0,,\nx,z,4,1",
    )
    .unwrap();
    let err = read_csv::<PoolPairRow>(&pairs).unwrap_err().to_string();
    assert!(
        err.contains("pool-pairs.csv:3: the file ends inside this line"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A calibration on a measured pool (`[pool] file`) reads its pool-pairs.csv strictly: a row
/// cut short, wins past the games, and a header alone were all taken before.
#[test]
fn a_pool_file_with_a_bad_pool_pairs_csv_is_named() {
    let dir = temp_dir("strict-pool-pairs");
    let pool = dir.join("pool");
    std::fs::create_dir_all(&pool).unwrap();
    std::fs::write(
        pool.join("pool.toml"),
        "[pool]\ncommand = \"/usr/games/stockfish\"\nanchor_sd = 50\n\n[[pool.member]]\nname = \"a0\"\nelo = 1320\n\n[[pool.member]]\nname = \"a1\"\nelo = 1600\n\n[[pool.member]]\nname = \"a2\"\nelo = 1900\n",
    )
    .unwrap();
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/books/2moves_v1.epd");
    let config = dir.join("cal.toml");
    std::fs::write(
        &config,
        format!(
            "seed = 3\nbudget = 400\nprecision = 60\ntargets = {{ from = 1400, to = 1800, step = 100 }}\n\n[subject]\ncommand = \"builtin\"\nlimits = {{ tc = \"60+1\" }}\n\n[[path]]\nknob = \"LimitNodes\"\nfrom = 32\nto = 65536\nscale = \"log\"\n\n[pool]\nfile = \"pool\"\n\n[openings]\nfile = \"{book}\"\n"
        ),
    )
    .unwrap();
    let head = "a,b,games,a_wins,draws,b_wins,a_points,fit_diff,fit_diff_sd\n";
    let good = "a0,a1,4,1,2,1,2.0,-10,20\n";
    let calibrate = |pairs: &str| {
        std::fs::write(pool.join("pool-pairs.csv"), pairs).unwrap();
        let out = dir.join("run");
        skillcal_stderr(&[
            "calibrate",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--fit-only",
        ])
    };
    // the good file loads: the run then fails only for want of a run folder to refit
    let (ok, stderr) = calibrate(&format!("{head}{good}"));
    assert!(
        !ok && stderr.contains("no calibration run to refit"),
        "{stderr}"
    );
    for (pairs, expect) in [
        (
            format!("{head}{good}a1,a2,4,1,2,1,2.0,-10\n"),
            "pool-pairs.csv:3: 8 fields where the header has 9",
        ),
        (
            format!("{head}{good}a1,a2,4,9,0,0,9.0,,\n"),
            "pool-pairs.csv:3: 9 wins, 0 draws and 0 losses do not add up to its 4 games",
        ),
        (
            format!("{head}a1,a2,4,1,2,1,3.5,,\n"),
            "pool-pairs.csv:2: a_points 3.5 is not a_wins + draws / 2 = 2",
        ),
        (head.to_string(), "pool-pairs.csv: holds no rows"),
    ] {
        let (ok, stderr) = calibrate(&pairs);
        assert!(!ok && stderr.contains(expect), "{pairs}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
