//! The guide and the reference give instructions and rules, not history: no date, no issue
//! number, no rustdoc path, and no run folder cited as a reason. History lives in CHANGELOG.md,
//! evidence in docs/results/ (whose pages name their runs), code paths in the API docs.
//!
//! A run folder is a path under the repository's `results/`. A page of the guide or the
//! reference may name one only as the reader's own output or input:
//! - inside a code block (the commands a reader runs, and what they print);
//! - in prose, when the page's code blocks name that path or a folder holding it (the folder a
//!   command of the page writes with `--out`, and the files below it);
//! - the shipped pool's folder and its data files (`.csv`, `.toml`), which the binary embeds and
//!   configs load as `[pool] file`.
//!
//! Any other mention, and every link into `results/`, cites a run as a reason and is refused.

use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `path` with `.` and `..` resolved by the text alone (the folder need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The run-folder path a token names, relative to the repository root (`results/...`), if any.
/// A token starting with `./` or `../` is relative to the page, as a link is; any other is
/// relative to the root, as the pages' commands are.
fn run_path(page: &Path, token: &str) -> Option<String> {
    if !token.contains("results/") {
        return None;
    }
    let token = token.trim_end_matches(['.', ',', ':', ';']);
    let full = if token.starts_with("./") || token.starts_with("../") {
        page.parent()?.join(token)
    } else {
        root().join(token)
    };
    let rel = normalize(&full).strip_prefix(root()).ok()?.to_path_buf();
    let rel = rel.to_string_lossy().replace('\\', "/");
    (rel == "results" || rel.starts_with("results/")).then_some(rel)
}

/// The path-like words of a line: runs of the characters a path is written with.
fn path_tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)))
        .filter(|t| !t.is_empty())
}

/// The `](target)` link targets of a line, and the line with them taken out.
fn split_links(line: &str) -> (Vec<&str>, String) {
    let (mut targets, mut prose, mut rest) = (Vec::new(), String::new(), line);
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        prose.push_str(&rest[..i + 1]);
        targets.push(after[..end].split_whitespace().next().unwrap_or(""));
        rest = &after[end + 1..];
    }
    prose.push_str(rest);
    (targets, prose)
}

/// Whether each line of a page is code: inside a fenced block, or indented by four spaces after
/// a blank line or code (an indented line inside a paragraph or a list item is prose).
fn code_lines(text: &str) -> Vec<bool> {
    let (mut fenced, mut after_break) = (false, true);
    text.lines()
        .map(|l| {
            let code = if l.trim_start().starts_with("```") {
                fenced = !fenced;
                true
            } else {
                fenced || (after_break && (l.starts_with("    ") || l.starts_with('\t')))
            };
            after_break = code || l.trim().is_empty();
            code
        })
        .collect()
}

fn is_shipped_pool(path: &str) -> bool {
    path == "results/pool"
        || path
            .strip_prefix("results/pool/")
            .is_some_and(|f| !f.contains('/') && (f.ends_with(".csv") || f.ends_with(".toml")))
}

/// Each line of `text` (the page `page`) that holds history, with its line number and what.
pub(crate) fn history(page: &Path, text: &str) -> Vec<(usize, String)> {
    let is_date = |w: &[u8]| {
        w.len() == 10
            && w.iter().enumerate().all(|(i, &c)| {
                if i == 4 || i == 7 {
                    c == b'-'
                } else {
                    c.is_ascii_digit()
                }
            })
    };
    let code = code_lines(text);
    // the run paths the page's code blocks name: the reader's own output and input
    let own: Vec<String> = text
        .lines()
        .zip(&code)
        .filter(|(_, &c)| c)
        .flat_map(|(l, _)| path_tokens(l).filter_map(|t| run_path(page, t)))
        .collect();
    let is_own = |p: &str| {
        own.iter().any(|o| {
            p == o
                || p.strip_prefix(o.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        })
    };
    let mut found = Vec::new();
    for (i, (line, &is_code)) in text.lines().zip(&code).enumerate() {
        let lower = line.to_ascii_lowercase();
        let issue = lower.match_indices("issue ").any(|(k, _)| {
            lower[k + 6..]
                .trim_start_matches('#')
                .starts_with(|c: char| c.is_ascii_digit())
        });
        if issue {
            found.push((i + 1, "an issue number".to_string()));
        }
        if line.as_bytes().windows(10).any(is_date) {
            found.push((i + 1, "a date".to_string()));
        }
        if line.contains("[`super::") || line.contains("[`crate::") {
            found.push((i + 1, "a rustdoc path".to_string()));
        }
        if is_code {
            continue;
        }
        let (targets, prose) = split_links(line);
        for t in targets {
            if let Some(p) = run_path(page, t.split('#').next().unwrap_or("")) {
                found.push((i + 1, format!("a link into a run folder ({p})")));
            }
        }
        for p in path_tokens(&prose).filter_map(|t| run_path(page, t)) {
            if !is_own(&p) && !is_shipped_pool(&p) {
                found.push((i + 1, format!("a run folder cited ({p})")));
            }
        }
    }
    found
}

#[test]
fn the_guide_and_reference_hold_no_history_or_rustdoc_paths() {
    let mut files = Vec::new();
    crate::docs::markdown_files(&root().join("docs/guide"), &mut files);
    crate::docs::markdown_files(&root().join("docs/reference"), &mut files);
    assert!(files.len() > 10, "{files:?}");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (n, what) in history(file, &text) {
            found.push(format!(
                "{}:{n}: {what}: {}",
                file.strip_prefix(root()).unwrap().display(),
                lines[n - 1]
            ));
        }
    }
    assert!(
        found.is_empty(),
        "history in the guide or reference (dates and changes belong in CHANGELOG.md, runs \
         cited as evidence in docs/results/):\n{}",
        found.join("\n")
    );
}

/// Planted examples: each kind of history is found, and what a reader needs is not.
#[test]
fn the_history_rule_finds_each_kind_and_spares_instructions() {
    let page = root().join("docs/guide/example.md");
    let finds = |text: &str| history(&page, text);
    for bad in [
        "The default until 2026-12-06.",
        "Fixed by issue #11.",
        "See [`super::self_scale`].",
        "results/range/verify shows an RMS of 32.",
        "Its RMS is 32 (see results/range/verify).",
        "The ladder: `results/pool/report.md`.",
        "What to expect ([the run](../../results/fairy-skill/README.md)).",
        "Its data: [pool.csv](../../results/pool/pool.csv).",
        "A run elsewhere: `results/my-run/uci_elo_table.csv`.",
    ] {
        assert_eq!(finds(bad).len(), 1, "not found exactly once: {bad}");
    }
    for good in [
        "    skillcal calibrate configs/default.toml --out results/my-run\n\
         \n\
         It writes `results/my-run/uci_elo_table.csv` and `results/my-run/report.html`.",
        "    scripts/calibrate.sh    # into results/default\n\nThen `results/default/report.html`.",
        "The shipped pool is `results/pool`; `[pool] file = \"../../results/pool\"`.",
        "Mapped by `results/pool/human-scale.csv`.",
        "The records: [people](../results/people.md#variety), docs/results/range.md.",
        "    cat results/range/verify/verify.csv",
    ] {
        assert!(finds(good).is_empty(), "{good}: {:?}", finds(good));
    }
}

/// The README's first screen is for use: what skillcal is, how to play a level in a GUI or on
/// lichess-bot, and the two commands in 40 lines, with no history in its first 60.
#[test]
fn the_readme_opens_with_use_and_no_history() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let first: Vec<&str> = text.lines().take(60).collect();
    let screen = first[..40.min(first.len())].join("\n");
    for needed in [
        "UCI chess engine",
        "## Play against it",
        "UCI_Elo",
        "uci_options:",
        "scripts/calibrate.sh",
        "scripts/test.sh",
    ] {
        assert!(
            screen.contains(needed),
            "README.md's first 40 lines lack `{needed}`"
        );
    }
    let found = history(&root().join("README.md"), &first.join("\n"));
    assert!(
        found.is_empty(),
        "history in README.md's first 60 lines: {found:?}"
    );
}
