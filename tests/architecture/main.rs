//! The architecture, checked from the sources (docs/architecture.md): dependencies between the
//! top-level modules point one way, no files import each other in a circle of any length (graph.rs
//! reads the file-level import graph), no file imports from a `mod.rs` above it, clap lives only
//! in the CLI, no source file grows past 500 lines and no function past 120 unless listed here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod doc_commands;
mod doc_history;
mod docs;
mod graph;
mod help;
mod rust_text;
mod sizes;

/// Import cycles between top-level modules allowed to stand; any cycle not listed fails the
/// tests. Keep it empty.
const KNOWN_CYCLES: &[&str] = &[];

/// Files allowed to import what a `mod.rs` above them defines; any other fails the tests, and so
/// does a listed one that no longer does. Keep it empty.
const KNOWN_UP: &[&str] = &[];

/// Top-level modules each may use (besides itself), as docs/architecture.md draws them; the
/// graph itself must be acyclic (checked below). The CLI (src/cli, src/main.rs, src/bin) may use
/// everything and is not listed. A file directly under src/ (`src/score.rs`) is a module of its
/// own.
const ALLOWED: &[(&str, &[&str])] = &[
    ("fsutil", &[]),
    ("score", &[]),
    ("strength", &["score", "fsutil"]),
    ("policy", &["fsutil"]),
    ("engine", &["strength", "score", "policy"]),
    ("results", &["fsutil"]),
    ("rating", &["results", "fsutil"]),
    ("arena", &["rating", "results", "strength", "fsutil"]),
    (
        "calibrate",
        &["arena", "rating", "results", "strength", "fsutil"],
    ),
    (
        "analysis",
        &["arena", "rating", "results", "fsutil", "policy"],
    ),
    ("report", &["results", "rating", "fsutil"]),
    ("store", &["arena", "calibrate", "results", "fsutil"]),
    ("think_time", &["analysis", "policy", "strength", "results"]),
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

/// No import circle of any length between files: the strongly connected components of the
/// file-level import graph (graph.rs), faces' re-exports resolved, are single files.
#[test]
fn no_import_cycle_between_files() {
    let g = graph::build(&src());
    let cycles: Vec<String> = graph::cycles(&g.edges)
        .into_iter()
        .map(|c| {
            let names: Vec<String> = c.iter().map(|&i| g.name(i)).collect();
            let arrows: Vec<String> = c
                .iter()
                .flat_map(|&i| {
                    g.edges[i]
                        .iter()
                        .filter(|j| c.contains(j))
                        .map(move |&j| (i, j))
                })
                .map(|(i, j)| format!("{} -> {}", g.name(i), g.name(j)))
                .collect();
            format!("{{{}}} via {}", names.join(", "), arrows.join(", "))
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "files importing each other in a circle: {cycles:#?}"
    );
}

/// A room's files never import what its `mod.rs` (or the mod.rs of a room above) defines: the
/// face re-exports from its files and holds nothing they need, so arrows only run down.
#[test]
fn no_import_runs_back_up() {
    let g = graph::build(&src());
    let up: Vec<String> =
        g.up.iter()
            .map(|&(i, j)| format!("{} -> {}", g.name(i), g.name(j)))
            .collect();
    let new: Vec<&String> = up
        .iter()
        .filter(|u| !KNOWN_UP.contains(&u.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "imports running back up to a mod.rs: {new:#?}"
    );
    let gone: Vec<&&str> = KNOWN_UP
        .iter()
        .filter(|k| !up.iter().any(|u| u == *k))
        .collect();
    assert!(
        gone.is_empty(),
        "KNOWN_UP lists arrows no longer there: {gone:?}"
    );
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
    let leaves: Vec<(String, String)> = rust_text::use_tree("super::{a::{self, B as C}, d::E}")
        .into_iter()
        .map(|(p, n)| (p.join("::"), n))
        .collect();
    let want: Vec<(String, String)> = [
        ("super::a", "a"),
        ("super::a::B", "C"),
        ("super::d::E", "E"),
    ]
    .iter()
    .map(|(p, n)| (p.to_string(), n.to_string()))
    .collect();
    assert_eq!(leaves, want);
    // strings, chars and comments hold no paths; lifetimes survive
    let s =
        rust_text::strip("let a = \"crate::x\"; // crate::y\nlet c = '{'; fn f<'a>(x: &'a str) {}");
    assert!(
        !s.contains("crate::") && s.contains("fn f<'a>(x: &'a str)"),
        "{s}"
    );
    assert_eq!(s.matches('{').count(), 1, "{s}");
    // a three-file circle is one component; a chain is none
    let e = |v: &[usize]| v.iter().copied().collect::<BTreeSet<usize>>();
    let circle = [e(&[1]), e(&[2]), e(&[0]), e(&[0])];
    assert_eq!(graph::cycles(&circle), vec![vec![0, 1, 2]]);
    let chain = [e(&[1]), e(&[2]), e(&[]), e(&[0])];
    assert!(graph::cycles(&chain).is_empty());
}

/// The graph finds the imports a reader sees: a face's re-export followed to its file.
#[test]
fn the_graph_follows_faces() {
    let g = graph::build(&src());
    let find = |rel: &str| (0..g.files.len()).find(|&i| g.name(i) == rel).unwrap();
    let cli = find("cli/calibrate.rs");
    let names: Vec<String> = g.edges[cli].iter().map(|&j| g.name(j)).collect();
    assert!(!names.iter().any(|n| n == "calibrate/mod.rs"), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("calibrate/")),
        "{names:?}"
    );
}
