//! The architecture, checked from the sources (docs/architecture.md): dependencies between the
//! top-level modules point one way, no two sibling files import each other, clap lives only in
//! the CLI, and no source file grows past 600 lines unless listed here with its reason.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Files allowed past 600 lines, with why one concern needs the room.
const LONG_FILES: &[(&str, &str)] = &[];

/// Import cycles still in the code, to be taken apart; any cycle not listed fails the tests.
/// Empty since issue 12: keep it so.
const KNOWN_CYCLES: &[&str] = &[];

/// Top-level modules each may use (besides itself), as docs/architecture.md draws them; the
/// graph itself must be acyclic (checked below). The CLI (src/cli, src/main.rs, src/bin) may use
/// everything and is not listed. A file directly under src/ (`src/score.rs`) is a module of its
/// own.
const ALLOWED: &[(&str, &[&str])] = &[
    ("score", &[]),
    ("strength", &["score"]),
    ("policy", &[]),
    ("engine", &["strength", "score", "policy"]),
    ("results", &[]),
    ("rating", &["results"]),
    ("arena", &["rating", "results", "strength"]),
    ("calibrate", &["arena", "rating", "results", "strength"]),
    ("analysis", &["arena", "rating", "results"]),
    ("report", &["results", "rating"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// (top-level module, file module) of a source file: `src/rating/fit.rs` -> ("rating", "fit"),
/// `src/rating/mod.rs` -> ("rating", "mod"), `src/score.rs` -> ("score", "mod"), `src/lib.rs` ->
/// ("", "lib").
fn place(path: &Path) -> (String, String) {
    let rel = path.strip_prefix(src()).unwrap();
    let parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    match parts.len() {
        1 if parts[0] == "lib" || parts[0] == "main" => (String::new(), parts[0].clone()),
        1 => (parts[0].clone(), "mod".to_string()),
        _ => (parts[0].clone(), parts[1].clone()),
    }
}

/// Strips `//` comments (doc comments mention paths that are not imports).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// First path segments after every occurrence of `prefix` (`crate::`, `super::`), expanding
/// one level of `{a, b::c}` groups.
fn segments_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let ident = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|x| {
                x.trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|x| !x.is_empty())
            .collect()
    };
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(inner) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut end = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let mut depth = 0;
            let mut start = 0;
            let body = &inner[..end];
            for (k, c) in body.char_indices().chain([(body.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let s = ident(&body[start..k]);
                        if !s.is_empty() {
                            out.push(s);
                        }
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            let s = ident(rest);
            if !s.is_empty() {
                out.push(s);
            }
        }
    }
    out
}

struct Sources {
    files: Vec<(PathBuf, String, String, String)>,
}

fn sources() -> Sources {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    paths.sort();
    let files = paths
        .into_iter()
        .map(|p| {
            let (top, file) = place(&p);
            let text = code(&std::fs::read_to_string(&p).unwrap());
            (p, top, file, text)
        })
        .collect();
    Sources { files }
}

fn is_cli(top: &str, file: &str) -> bool {
    top == "cli" || top == "bin" || (top.is_empty() && file == "main")
}

#[test]
fn top_level_modules_depend_one_way() {
    let s = sources();
    let tops: BTreeSet<String> = s
        .files
        .iter()
        .filter(|f| !f.1.is_empty() && !is_cli(&f.1, &f.2))
        .map(|f| f.1.clone())
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, top, file, text) in &s.files {
        if top.is_empty() || is_cli(top, file) {
            continue;
        }
        for seg in segments_after(text, "crate::") {
            if seg[0] != *top && tops.contains(&seg[0]) {
                edges.entry(top.clone()).or_default().insert(seg[0].clone());
            }
        }
    }
    println!("use crate:: edges between top-level modules:");
    for (a, bs) in &edges {
        println!(
            "  {a} -> {}",
            bs.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let mut bad = Vec::new();
    for (a, bs) in &edges {
        let allowed = ALLOWED
            .iter()
            .find(|(m, _)| m == a)
            .map(|(_, v)| *v)
            .unwrap_or(&[]);
        for b in bs {
            if !allowed.contains(&b.as_str())
                && !KNOWN_CYCLES.contains(&format!("{a} <-> {b}").as_str())
                && !KNOWN_CYCLES.contains(&format!("{b} <-> {a}").as_str())
            {
                bad.push(format!("{a} -> {b}"));
            }
            let cycle = format!("{a} <-> {b}");
            if edges.get(b).is_some_and(|x| x.contains(a))
                && a < b
                && !KNOWN_CYCLES.contains(&cycle.as_str())
            {
                bad.push(format!("{cycle} import each other"));
            }
        }
    }
    assert!(bad.is_empty(), "dependencies against the design: {bad:?}");
}

#[test]
fn the_allowed_dependencies_have_no_cycle() {
    // depth-first search over ALLOWED: a module reached again while still on the path closes a
    // cycle, which the design must not permit even where the code has none yet
    fn visit(m: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) {
        if done.contains(m) {
            return;
        }
        assert!(
            !path.iter().any(|p| p == m),
            "ALLOWED permits a cycle: {} -> {m}",
            path.join(" -> ")
        );
        path.push(m.to_string());
        let next = ALLOWED
            .iter()
            .find(|(a, _)| *a == m)
            .map_or(&[][..], |x| x.1);
        for n in next {
            visit(n, path, done);
        }
        path.pop();
        done.insert(m.to_string());
    }
    let mut done = BTreeSet::new();
    for (m, _) in ALLOWED {
        visit(m, &mut Vec::new(), &mut done);
    }
}

#[test]
fn no_two_sibling_files_import_each_other() {
    let s = sources();
    let mut edges: BTreeSet<(String, String, String)> = BTreeSet::new();
    let siblings: BTreeSet<(String, String)> =
        s.files.iter().map(|f| (f.1.clone(), f.2.clone())).collect();
    for (_, top, file, text) in &s.files {
        if top.is_empty() || file == "mod" {
            continue;
        }
        let mut targets: Vec<String> = segments_after(text, "super::")
            .into_iter()
            .map(|v| v[0].clone())
            .collect();
        targets.extend(
            segments_after(text, "crate::")
                .into_iter()
                .filter(|v| v[0] == *top && v.len() > 1)
                .map(|v| v[1].clone()),
        );
        for t in targets {
            if t != *file && t != "mod" && siblings.contains(&(top.clone(), t.clone())) {
                edges.insert((top.clone(), file.clone(), t));
            }
        }
    }
    let cycles: Vec<String> = edges
        .iter()
        .filter(|(m, a, b)| a < b && edges.contains(&(m.clone(), b.clone(), a.clone())))
        .map(|(m, a, b)| format!("{m}/{a}.rs <-> {m}/{b}.rs"))
        .filter(|c| !KNOWN_CYCLES.contains(&c.as_str()))
        .collect();
    assert!(cycles.is_empty(), "files importing each other: {cycles:?}");
}

#[test]
fn clap_only_in_the_cli() {
    let s = sources();
    let users: Vec<String> = s
        .files
        .iter()
        .filter(|(_, top, file, text)| !is_cli(top, file) && text.contains("clap"))
        .map(|(p, ..)| p.display().to_string())
        .collect();
    assert!(users.is_empty(), "clap used below the CLI: {users:?}");
}

/// The library reports typed errors (thiserror); anyhow is the CLI's.
#[test]
fn anyhow_only_in_the_cli() {
    let s = sources();
    let users: Vec<String> = s
        .files
        .iter()
        .filter(|(_, top, file, text)| {
            !is_cli(top, file) && (text.contains("anyhow::") || text.contains("use anyhow"))
        })
        .map(|(p, ..)| p.display().to_string())
        .collect();
    assert!(users.is_empty(), "anyhow used below the CLI: {users:?}");
}

#[test]
fn no_file_over_600_lines_without_a_reason() {
    let s = sources();
    let mut long = Vec::new();
    for (p, ..) in &s.files {
        let n = std::fs::read_to_string(p).unwrap().lines().count();
        let rel = p
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if n > 600 && !LONG_FILES.iter().any(|(f, _)| *f == rel) {
            long.push(format!("{rel} ({n} lines)"));
        }
    }
    assert!(long.is_empty(), "files over 600 lines: {long:?}");
}

#[test]
fn the_checker_sees_imports() {
    // the parser this test relies on: grouped, nested and plain paths
    let segs = segments_after(
        "use crate::{rating::{Game, rate}, arena};\nlet x = crate::report::gen();",
        "crate::",
    );
    let firsts: Vec<&str> = segs.iter().map(|v| v[0].as_str()).collect();
    assert_eq!(firsts, ["rating", "arena", "report"]);
    let segs = segments_after("use super::fit::Fit; use super::{a, b::C};", "super::");
    let firsts: Vec<&str> = segs.iter().map(|v| v[0].as_str()).collect();
    assert_eq!(firsts, ["fit", "a", "b"]);
}
