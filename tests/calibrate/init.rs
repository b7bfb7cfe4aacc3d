//! `skillcal init`: a calibration config written from what an engine declares, loadable as
//! written from a folder outside the repository; an engine that does not answer `uciok` is
//! refused by name; every command's help ends with an example.

use std::path::Path;
use std::process::Command;

use skillcal::calibrate::config::CalibrationConfig;

const SKILLCAL: &str = env!("CARGO_BIN_EXE_skillcal");

fn init(dir: &Path, engine: &str, out: &str) -> (bool, String, String) {
    let o = Command::new(SKILLCAL)
        .args(["init", "--engine", engine, "--out", out])
        .current_dir(dir)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-init-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn init_chooses_the_path_from_the_engines_options() {
    let dir = temp("paths");
    // Fairy-Stockfish: a Skill Level (and UCI_Elo labels over it)
    let (ok, out, err) = init(&dir, "/usr/games/fairy-stockfish", "fairy.toml");
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(dir.join("fairy.toml")).unwrap();
    assert!(
        text.contains("knob = \"Skill Level\"\nfrom = -20\nto = 20"),
        "{text}"
    );
    assert!(
        text.contains("chosen because the engine declares a Skill Level"),
        "{text}"
    );
    let cfg = CalibrationConfig::load(&dir.join("fairy.toml")).unwrap();
    assert_eq!(
        cfg.subject.command.as_deref(),
        Some("/usr/games/fairy-stockfish")
    );
    assert!(!cfg.pool_pairs.is_empty(), "the pool's games are loaded");
    // a straight line missed Fairy-Stockfish's Skill Levels by 660 Elo: the curve is a spline
    assert_eq!(cfg.fit.model.name(), "spline");
    assert!(dir.join("skillcal-pool/2moves_v1.epd").is_file());
    // skillcal's own engine: UCI_Elo with UCI_LimitStrength, no Skill Level
    let (ok, out, err) = init(&dir, SKILLCAL, "builtin.toml");
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(dir.join("builtin.toml")).unwrap();
    assert!(
        text.contains("knob = \"UCI_Elo\"\nfrom = 600\nto = 2600")
            && text.contains("UCI_LimitStrength = true"),
        "{text}"
    );
    CalibrationConfig::load(&dir.join("builtin.toml")).unwrap();
    // the mock engine declares neither: node limits
    let mock = env!("CARGO_BIN_EXE_skillcal-mock-engine");
    let (ok, out, err) = init(&dir, mock, "mock.toml");
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(dir.join("mock.toml")).unwrap();
    assert!(text.contains("limit = \"nodes\""), "{text}");
    assert!(text.contains("neither UCI_Elo"), "{text}");
    CalibrationConfig::load(&dir.join("mock.toml")).unwrap();
    // an existing config is never overwritten
    let (ok, _, err) = init(&dir, mock, "mock.toml");
    assert!(!ok && err.contains("mock.toml: exists"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn init_refuses_an_engine_that_does_not_answer_uciok() {
    let dir = temp("refuse");
    let (ok, _, err) = init(&dir, "/bin/true", "t.toml");
    assert!(!ok);
    assert!(
        err.contains("--engine /bin/true") && err.contains("does not speak UCI"),
        "{err}"
    );
    assert!(!dir.join("t.toml").exists() && !dir.join("skillcal-pool").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_help_ends_with_an_example() {
    let help = |args: &[&str]| {
        let o = Command::new(SKILLCAL).args(args).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let top = help(&["--help"]);
    assert!(top.contains("Examples:"), "{top}");
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help" && c != "uci")
        .collect();
    assert!(commands.len() >= 12, "{commands:?}");
    for c in commands {
        let text = help(&[&c, "--help"]);
        assert!(text.contains("Example:\n  skillcal "), "{c}:\n{text}");
    }
}
