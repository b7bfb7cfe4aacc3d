//! `skillcal init`: a calibration config written from what an engine declares, loadable as
//! written from a folder outside the repository; an engine that does not answer `uciok` is
//! refused by name with what it wrote to stderr; an engine named with its arguments keeps
//! them; an engine that ignores `go nodes` is calibrated along `go depth`; every Debian engine
//! installed gets a config that loads; every command's help ends with an example.

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
    // an engine of unknown strength: the first batch's lopsided pairings stop at a sweep of 8
    assert_eq!(cfg.plan.stop_after_sweep, 8);
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
fn init_reports_the_stderr_of_an_engine_that_cannot_start() {
    // Debian's gnuchessu: a script that runs `gnuchess`, not on its PATH
    let dir = temp("stderr");
    let script = dir.join("wrapper");
    std::fs::write(
        &script,
        "#!/bin/sh\necho \"wrapper: 3: no-such-chess: not found\" >&2\nexit 127\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (ok, _, err) = init(&dir, script.to_str().unwrap(), "w.toml");
    assert!(!ok);
    assert!(err.contains("does not speak UCI"), "{err}");
    assert!(err.contains("no-such-chess: not found"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn init_keeps_an_engines_arguments_and_avoids_a_node_limit_it_ignores() {
    let dir = temp("args");
    let mock = env!("CARGO_BIN_EXE_skillcal-mock-engine");
    // quoted as a shell would: the program, then its arguments; this mock never answers a
    // `go` (as Toga II and GNU Chess never stop at `go nodes`)
    let line = format!("'{mock}' --fail hang --after 1");
    let (ok, out, err) = init(&dir, &line, "hang.toml");
    assert!(ok, "{out}{err}");
    let cfg = CalibrationConfig::load(&dir.join("hang.toml")).unwrap();
    assert_eq!(cfg.subject.command.as_deref(), Some(mock));
    assert_eq!(cfg.subject.args, ["--fail", "hang", "--after", "1"]);
    let text = std::fs::read_to_string(dir.join("hang.toml")).unwrap();
    assert!(text.contains("limit = \"depth\""), "{text}");
    assert!(text.contains("ignores the `go nodes` limit"), "{text}");
    // unbalanced quotes are refused, naming the flag
    let (ok, _, err) = init(&dir, "'gnuchess --uci", "q.toml");
    assert!(
        !ok && err.contains("--engine 'gnuchess --uci") && err.contains("quotes"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each Debian engine installed (CI installs them: scripts/install-engines.sh), by its command
/// line, with the strength path its config must take.
#[test]
fn init_writes_a_config_for_each_installed_debian_engine() {
    let dir = temp("debian");
    let cases: [(&str, &str, &[&str], &str); 3] = [
        ("toga2", "/usr/games/toga2", &[], "limit = \"depth\""),
        ("glaurung", "/usr/games/glaurung", &[], "limit = \"nodes\""),
        (
            "gnuchess --uci",
            "/usr/games/gnuchess",
            &["--uci"],
            "limit = \"depth\"",
        ),
    ];
    for (line, program, args, path) in cases {
        if !Path::new(program).exists() {
            eprintln!("{program} is not installed: scripts/install-engines.sh installs it");
            continue;
        }
        let out = format!("{}.toml", line.split(' ').next().unwrap());
        let (ok, stdout, err) = init(&dir, line, &out);
        assert!(ok, "{line}: {stdout}{err}");
        let cfg = CalibrationConfig::load(&dir.join(&out)).unwrap();
        assert_eq!(cfg.subject.command.as_deref(), Some(program), "{line}");
        assert_eq!(cfg.subject.args, args, "{line}");
        let text = std::fs::read_to_string(dir.join(&out)).unwrap();
        assert!(text.contains(path), "{line}: {text}");
        // their own opening books would answer instead of the weakened search
        assert!(text.contains("OwnBook = false"), "{line}: {text}");
    }
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
