//! The weakening families: every config under configs/families/ loads with the calibration's
//! loader, every family's embedded table loads and is what its config says (provisional ones
//! exactly what `examples/family_tables.rs` writes, measured ones their committed run's table), and a path over a `go` limit plays the limit
//! it names, over real pipes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use skillcal::calibrate::config::{CalibrationConfig, GoLimit};
use skillcal::calibrate::run::subject_engine;
use skillcal::calibrate::table::provisional_table;
use skillcal::strength::{EloTable, Family, Knob};

use crate::support::arena::{temp_dir, MOCK, SKILLCAL};

fn families_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/families")
}

fn load(name: &str) -> CalibrationConfig {
    let path = families_dir().join(format!("{name}.toml"));
    CalibrationConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()))
}

#[test]
fn every_family_config_loads_and_every_embedded_table_matches_it() {
    for family in Family::ALL {
        let cfg = load(family.name());
        assert!(cfg.openings.file.exists(), "{family}: the book is found");
        let table = family.table();
        assert_eq!(
            EloTable::parse(family.table_csv(), "<embedded>").as_ref(),
            Ok(table)
        );
        let (lo, hi) = table.elo_range();
        assert!(lo <= 1000.0 && hi >= 2200.0, "{family}: {lo}..{hi}");
        // Every path knob is a table column, so UCI_Elo moves what the family's path moves.
        for k in &cfg.path {
            let knob = Knob::from_name(&k.knob)
                .unwrap_or_else(|| panic!("{family}: {} is not a knob", k.knob));
            assert!(
                table.knobs().contains(&knob),
                "{family}: no {} column",
                k.knob
            );
        }
        if family == Family::Blend {
            assert!(!table.provisional(), "blend is measured");
        }
        if !table.provisional() {
            // a measured family's table is its committed run's (or that run's refit, below),
            // installed by
            // `skillcal calibrate configs/families/F.toml --out results/families/F --install F`
            // (blend's: `... blend.toml --out results/range --install`)
            let folder = if family == Family::Blend {
                "results/range".to_string()
            } else {
                format!("results/families/{family}")
            };
            // a table refitted by its verifications (scripts/research/shift-table.py, its
            // `# refit:` line) is installed from the refit's own folder in the run
            let mut run = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
            if family
                .table_csv()
                .lines()
                .any(|l| l.starts_with("# refit:"))
            {
                let refits: Vec<_> = std::fs::read_dir(&run)
                    .unwrap()
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with("refit"))
                            && p.join("uci_elo_table.csv").exists()
                    })
                    .collect();
                assert_eq!(
                    refits.len(),
                    1,
                    "{family}: one refit folder in {}",
                    run.display()
                );
                run = refits[0].clone();
            }
            let run = run.join("uci_elo_table.csv");
            let measured = std::fs::read_to_string(&run)
                .unwrap_or_else(|e| panic!("{family}: measured, so {} exists: {e}", run.display()));
            assert_eq!(family.table_csv(), measured, "{family}: the run's table");
            continue;
        }
        let origin = format!("configs/families/{family}.toml");
        assert_eq!(
            family.table_csv(),
            provisional_table(&cfg, &origin).unwrap(),
            "{family}: rerun `cargo run --release --example family_tables`"
        );
    }
}

#[test]
fn stockfish_uci_elo_config_loads_and_moves_the_option() {
    let cfg = load("stockfish-uci-elo");
    assert_eq!(cfg.subject.command.as_deref(), Some("/usr/games/stockfish"));
    assert_eq!(cfg.path.len(), 1);
    assert_eq!(cfg.path[0].knob, "UCI_Elo");
    let weakest = subject_engine(&cfg, 0.0);
    assert_eq!(weakest.option("UCI_LimitStrength"), Some("true"));
    assert_eq!(weakest.option("UCI_Elo"), Some("1350"));
    assert_eq!(subject_engine(&cfg, 1.0).option("UCI_Elo"), Some("2850"));
    assert!(weakest.limits.nodes.is_some(), "node-limited");
}

fn path_config(paths: &str, limits: &str) -> String {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/books/2moves_v1.epd");
    format!(
        r#"
seed = 3
budget = 4
precision = 100
targets = [1400]

[subject]
command = "{MOCK}"
{limits}

{paths}

[plan]
initial = [0.0, 1.0]
grid = 4
games_per_pairing = 2
opponents_per_setting = 1
max_gap = 5000
batch_settings = 2

[pool]
command = "{MOCK}"
limits = {{ nodes = 1000 }}

[[pool.member]]
name = "mock"
elo = 1400

[openings]
file = "{}"

[adjudication]
max_plies = 6
"#,
        book.display()
    )
}

#[test]
fn a_path_names_one_knob_or_one_go_limit() {
    let both = "[[path]]\nknob = \"X\"\nlimit = \"nodes\"\nfrom = 1\nto = 9\n";
    let err = CalibrationConfig::parse(&path_config(both, ""), "both.toml").unwrap_err();
    assert!(
        format!("{err:#}")
            .contains("both.toml: key `path[0]`: names both `knob` (X) and `limit` (nodes)"),
        "{err:#}"
    );
    let neither = "[[path]]\nfrom = 1\nto = 9\n";
    let err = CalibrationConfig::parse(&path_config(neither, ""), "neither.toml").unwrap_err();
    assert!(
        format!("{err:#}").contains("neither.toml: key `path[0]`: names neither `knob`"),
        "{err:#}"
    );
    let depth = "[[path]]\nlimit = \"depth\"\nfrom = 1\nto = 9\n";
    let twice = path_config(depth, "limits = { depth = 4 }");
    let err = CalibrationConfig::parse(&twice, "twice.toml").unwrap_err();
    assert!(
        format!("{err:#}")
            .contains("twice.toml: key `subject.limits.depth`: path[0] moves go depth"),
        "{err:#}"
    );
    let bad = "[[path]]\nlimit = \"sideways\"\nfrom = 1\nto = 9\n";
    let err = CalibrationConfig::parse(&path_config(bad, ""), "bad.toml").unwrap_err();
    assert!(format!("{err:#}").contains("sideways"), "{err:#}");
    // A path over go movetime sets the time per move, and nothing else.
    let movetime = "[[path]]\nlimit = \"movetime\"\nfrom = 10\nto = 1000\nscale = \"log\"\n";
    let cfg = CalibrationConfig::parse(&path_config(movetime, ""), "m.toml").unwrap();
    assert_eq!(cfg.path[0].limit, Some(GoLimit::Movetime));
    let e = subject_engine(&cfg, 0.5);
    assert_eq!(e.limits.movetime_ms, Some(100));
    assert!(e.options.is_empty(), "{:?}", e.options);
}

#[test]
fn a_path_over_go_nodes_plays_the_limit_it_names() {
    let dir = temp_dir("calib-go-limit");
    let log = dir.join("go.log");
    let paths = "[[path]]\nlimit = \"nodes\"\nfrom = 100\nto = 6400\nscale = \"log\"\n";
    let text = path_config(
        paths,
        &format!("args = [\"--go-log\", \"{}\"]", log.display()),
    );
    let cfg_path = dir.join("go-limit.toml");
    std::fs::write(&cfg_path, text).unwrap();
    let out = Command::new(SKILLCAL)
        .args(["calibrate", cfg_path.to_str().unwrap(), "--out"])
        .arg(dir.join("run"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gos = std::fs::read_to_string(&log).unwrap();
    // t = 0 and t = 1 were played: the subject got exactly the path's node limits.
    for want in ["go nodes 100", "go nodes 6400"] {
        assert!(
            gos.lines().any(|l| l.trim() == want),
            "no '{want}' in:\n{gos}"
        );
    }
    assert!(
        gos.lines()
            .all(|l| l.trim() == "go nodes 100" || l.trim() == "go nodes 6400"),
        "{gos}"
    );
    // The plan names the setting by its go limit.
    let plan = std::fs::read_to_string(dir.join("run/plan.csv")).unwrap();
    assert!(plan.contains("go nodes=100"), "{plan}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn install_names_a_family_or_fails_before_playing() {
    let dir = temp_dir("calib-install-family");
    let out = Command::new(SKILLCAL)
        .args(["calibrate"])
        .arg(families_dir().join("nodes.toml"))
        .arg("--out")
        .arg(dir.join("run"))
        .args(["--fit-only", "--install", "nodez"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--install nodez: not a family (one of nodes, inaccuracy, gaussian, gbm, evalnoise, blend, human)"),
        "{err}"
    );
    assert!(
        !dir.join("run").exists(),
        "nothing written before the check"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
