//! The command line's `--help` against the engine: the texts that list the weakening families
//! name every one the engine's `Style` option offers, so a family added to the engine cannot be
//! missing from the help a user reads.

use std::process::Command;

const SKILLCAL: &str = env!("CARGO_BIN_EXE_skillcal");

fn help(args: &[&str]) -> String {
    let o = Command::new(SKILLCAL).args(args).output().unwrap();
    assert!(o.status.success(), "skillcal {args:?}: {o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The values of the `Style` combo, as `uci` declares them.
fn style_values() -> Vec<String> {
    let mut uci = skillcal::engine::Uci::capturing(skillcal::engine::Options::default());
    let (_, out) = uci.respond("uci");
    let line = out
        .iter()
        .find(|l| l.starts_with("option name Style type combo "))
        .unwrap_or_else(|| panic!("no Style combo in {out:#?}"));
    line.split(" var ").skip(1).map(str::to_string).collect()
}

/// Whether `text` holds `word` as a word of its own (`nodes` in "nodes, gbm", not in
/// "LimitNodes").
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .any(|w| w == word)
}

#[test]
fn help_texts_name_every_family_the_style_option_offers() {
    let styles = style_values();
    assert!(
        styles.len() >= 8 && styles.iter().any(|s| s == "human"),
        "{styles:?}"
    );
    // `uci --help`: the paragraph that says what `Style` sets names every value
    let uci = help(&["uci", "--help"]);
    let style_line = uci
        .lines()
        .find(|l| l.starts_with("Style sets how a level plays"))
        .unwrap_or_else(|| panic!("uci --help has no Style paragraph:\n{uci}"));
    let missing: Vec<&String> = styles.iter().filter(|s| !has_word(style_line, s)).collect();
    assert!(
        missing.is_empty(),
        "uci --help misses {missing:?}:\n{style_line}"
    );
    // `calibrate --help`: `--install` names every Style that has a table (a family)
    let calibrate = help(&["calibrate", "--help"]);
    let install = calibrate
        .lines()
        .find(|l| l.trim_start().starts_with("--install"))
        .unwrap_or_else(|| panic!("calibrate --help has no --install:\n{calibrate}"));
    let families: Vec<&String> = styles
        .iter()
        .filter(|s| skillcal::strength::Family::parse(s).is_some())
        .collect();
    assert_eq!(
        families.len(),
        skillcal::strength::Family::ALL.len(),
        "{styles:?}"
    );
    let missing: Vec<&&String> = families.iter().filter(|s| !has_word(install, s)).collect();
    assert!(
        missing.is_empty(),
        "calibrate --help's --install misses {missing:?}:\n{install}"
    );
    // and neither says the calibration is of the built-in engine alone
    let top = help(&["--help"]);
    assert!(!top.contains("Calibrate the built-in engine"), "{top}");
}
