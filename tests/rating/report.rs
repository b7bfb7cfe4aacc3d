//! Rating reports: every number in report.md's rating list, pairs table and LOS matrix equals
//! what `skillcal rate` prints for the same games and flags; a match folder's report (`skillcal
//! report DIR`, anchors from its match.toml) equals `rate --report`'s; a fastchess-layout PGN
//! gets the same report.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn skillcal(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args(args)
        .output()
        .expect("run skillcal");
    assert!(
        out.status.success(),
        "skillcal {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Numbers in a text, signs and `%` dropped (`+223.3`, `78.33%` -> `223.3`, `78.33`).
fn numbers(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|t| t.trim_matches('.'))
        .filter(|t| !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The table rows of the report's section `title`, as cells.
fn table(md: &str, title: &str) -> Vec<Vec<String>> {
    let start = md
        .find(&format!("## {title}\n"))
        .unwrap_or_else(|| panic!("no section {title}"));
    let body = &md[start + title.len() + 4..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    body.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| ---"))
        .skip(1)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The rest of a printed row `RANK  NAME  ...` after the name, if it is that row.
fn after_rank<'a>(line: &'a str, rank: &str, name: &str) -> Option<&'a str> {
    let rest = line.trim_start().strip_prefix(rank)?;
    let rest = rest.trim_start().strip_prefix(name)?;
    rest.starts_with(' ').then_some(rest)
}

/// Checks every number of the report's rating list, pairs and LOS matrix against `printed`.
fn check_numbers(md: &str, printed: &str) {
    let lines: Vec<&str> = printed.lines().collect();
    let rows = table(md, "Rating list");
    assert!(!rows.is_empty());
    for r in &rows {
        let name = r[1].trim_end_matches(" *");
        let line = lines
            .iter()
            .find_map(|l| after_rank(l, &r[0], name).filter(|_| l.contains('[')))
            .unwrap_or_else(|| panic!("no rate line for {name}:\n{printed}"));
        // in order: Elo, ±, interval, games, score, draws, then the anchor's numbers
        let got = numbers(&r[2..].join(" "));
        assert_eq!(got, numbers(line), "{name}: '{line}'");
    }
    let pairs = table(md, "Pairs");
    assert!(!pairs.is_empty());
    for r in &pairs {
        let at = printed
            .find(&format!("{}: ", r[0]))
            .unwrap_or_else(|| panic!("no rate block for {}", r[0]));
        let block = &printed[at..];
        let block = &block[..block.find("\n\n").unwrap_or(block.len())];
        // the block prints more than the row (both Elo intervals, both nElo) in another order:
        // each cell's numbers stand together and in order there (`+223.3 ± 134.4`, `20-7-3`)
        let want = numbers(block);
        for cell in &r[1..] {
            let n = numbers(cell);
            assert!(
                n.is_empty() || want.windows(n.len()).any(|w| w == n),
                "{}: {cell} not in\n{block}",
                r[0]
            );
        }
    }
    let los = table(md, "Likelihood of superiority");
    let at = printed.find("LOS (%)").expect("LOS matrix printed");
    for r in &los {
        let (rank, name) = r[0].split_once(". ").unwrap();
        let line = printed[at..]
            .lines()
            .find_map(|l| after_rank(l, rank, name))
            .unwrap_or_else(|| panic!("no LOS line for {name}"));
        let want = numbers(line);
        let got: Vec<String> = numbers(&r[1..].join(" "));
        assert_eq!(got, want, "LOS row {name}");
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn report_numbers_equal_rate_output_for_a_round_robin() {
    let games = root().join("results/rr-sf-builtin/games.csv");
    let out = tmp("rr");
    let flags = [
        "--anchor",
        "sf-skill1=1468:100",
        "--anchor",
        "sf-skill3=1742:100",
    ];
    let mut args = vec!["rate", games.to_str().unwrap()];
    args.extend(flags);
    args.extend(["--report", out.to_str().unwrap()]);
    let printed = skillcal(&args);
    let md = read(&out.join("report.md"));
    check_numbers(&md, &printed);
    // --all-pairs --los print the same numbers without writing a report.
    let mut args = vec!["rate", games.to_str().unwrap(), "--all-pairs", "--los"];
    args.extend(flags);
    check_numbers(&md, &skillcal(&args));
    for f in [
        "report.html",
        "ratings.svg",
        "rating_history.svg",
        "pairs.csv",
        "los.csv",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    // The match folder's report takes the same anchors from its match.toml's [rating].
    let dir = tmp("rr-dir");
    std::fs::copy(&games, dir.join("games.csv")).unwrap();
    std::fs::copy(
        root().join("results/rr-sf-builtin/match.toml"),
        dir.join("match.toml"),
    )
    .unwrap();
    skillcal(&["report", dir.to_str().unwrap()]);
    let dir_md = read(&dir.join("report.md"));
    for t in ["Rating list", "Pairs", "Likelihood of superiority"] {
        assert_eq!(table(&dir_md, t), table(&md, t), "{t}");
    }
    assert!(dir_md.contains("Scale: Stockfish Skill Level table of PR #4341"));
    // a --config that is not there is an error (it made an unanchored report, exit 0)
    let missing = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args([
            "report",
            dir.to_str().unwrap(),
            "--config",
            "/nonexistent.toml",
        ])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("--config /nonexistent.toml: no such file"),
        "{err}"
    );
    // Files lists what exists, nothing of a calibration's.
    let files: Vec<String> = table(&dir_md, "Files")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    assert!(files.contains(&"match.toml".to_string()), "{files:?}");
    assert!(!files
        .iter()
        .any(|f| f == "uci_elo_table.csv" || f == "games.pgn"));
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fastchess_pgn_gets_the_same_report() {
    let pgn = root().join("tests/data/rating_fastchess.pgn");
    let out = tmp("fastchess");
    let printed = skillcal(&[
        "rate",
        pgn.to_str().unwrap(),
        "--bootstrap",
        "200",
        "--report",
        out.to_str().unwrap(),
    ]);
    let md = read(&out.join("report.md"));
    check_numbers(&md, &printed);
    let pairs = table(&md, "Pairs");
    assert_eq!(pairs.len(), 1);
    assert!(
        pairs[0][5].starts_with('['),
        "pentanomial counts: {:?}",
        pairs[0]
    );
    // Lengths from PlyCount, terminations from the Termination tag.
    assert!(md.contains("4 games:"), "{md}");
    assert!(md.contains("time forfeit 1"), "{md}");
    assert!(out.join("game_length.svg").exists());
    let _ = std::fs::remove_dir_all(&out);
}

/// The numbers of a line after `marker` (the line's tail).
fn line_numbers(text: &str, marker: &str) -> Vec<String> {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("'{marker}' not in\n{text}"));
    numbers(text[at..].lines().next().unwrap())
}

#[test]
fn sprt_section_equals_rate_sprt_output() {
    let games = root().join("results/rr-sf-builtin/games.csv");
    let out = tmp("sprt");
    let printed = skillcal(&[
        "rate",
        games.to_str().unwrap(),
        "--head-to-head",
        "sf-skill1",
        "sf-skill3",
        "--sprt",
        "0,50",
        "--report",
        out.to_str().unwrap(),
    ]);
    let md = read(&out.join("report.md"));
    let start = md.find("## SPRT\n").expect("an SPRT section");
    let section = &md[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    // elo0, elo1, alpha, beta, LLR and its bounds as `rate --sprt` prints them ...
    let want = line_numbers(&printed, "SPRT (");
    let got = line_numbers(section, "elo0");
    assert_eq!(&got[..want.len()], &want[..], "{section}\n{printed}");
    assert!(printed.contains("-> continue") && section.contains("-> continue"));
    // ... after the pairs and pentanomial counts it prints.
    let pairs = &got[want.len()];
    assert!(
        printed.contains(&format!("; {pairs} opening pairs")),
        "{pairs} pairs\n{printed}"
    );
    let counts = line_numbers(&printed, "pentanomial [LL");
    assert_eq!(
        &got[want.len() + 1..want.len() + 6],
        &counts[..],
        "pentanomial"
    );
    // The course ends at the final LLR, and its plot exists.
    let csv = read(&out.join("sprt.csv"));
    let last = csv.lines().last().unwrap();
    let llr: f64 = printed
        .split("LLR ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let course_llr: f64 = last.split(',').nth(2).unwrap().parse().unwrap();
    assert!((course_llr - llr).abs() < 5e-4, "{last} vs {llr}");
    assert!(out.join("sprt.svg").exists());
    // A match folder whose match.toml ran the same test (its first two engines) gets the same
    // SPRT line from `skillcal report DIR`.
    let dir = tmp("sprt-dir");
    let csv = read(&games);
    let kept: Vec<&str> = csv
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || (l.contains(",sf-skill1,") && l.contains(",sf-skill3,")))
        .map(|(_, l)| l)
        .collect();
    std::fs::write(dir.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let toml = read(&root().join("results/rr-sf-builtin/match.toml"));
    let engines: Vec<&str> = toml.split("[[engines]]").collect();
    let rest = &toml[toml.find("\n[limits]").expect("global limits")..];
    let two = format!(
        "{}[[engines]]{}[[engines]]{}{rest}\n[sprt]\nelo0 = 0\nelo1 = 50\n",
        engines[0], engines[1], engines[2]
    );
    assert!(two.contains("\"sf-skill1\"") && two.contains("\"sf-skill3\""));
    std::fs::write(dir.join("match.toml"), two).unwrap();
    skillcal(&["report", dir.to_str().unwrap()]);
    let dir_md = read(&dir.join("report.md"));
    let dir_got = line_numbers(&dir_md, "elo0");
    assert_eq!(dir_got[..want.len() + 6], got[..want.len() + 6], "{dir_md}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&dir);
}
