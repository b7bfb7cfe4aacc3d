//! Sizes: no source or test file past 500 lines and no function past 120 (the engine's search
//! aside) unless listed here with why.

use std::path::Path;

use crate::{rust_files, rust_text, src};

/// Files (under src/ or tests/) allowed past 500 lines, with why.
const LONG_FILES: &[(&str, &str)] = &[];

/// Functions allowed past 120 lines; the engine's search (`engine/search/`) is exempt: its loops
/// read best whole.
const LONG_FNS: &[&str] = &[];

#[test]
fn no_file_over_500_lines_without_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    rust_files(&root.join("tests"), &mut paths);
    assert!(paths.len() > 100, "the walk found {} files", paths.len());
    let (mut long, mut stale) = (Vec::new(), Vec::new());
    for p in &paths {
        let n = std::fs::read_to_string(p).unwrap().lines().count();
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let listed = LONG_FILES.iter().any(|(f, _)| *f == rel);
        if n > 500 && !listed {
            long.push(format!("{rel} ({n} lines)"));
        }
        if n <= 500 && listed {
            stale.push(rel);
        }
    }
    assert!(long.is_empty(), "files over 500 lines: {long:?}");
    assert!(
        stale.is_empty(),
        "LONG_FILES lists files no longer long: {stale:?}"
    );
}

/// Each function's lines, from `fn` to its closing brace (comments and strings blanked).
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].find("fn ") {
        let i = at + k;
        at = i + 3;
        if i > 0
            && code[..i]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let name: String = code[at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (Some(open), semi) = (code[at..].find('{'), code[at..].find(';')) else {
            continue;
        };
        if semi.is_some_and(|s| s < open) || name.is_empty() {
            continue;
        }
        let mut depth = 0;
        let mut end = code.len();
        for (j, c) in code[at + open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + open + j;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((name, code[i..end].matches('\n').count() + 1));
    }
    out
}

#[test]
fn no_function_over_120_lines_outside_the_search() {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let (mut long, mut still) = (Vec::new(), Vec::new());
    for p in paths {
        let rel = p
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel.starts_with("engine/search/") {
            continue;
        }
        let code = rust_text::strip(&std::fs::read_to_string(&p).unwrap());
        for (name, n) in function_lengths(&code) {
            let key = format!("{rel}::{name}");
            if n > 120 && !LONG_FNS.contains(&key.as_str()) {
                long.push(format!("{key} ({n} lines)"));
            }
            if n > 120 {
                still.push(key);
            }
        }
    }
    assert!(long.is_empty(), "functions over 120 lines: {long:?}");
    let stale: Vec<&&str> = LONG_FNS
        .iter()
        .filter(|f| !still.iter().any(|k| k == **f))
        .collect();
    assert!(
        stale.is_empty(),
        "LONG_FNS lists functions no longer long: {stale:?}"
    );
    assert_eq!(
        function_lengths("fn a() {\n  if x { y }\n}\nfn b();\nfn c() {}"),
        [("a".to_string(), 3), ("c".to_string(), 1)]
    );
}
