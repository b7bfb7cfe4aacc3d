//! The file-level import graph of the library, read from the sources: which file each `use` and
//! each `crate::`/`super::`/`self::` path lands in. A path through a folder's `mod.rs` to a name
//! it re-exports (`pub use child::Name`) lands in the file that holds the name, so the face of a
//! room adds no arrows of its own; a plain file that re-exports is a stop like any other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::rust_text::{
    defined, inline_paths, named_paths, strip, use_statements, use_tree, without_tests,
};

/// One library source file.
pub struct File {
    pub path: PathBuf,
    /// Its module path from the crate root: `src/calibrate/fit.rs` -> `["calibrate", "fit"]`.
    pub module: Vec<String>,
    pub is_mod: bool,
    /// The code with comments, strings and `#[cfg(test)]` modules blanked out.
    pub code: String,
}

pub struct Graph {
    pub files: Vec<File>,
    /// `edges[i]`: the files file `i` imports from (never itself).
    pub edges: Vec<BTreeSet<usize>>,
    /// Edges that reach an item defined in the `mod.rs` of a folder above the importer.
    pub up: BTreeSet<(usize, usize)>,
}

impl Graph {
    pub fn name(&self, i: usize) -> String {
        let rel = self.files[i].path.strip_prefix(super::src()).unwrap();
        rel.to_string_lossy().into_owned()
    }
}

struct Module {
    file: usize,
    is_mod: bool,
    /// Names bound by this file's `use` statements, to the path they name.
    uses: BTreeMap<String, Vec<String>>,
    defines: BTreeSet<String>,
    children: BTreeSet<String>,
}

/// Reads every library file under `src/` (not `main.rs`, not `src/bin`: other crates).
pub fn build(src: &Path) -> Graph {
    let mut paths = Vec::new();
    super::rust_files(src, &mut paths);
    paths.sort();
    let mut files = Vec::new();
    for p in paths {
        let rel: Vec<String> = p
            .strip_prefix(src)
            .unwrap()
            .iter()
            .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if rel[0] == "main" || rel[0] == "bin" {
            continue;
        }
        let is_mod = matches!(rel.last().map(String::as_str), Some("mod" | "lib"));
        let mut module = rel.clone();
        if is_mod {
            module.pop();
        }
        let code = without_tests(&strip(&std::fs::read_to_string(&p).unwrap()));
        files.push(File {
            path: p,
            module,
            is_mod,
            code,
        });
    }
    let mut modules: BTreeMap<Vec<String>, Module> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        modules.insert(
            f.module.clone(),
            Module {
                file: i,
                is_mod: f.is_mod,
                uses: BTreeMap::new(),
                defines: defined(&f.code),
                children: BTreeSet::new(),
            },
        );
    }
    let keys: Vec<Vec<String>> = modules.keys().cloned().collect();
    for k in &keys {
        if let Some((last, parent)) = k.split_last() {
            if let Some(m) = modules.get_mut(parent) {
                m.children.insert(last.clone());
            }
        }
    }
    for f in &files {
        let children = modules[&f.module].children.clone();
        let mut uses = BTreeMap::new();
        for (_, tree) in use_statements(&f.code) {
            for (path, name) in use_tree(&tree) {
                if let Some(a) = absolute(&f.module, &children, &path) {
                    uses.insert(name, a);
                }
            }
        }
        modules.get_mut(&f.module).unwrap().uses = uses;
    }
    let mut edges = vec![BTreeSet::new(); files.len()];
    let mut up = BTreeSet::new();
    for (i, f) in files.iter().enumerate() {
        let children = &modules[&f.module].children;
        let mut targets: Vec<Vec<String>> = Vec::new();
        for (public, tree) in use_statements(&f.code) {
            for (path, name) in use_tree(&tree) {
                let Some(a) = absolute(&f.module, children, &path) else {
                    continue;
                };
                if modules.contains_key(&a) {
                    // a module brought in by name: its uses (`calibrate::verify(..)`) are the
                    // imports
                    targets.extend(
                        named_paths(&f.code, &name)
                            .into_iter()
                            .map(|rest| a.iter().chain(&rest).cloned().collect::<Vec<String>>()),
                    );
                } else if !(public && f.is_mod) {
                    // (a face's re-export is resolved where it is used)
                    targets.push(a);
                }
            }
        }
        targets.extend(
            inline_paths(&f.code)
                .into_iter()
                .filter_map(|path| absolute(&f.module, children, &path)),
        );
        for t in targets {
            if modules.contains_key(&t) {
                continue; // a module named alone: its uses are read through its name
            }
            if let Some(j) = resolve(&modules, &t, 0) {
                if std::env::var("GRAPH_DEBUG").is_ok_and(|d| f.path.ends_with(d)) {
                    eprintln!("{} -> {}", t.join("::"), files[j].path.display());
                }
                if j != i {
                    edges[i].insert(j);
                    let g = &files[j];
                    if g.is_mod && f.module.starts_with(&g.module) && f.module != g.module {
                        up.insert((i, j));
                    }
                }
            }
        }
    }
    Graph { files, edges, up }
}

/// A path written in module `module` made absolute from the crate root (no leading `crate`);
/// None for another crate's path (`std::fmt`).
fn absolute(
    module: &[String],
    children: &BTreeSet<String>,
    path: &[String],
) -> Option<Vec<String>> {
    let mut here: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            here.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                here.pop();
                rest = &rest[1..];
            }
        }
        Some(first) if children.contains(first) => {}
        _ => return None,
    }
    here.extend(rest.iter().cloned());
    Some(here)
}

/// The file holding what `path` names: the deepest module on the path, and through a mod.rs's
/// `use` on to the file the name comes from.
fn resolve(
    modules: &BTreeMap<Vec<String>, Module>,
    path: &[String],
    depth: usize,
) -> Option<usize> {
    let n = (0..=path.len())
        .rev()
        .find(|&n| modules.contains_key(&path[..n]))?;
    let m = &modules[&path[..n]];
    let rest = &path[n..];
    let Some(name) = rest.first() else {
        return Some(m.file);
    };
    if m.defines.contains(name) || !m.is_mod || depth > 16 {
        return Some(m.file);
    }
    match m.uses.get(name) {
        Some(target) => {
            let t: Vec<String> = target.iter().chain(&rest[1..]).cloned().collect();
            resolve(modules, &t, depth + 1).or(Some(m.file))
        }
        None => Some(m.file),
    }
}

/// Strongly connected components with more than one file (Tarjan's algorithm).
pub fn cycles(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct T<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in t.edges[v].iter() {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let n = edges.len();
    let mut t = T {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
}
