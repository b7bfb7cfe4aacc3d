//! The file-level import graph of the library, read from the sources: which file each `use` and
//! each `crate::`/`super::`/`self::` path lands in. A path through a folder's `mod.rs` to a name
//! it re-exports (`pub use child::Name`) lands in the file that holds the name, so the face of a
//! room adds no arrows of its own; a plain file that re-exports is a stop like any other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// Blanks out comments, string and char literals (keeping line breaks), so that text in them is
/// never read as a path.
pub fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !i.checked_sub(1).is_some_and(|k| is_ident(b[k]))
        {
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            j += 1;
            while j < b.len() {
                if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                out.push(blank(b[j]));
                j += 1;
            }
            out.push('"');
            i = j;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // a char literal ('x', '\n', '\u{..}') or a lifetime ('a)
            let close = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(k) => {
                    out.push_str("' '");
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The index just past the brace block opening at or after `from`.
fn block_end(text: &str, from: usize) -> usize {
    let mut depth = 0;
    for (k, c) in text[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return from + k + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// Removes `#[cfg(test)]` items (test modules and test-only functions): tests may reach anywhere.
fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(i) = out.find("#[cfg(test)]") {
        let rest = &out[i..];
        let brace = rest.find('{');
        let semi = rest.find(';');
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => i + s + 1,
            (Some(b), _) => block_end(&out, i + b),
            (None, Some(s)) => i + s + 1,
            (None, None) => out.len(),
        };
        let blanked: String = out[i..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(i..end, &blanked);
    }
    out
}

/// The leaf paths of a use tree (`a::{b, c::{d as e, self}}` -> `a::b`, `a::c::d`, `a::c`),
/// each with the name it binds.
pub fn use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree: String = tree
        .chars()
        .filter(|c| !c.is_whitespace() || *c == ' ')
        .collect();
    let mut out = Vec::new();
    expand(&[], tree.trim(), &mut out);
    out
}

fn expand(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim().trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let mut path = prefix.to_vec();
        path.extend(segs(&tree[..open]));
        let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (k, c) in body.char_indices().chain([(body.len(), ',')]) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if !body[start..k].trim().is_empty() {
                        expand(&path, &body[start..k], out);
                    }
                    start = k + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let (p, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p, Some(a.trim().to_string())),
        None => (tree, None),
    };
    let mut path = prefix.to_vec();
    path.extend(segs(p));
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    if let Some(last) = path.last().cloned() {
        out.push((path, alias.unwrap_or(last)));
    }
}

fn segs(s: &str) -> Vec<String> {
    s.split("::")
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// `use` statements: (is `pub`, the tree's text).
fn use_statements(code: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].find("use ") {
        let i = at + k;
        at = i + 4;
        if i > 0 && is_ident(code[..i].chars().last().unwrap()) {
            continue;
        }
        let line_start = code[..i].rfind(['\n', ';', '{', '}']).map_or(0, |s| s + 1);
        let head = code[line_start..i].trim();
        let public = head.starts_with("pub");
        if !(head.is_empty() || public || head.starts_with("#[")) {
            continue;
        }
        let end = code[i..].find(';').map_or(code.len(), |e| i + e);
        out.push((public, code[i + 4..end].to_string()));
        at = end;
    }
    out
}

/// Every path written from `crate::`, `super::` or `self::` outside `use` statements.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for prefix in ["crate::", "super::", "self::"] {
        let mut at = 0;
        while let Some(k) = code[at..].find(prefix) {
            let i = at + k;
            at = i + prefix.len();
            if i > 0 && is_ident(code[..i].chars().last().unwrap()) {
                continue;
            }
            let mut path = vec![prefix.trim_end_matches("::").to_string()];
            let mut rest = &code[at..];
            loop {
                let id: String = rest.chars().take_while(|c| is_ident(*c)).collect();
                if id.is_empty() {
                    break;
                }
                path.push(id.clone());
                rest = &rest[id.len()..];
                match rest.strip_prefix("::") {
                    Some(r) if !r.starts_with('{') && !r.starts_with('<') => rest = r,
                    _ => break,
                }
            }
            // a `use` group's head (`crate::a::{..}`) is read by the use statement's parser
            if path.len() > 1 && path.last().unwrap() != "super" && !rest.starts_with("::{") {
                out.push(path);
            }
        }
    }
    out
}

/// The paths after each `name::` in the code (`name::x::Y` -> `["x", "Y"]`).
fn named_paths(code: &str, name: &str) -> Vec<Vec<String>> {
    let prefix = format!("{name}::");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].find(&prefix) {
        let i = at + k;
        at = i + prefix.len();
        if i > 0 && (is_ident(code[..i].chars().last().unwrap()) || code[..i].ends_with(':')) {
            continue;
        }
        let mut path = Vec::new();
        let mut rest = &code[at..];
        loop {
            let id: String = rest.chars().take_while(|c| is_ident(*c)).collect();
            if id.is_empty() {
                break;
            }
            path.push(id.clone());
            rest = &rest[id.len()..];
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if !path.is_empty() {
            out.push(path);
        }
    }
    out
}

/// Names a file defines at its top level (functions, types, constants, macros, inline modules).
fn defined(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let words: Vec<&str> = code
        .split(|c: char| !is_ident(c) && c != '!')
        .filter(|w| !w.is_empty())
        .collect();
    for w in words.windows(2) {
        if matches!(
            w[0],
            "fn" | "struct"
                | "enum"
                | "trait"
                | "type"
                | "const"
                | "static"
                | "union"
                | "macro_rules!"
        ) {
            out.insert(w[1].to_string());
        }
    }
    out
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
