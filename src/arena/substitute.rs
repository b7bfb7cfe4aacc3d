//! A faster build of the same engine, played in place of the one a config names:
//! `SKILLCAL_ENGINE_SUBSTITUTE="FROM=TO"` (several joined by `;`) starts TO wherever FROM is to
//! be started. Configs, match specs and records keep FROM, so a run begun with Debian's generic
//! Stockfish 15.1 resumes with a native build of the same source and net.
//!
//! A substitute is taken only when FROM and TO answer Stockfish's `bench 16 1 10` (16 MB hash,
//! one thread, depth 10 over its bench positions) with the same node count: same search, same
//! evaluation, so a node- or depth-limited game is the same game, only sooner. An engine without
//! that command cannot be substituted, and one that plays by the clock or a move time is not:
//! there a faster build is a stronger engine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// The environment variable holding the substitutions.
pub const VAR: &str = "SKILLCAL_ENGINE_SUBSTITUTE";
const BENCH: [&str; 4] = ["bench", "16", "1", "10"];

/// Each checked pair's outcome, so a process benches a pair once.
static CHECKED: Mutex<BTreeMap<(PathBuf, PathBuf), Result<u64, String>>> =
    Mutex::new(BTreeMap::new());

/// The program to start for `program`: its substitute from [`VAR`] once checked, else itself.
/// `timed`: the player (named) plays by the clock or a move time, so it keeps its own program.
pub fn apply(program: &Path, timed: Option<&str>) -> Result<PathBuf, String> {
    let Some(spec) = std::env::var_os(VAR) else {
        return Ok(program.to_path_buf());
    };
    let spec = spec.to_string_lossy().into_owned();
    for (from, to) in parse(&spec)? {
        if same_file(&from, program) {
            if let Some(who) = timed {
                note_once(format!(
                    "note: {who} plays by the clock or a move time, so it is {} itself, not {} \
                     ({VAR}): a faster build would play it stronger",
                    program.display(),
                    to.display()
                ));
                return Ok(program.to_path_buf());
            }
            check(program, &to)?;
            return Ok(to);
        }
    }
    Ok(program.to_path_buf())
}

fn note_once(text: String) {
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    if SAID
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(text.clone())
    {
        eprintln!("{text}");
    }
}

/// `FROM=TO;FROM=TO`, each side a path to an existing file.
fn parse(spec: &str) -> Result<Vec<(PathBuf, PathBuf)>, String> {
    let mut out = Vec::new();
    for item in spec.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((from, to)) = item.split_once('=') else {
            return Err(format!("{VAR}: `{item}` is not FROM=TO"));
        };
        let (from, to) = (PathBuf::from(from.trim()), PathBuf::from(to.trim()));
        for p in [&from, &to] {
            if !p.is_file() {
                return Err(format!("{VAR}: `{}` is not a file", p.display()));
            }
        }
        out.push((from, to));
    }
    Ok(out)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn check(from: &Path, to: &Path) -> Result<(), String> {
    let mut done = CHECKED.lock().unwrap_or_else(|e| e.into_inner());
    let key = (from.to_path_buf(), to.to_path_buf());
    if !done.contains_key(&key) {
        let outcome = bench_nodes(from).and_then(|a| {
            let b = bench_nodes(to)?;
            if a == b {
                Ok(a)
            } else {
                Err(format!(
                    "{VAR}: {} does not play as {}: `{}` searches {b} nodes against {a}",
                    to.display(),
                    from.display(),
                    BENCH.join(" ")
                ))
            }
        });
        if let Ok(n) = &outcome {
            note_once(format!(
                "note: {} is played by {} ({VAR}; `{}` searches {n} nodes with both)",
                from.display(),
                to.display(),
                BENCH.join(" ")
            ));
        }
        done.insert(key.clone(), outcome);
    }
    done[&key].clone().map(|_| ())
}

/// The node count an engine prints for [`BENCH`] (Stockfish writes it to stderr).
fn bench_nodes(program: &Path) -> Result<u64, String> {
    let out = Command::new(program)
        .args(BENCH)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{VAR}: cannot run {}: {e}", program.display()))?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == "Nodes searched").then(|| v.trim().parse().ok())?
        })
        .ok_or_else(|| {
            format!(
                "{VAR}: `{} {}` gave no node count, so it cannot be checked as a substitute",
                program.display(),
                BENCH.join(" ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names_what_is_wrong() {
        assert!(parse("").unwrap().is_empty());
        let e = parse("/bin/sh").unwrap_err();
        assert!(e.contains("`/bin/sh` is not FROM=TO"), "{e}");
        let e = parse("/bin/sh=/no/such/engine").unwrap_err();
        assert!(e.contains("`/no/such/engine` is not a file"), "{e}");
        assert_eq!(
            parse(" /bin/sh = /bin/sh ;").unwrap(),
            vec![(PathBuf::from("/bin/sh"), PathBuf::from("/bin/sh"))]
        );
    }
}
