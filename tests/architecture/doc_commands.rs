//! The commands of the README and docs/guide, as a user copies them: every `skillcal` command
//! names a command and flags its `--help` lists and repository files that exist, every script
//! exists and parses, and the quick ones (below) run as written and give what the page says.

use std::path::{Path, PathBuf};
use std::process::Command;

const SKILLCAL: &str = env!("CARGO_BIN_EXE_skillcal");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Commands run as written, each with a text its output must hold; the rest are only checked
/// against `--help` (they play games for minutes or hours, or need a user's own files). Those
/// that write files run in an empty folder that links the repository's `tests` and `configs`.
/// With `sample`, the page's next code block shows the command's output, and must be that
/// output line for line.
struct Quick {
    command: &'static str,
    in_empty_dir: bool,
    expect: &'static str,
    sample: bool,
}

const QUICK: &[Quick] = &[
    Quick {
        command: "skillcal --help",
        in_empty_dir: false,
        expect: "Commands:",
        sample: false,
    },
    Quick {
        command: "skillcal bench",
        in_empty_dir: false,
        expect: " nodes ",
        sample: false,
    },
    Quick {
        command: "skillcal policy --net 1500 --fen \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"",
        in_empty_dir: false,
        expect: "e7e5",
        sample: false,
    },
    Quick {
        command: "printf 'uci\\nsetoption name UCI_EloScale value lichess-blitz\\nsetoption name UCI_Elo value 1500\\nsetoption name UCI_LimitStrength value true\\nsetoption name RandomSeed value 1\\nposition startpos moves e2e4\\ngo wtime 60000 btime 60000\\n' | target/release/skillcal | grep -v '^option'",
        in_empty_dir: false,
        expect: "UCI_EloScale lichess-blitz: UCI_Elo is usable from 721 to 2721",
        sample: true,
    },
    Quick {
        command: "skillcal rate tests/data/rating_fastchess.pgn",
        in_empty_dir: false,
        expect: "2 players",
        sample: false,
    },
    Quick {
        command: "skillcal rate tests/data/rating_fastchess.pgn --anchor \"sf-skill-3=1320\" --bootstrap 1000",
        in_empty_dir: false,
        expect: "anchors: sf-skill-3 = 1320",
        sample: false,
    },
    Quick {
        command: "skillcal rate tests/data/rating_fastchess.pgn --head-to-head \"skillcal elo=1500\" sf-skill-3 --sprt 0,5",
        in_empty_dir: false,
        expect: "skillcal elo=1500 vs sf-skill-3: 4 games",
        sample: false,
    },
    Quick {
        command: "skillcal analyse tests/data/rating_fastchess.pgn --out my-analysis",
        in_empty_dir: true,
        expect: "",
        sample: false,
    },
    Quick {
        command: "skillcal init --engine fairy-stockfish --out fairy.toml",
        in_empty_dir: true,
        expect: "",
        sample: false,
    },
];

/// One command of a page: its file and line, and the text with continuations joined and the
/// trailing comment removed.
#[derive(Debug)]
struct DocCommand {
    at: String,
    text: String,
}

/// Words that start a shell command in the pages (the rest of a code block is output, YAML or
/// TOML).
const SHELL_WORDS: &[&str] = &[
    "skillcal",
    "target/release/skillcal",
    "cargo",
    "printf",
    "export",
    "mkdir",
    "cd",
    "cat",
    "sudo",
    "sbatch",
];

/// The text before an unquoted ` #` comment.
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single && !double && i > 0 && bytes[i - 1] == b' ' => {
                return line[..i].trim_end()
            }
            _ => {}
        }
    }
    line.trim_end()
}

/// Splits a command as a POSIX shell does for quoting (no expansion): `a "b c"` -> [a, b c].
fn words(text: &str) -> Vec<String> {
    let (mut out, mut cur, mut any) = (Vec::new(), String::new(), false);
    let (mut single, mut double) = (false, false);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => {
                single = !single;
                any = true;
            }
            '"' if !single => {
                double = !double;
                any = true;
            }
            '\\' if !single => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c if c.is_whitespace() && !single && !double => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The commands of one page's code blocks (indented by four spaces or fenced).
fn commands(file: &Path) -> Vec<DocCommand> {
    let text = std::fs::read_to_string(file).unwrap();
    let name = file.strip_prefix(root()).unwrap().display().to_string();
    let (mut out, mut fenced, mut pending): (Vec<DocCommand>, bool, Option<DocCommand>) =
        (Vec::new(), false, None);
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let code = if fenced {
            Some(line.trim_start())
        } else {
            line.strip_prefix("    ")
        };
        let Some(code) = code else {
            pending = None;
            continue;
        };
        let part = strip_comment(code.trim_start());
        let (part, more) = match part.strip_suffix('\\') {
            Some(p) => (p.trim_end(), true),
            None => (part, false),
        };
        let mut cmd = match pending.take() {
            Some(mut c) => {
                c.text = format!("{} {}", c.text, part.trim_start());
                c
            }
            None => DocCommand {
                at: format!("{name}:{}", i + 1),
                text: part.to_string(),
            },
        };
        if more {
            pending = Some(cmd);
            continue;
        }
        cmd.text = cmd.text.trim().to_string();
        let first = words(&cmd.text)
            .into_iter()
            .find(|w| !w.contains('='))
            .unwrap_or_default();
        if SHELL_WORDS.contains(&first.as_str()) || first.starts_with("scripts/") {
            out.push(cmd);
        }
    }
    out
}

fn pages() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root().join("docs/guide"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guide.sort();
    files.extend(guide);
    files
}

/// The code block after the one that holds line `line` (from 1) of `file`, without its
/// indentation: the output a page shows for a command.
fn block_after(file: &Path, line: usize) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let code = |i: usize| i < lines.len() && lines[i].starts_with("    ");
    let mut i = line - 1;
    while code(i) {
        i += 1;
    }
    while i < lines.len() && !code(i) {
        i += 1;
    }
    let mut out = Vec::new();
    while code(i) {
        out.push(lines[i][4..].to_string());
        i += 1;
    }
    out
}

fn skillcal(args: &[&str]) -> std::process::Output {
    Command::new(SKILLCAL).args(args).output().unwrap()
}

/// What is wrong with one `skillcal` invocation (its words after the program), if anything.
fn check_skillcal(args: &[String]) -> Option<String> {
    // the subcommand path: leading words while the help lists them as commands
    let mut path: Vec<&str> = Vec::new();
    let mut rest = args.iter().map(String::as_str).peekable();
    loop {
        let help = skillcal(&[path.as_slice(), &["--help"]].concat());
        let text = String::from_utf8_lossy(&help.stdout).into_owned();
        if !help.status.success() {
            return Some(format!("`skillcal {} --help` fails", path.join(" ")));
        }
        let commands: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let shown = format!("skillcal {}", path.join(" "));
        let shown = shown.trim_end();
        // a command with subcommands takes no argument of its own: its first word is one
        match rest.peek().copied() {
            Some(w) if !w.starts_with('-') && commands.contains(&w) => {
                path.push(rest.next().unwrap());
                continue;
            }
            Some(w) if !w.starts_with('-') && !commands.is_empty() => {
                return Some(format!("`{w}` is not a command of `{shown}`"));
            }
            _ => {}
        }
        let mut prev = "";
        for w in rest {
            if let Some(flag) = w.strip_prefix("--") {
                let flag = flag.split('=').next().unwrap();
                if !text.contains(&format!("--{flag}")) {
                    return Some(format!("`--{flag}` is not in `{shown} --help`"));
                }
            } else if !w.starts_with('-') && prev != "--out" {
                for dir in ["configs/", "tests/", "deploy/", "scripts/", "nets/"] {
                    if w.starts_with(dir) && !root().join(w).exists() {
                        return Some(format!("{w} does not exist"));
                    }
                }
            }
            prev = w;
        }
        return None;
    }
}

/// What is wrong with one shell command of a page (a pipeline's parts checked one by one).
fn check(cmd: &DocCommand) -> Option<String> {
    for part in cmd.text.split(" | ") {
        let w = words(part);
        let w: Vec<String> = w.into_iter().skip_while(|x| x.contains('=')).collect();
        let Some(first) = w.first() else { continue };
        if first == "skillcal" || first == "target/release/skillcal" {
            if let Some(e) = check_skillcal(&w[1..]) {
                return Some(e);
            }
        } else if let Some(script) = first.strip_prefix("scripts/") {
            let path = root().join("scripts").join(script);
            if !path.is_file() {
                return Some(format!("{first} does not exist"));
            }
            let ok = Command::new("bash")
                .arg("-n")
                .arg(&path)
                .status()
                .unwrap()
                .success();
            if !ok {
                return Some(format!("{first} does not parse (bash -n)"));
            }
            for a in &w[1..] {
                if a.starts_with("configs/") && !root().join(a).exists() {
                    return Some(format!("{a} does not exist"));
                }
            }
        }
    }
    None
}

#[test]
fn every_command_of_the_readme_and_guide_matches_the_program() {
    let all: Vec<DocCommand> = pages().iter().flat_map(|p| commands(p)).collect();
    let n = all.iter().filter(|c| c.text.contains("skillcal ")).count();
    assert!(n >= 30, "only {n} skillcal commands found: {all:#?}");
    let bad: Vec<String> = all
        .iter()
        .filter_map(|c| check(c).map(|e| format!("{}: {}\n    {}", c.at, e, c.text)))
        .collect();
    assert!(
        bad.is_empty(),
        "commands that would fail:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_quick_commands_run_as_written() {
    let all: Vec<DocCommand> = pages().iter().flat_map(|p| commands(p)).collect();
    let bin_dir = Path::new(SKILLCAL).parent().unwrap();
    // a fresh shell's PATH may lack /usr/games: skillcal must find Debian's engines there itself
    let inherited = std::env::var("PATH").unwrap_or_default();
    let kept: Vec<&str> = inherited
        .split(':')
        .filter(|d| !d.trim_end_matches('/').ends_with("/games"))
        .collect();
    let path = format!("{}:{}", bin_dir.display(), kept.join(":"));
    let empty = std::env::temp_dir().join(format!("skillcal-doc-commands-{}", std::process::id()));
    for q in QUICK {
        let at = all
            .iter()
            .find(|c| c.text == q.command)
            .unwrap_or_else(|| panic!("no page holds the quick command `{}`", q.command));
        // `target/release/skillcal` is the binary under test (the release build in CI)
        let script = q.command.replace("target/release/skillcal", SKILLCAL);
        let dir = if q.in_empty_dir {
            let _ = std::fs::remove_dir_all(&empty);
            std::fs::create_dir_all(&empty).unwrap();
            for d in ["tests", "configs"] {
                std::os::unix::fs::symlink(root().join(d), empty.join(d)).unwrap();
            }
            empty.clone()
        } else {
            root()
        };
        let o = Command::new("bash")
            .args(["-o", "pipefail", "-c", &script])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && stdout.contains(q.expect),
            "{}: `{}` failed or lacks `{}`: {o:?}",
            at.at,
            q.command,
            q.expect
        );
        if q.sample {
            let (name, line) = at.at.rsplit_once(':').unwrap();
            let shown = block_after(&root().join(name), line.parse().unwrap());
            let printed: Vec<&str> = stdout.lines().collect();
            assert!(
                !shown.is_empty() && shown == printed,
                "{}: the page shows\n{}\nbut `{}` prints\n{}",
                at.at,
                shown.join("\n"),
                q.command,
                printed.join("\n")
            );
        }
    }
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn the_extraction_reads_what_a_user_copies() {
    assert_eq!(
        words(r#"match --engine stockfish:"Skill Level"=3 'a b' x\ y"#),
        ["match", "--engine", "stockfish:Skill Level=3", "a b", "x y"]
    );
    assert_eq!(
        strip_comment("skillcal bench   # last line"),
        "skillcal bench"
    );
    assert_eq!(strip_comment("printf 'a # b'"), "printf 'a # b'");
    // a bad flag, a missing file and a missing script are found
    let c = |t: &str| {
        check(&DocCommand {
            at: String::new(),
            text: t.to_string(),
        })
    };
    assert!(c("skillcal calibrate x.toml --no-such-flag").is_some());
    assert!(c("skillcal calibrate configs/no-such.toml").is_some());
    assert!(c("scripts/no-such.sh").is_some());
    assert!(c("skillcal no-such-command --out x").is_some());
    assert!(c("skillcal store no-such").is_some());
    assert!(c("skillcal store init").is_none());
    assert!(c("skillcal verify t.csv --config configs/default.toml --levels 1200").is_none());
}
