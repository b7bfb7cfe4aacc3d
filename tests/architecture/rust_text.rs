//! Rust source read as text for the architecture checks: comments, strings and test modules
//! blanked, `use` trees expanded to paths, the paths written inline, the names a file defines.

use std::collections::BTreeSet;

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
pub fn without_tests(code: &str) -> String {
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
pub fn use_statements(code: &str) -> Vec<(bool, String)> {
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
pub fn inline_paths(code: &str) -> Vec<Vec<String>> {
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
pub fn named_paths(code: &str, name: &str) -> Vec<Vec<String>> {
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
pub fn defined(code: &str) -> BTreeSet<String> {
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
