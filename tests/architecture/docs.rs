//! The documentation against the code: the README stays short, every relative link in the
//! README and docs/ resolves, and docs/reference/ names every config key the code accepts and
//! every UCI option the built-in engine declares, so the reference cannot drift.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

/// The targets of `[text](target)` links outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn the_readme_fits_on_two_screens() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(n <= 150, "README.md has {n} lines; at most 150");
}

#[test]
fn every_relative_link_in_the_readme_and_docs_resolves() {
    let mut files = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    markdown_files(&root().join("docs"), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in links(&text) {
            let target = target.split_whitespace().next().unwrap_or("");
            let is_url = target.split_once(':').is_some_and(|(scheme, _)| {
                !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphabetic())
            });
            let path = target.split('#').next().unwrap_or("");
            if is_url || path.is_empty() {
                continue;
            }
            if !file.parent().unwrap().join(path).exists() {
                broken.push(format!(
                    "{}: {target}",
                    file.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that resolve to nothing:\n{}",
        broken.join("\n")
    );
}

/// The field names (as TOML keys: `rename`d, `flatten`ed and `skip`ped fields aside) of every
/// struct that declares `#[serde(deny_unknown_fields)]` in `text`: the keys a config accepts.
fn config_keys(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let l = l.trim();
        if !(l.starts_with("#[serde(") && l.contains("deny_unknown_fields")) {
            continue;
        }
        let Some(at) = (i..lines.len()).find(|&j| lines[j].contains("struct ")) else {
            continue;
        };
        let decl = lines[at];
        let name = decl.split("struct ").nth(1).unwrap_or("");
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut attrs) = (decl.matches('{').count(), String::new());
        for line in &lines[at + 1..] {
            if depth == 0 {
                break;
            }
            let t = line.trim();
            if depth == 1 && !t.starts_with("//") {
                if t.starts_with("#[") {
                    attrs.push_str(t);
                } else if let Some((field, _)) = t.split_once(':') {
                    let field = field
                        .trim()
                        .trim_start_matches("pub(crate) ")
                        .trim_start_matches("pub ");
                    let skipped = attrs.contains("flatten")
                        || attrs.contains("(skip)")
                        || attrs.contains(" skip,")
                        || attrs.contains("(skip,")
                        || attrs.contains("skip_deserializing");
                    let renamed = attrs
                        .split("rename = \"")
                        .nth(1)
                        .and_then(|r| r.split('"').next());
                    if !skipped && field.chars().all(|c| c.is_alphanumeric() || c == '_') {
                        out.push((name.clone(), renamed.unwrap_or(field).to_string()));
                    }
                    attrs.clear();
                }
            }
            depth += t.matches('{').count();
            depth -= t.matches('}').count();
        }
    }
    out
}

#[test]
fn every_config_key_the_code_accepts_is_in_the_reference() {
    let mut sources = Vec::new();
    crate::rust_files(&crate::src(), &mut sources);
    let reference = std::fs::read_to_string(root().join("docs/reference/config.md")).unwrap();
    let mut keys = Vec::new();
    let mut missing = Vec::new();
    for file in &sources {
        let text = std::fs::read_to_string(file).unwrap();
        for (structure, key) in config_keys(&text) {
            if !reference.contains(&format!("| `{key}` |")) {
                missing.push(format!("{} ({structure}): {key}", file.display()));
            }
            keys.push(key);
        }
    }
    // the parse itself is checked: these keys exist in the calibration and match configs
    for known in [
        "budget",
        "knob",
        "games_per_pairing",
        "score_cp",
        "seed_option",
    ] {
        assert!(
            keys.iter().any(|k| k == known),
            "{known} not found in the sources"
        );
    }
    assert!(
        missing.is_empty(),
        "config keys missing from docs/reference/config.md (a `| `key` |` row):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_uci_option_the_engine_declares_is_in_the_reference() {
    let mut uci = skillcal::engine::Uci::capturing(skillcal::engine::Options::default());
    let (_, out) = uci.respond("uci");
    let names: Vec<String> = out
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|l| l.split(" type ").next())
        .map(str::to_string)
        .collect();
    assert!(
        names.len() > 10 && names.iter().any(|n| n == "UCI_Elo"),
        "{out:?}"
    );
    let reference = std::fs::read_to_string(root().join("docs/reference/uci-options.md")).unwrap();
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !reference.contains(&format!("| `{n}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "UCI options missing from docs/reference/uci-options.md: {missing:?}"
    );
}

/// The reference's type and default columns against what `uci` declares, so a changed default
/// cannot leave the reference behind. `UCI_Elo`'s default is its table's minimum, so the
/// reference says so in words.
#[test]
fn the_reference_gives_each_uci_option_its_declared_type_and_default() {
    let mut uci = skillcal::engine::Uci::capturing(skillcal::engine::Options::default());
    let (_, out) = uci.respond("uci");
    let reference = std::fs::read_to_string(root().join("docs/reference/uci-options.md")).unwrap();
    let mut wrong = Vec::new();
    for line in out.iter().filter_map(|l| l.strip_prefix("option name ")) {
        let Some((name, rest)) = line.split_once(" type ") else {
            continue;
        };
        let kind = rest.split_whitespace().next().unwrap_or("");
        let default = rest
            .split_once(" default ")
            .map(|(_, d)| {
                d.split(" min ")
                    .next()
                    .unwrap()
                    .split(" var ")
                    .next()
                    .unwrap()
            })
            .unwrap_or("");
        let Some(row) = reference
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
        else {
            continue; // every_uci_option_the_engine_declares_is_in_the_reference says so
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (ref_kind, ref_default) = (cells[2], cells[3].trim_matches('`'));
        if ref_kind.split_whitespace().next() != Some(kind) {
            wrong.push(format!("{name}: type `{ref_kind}`, declared `{kind}`"));
        }
        if name != "UCI_Elo" && ref_default != default {
            wrong.push(format!(
                "{name}: default `{ref_default}`, declared `{default}`"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/reference/uci-options.md against `uci`:\n{}",
        wrong.join("\n")
    );
}
