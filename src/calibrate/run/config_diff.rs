//! Which differences between two calibration configs change the games a run plays. A resumed
//! run adds games under the same player names, so its players (the subject's engine, the path
//! that gives each setting its knobs, every pool member's engine as resolved; members may join),
//! the book, the adjudication rules and the seed must stay as they were; the budget, the goals,
//! the targets, the fit, the plan's choices, concurrency, the anchors and the verification
//! settings may change.

use std::path::Path;

use super::players::pool_engine;
use crate::calibrate::config::{option_string, CalibrationConfig, SubjectConfig};
use crate::calibrate::play::adjudication;
use crate::calibrate::play::EngineSpec;

/// The keys whose change alters the games, where `new` differs from `old` (empty: the same
/// games). A measured pool (`pool.file`) is compared by its members as loaded.
pub fn game_changes(old: &CalibrationConfig, new: &CalibrationConfig) -> Vec<String> {
    let mut keys = Vec::new();
    let mut differ = |key: String, same: bool| {
        if !same {
            keys.push(key);
        }
    };
    differ("seed".into(), old.seed == new.seed);
    let (a, b) = (&old.subject, &new.subject);
    let command = |e: &SubjectConfig| e.command.clone().unwrap_or_else(|| "builtin".into());
    differ(
        "subject.command".into(),
        same_value(&command(a), &command(b)),
    );
    differ("subject.args".into(), a.args == b.args);
    let options = |e: &SubjectConfig| -> Vec<(String, String)> {
        e.options
            .iter()
            .map(|(k, v)| (k.clone(), option_string(v)))
            .collect()
    };
    differ(
        "subject.options".into(),
        same_options(&options(a), &options(b)),
    );
    differ("subject.limits".into(), a.limits == b.limits);
    differ("path".into(), old.path == new.path);
    let names = |c: &CalibrationConfig| -> Vec<String> {
        c.pool.members.iter().map(|m| m.name.clone()).collect()
    };
    // a member the pool has retired since (`pool.retired`) may leave: the fit leaves its games out;
    // a member added since may join (the run's games so far are against the others, and a pool
    // grows when it is resumed with new members)
    let mut kept = names(old);
    kept.retain(|n| !new.pool.retired.contains(n));
    let now = names(new);
    if !kept.iter().all(|n| now.contains(n)) {
        differ("pool.member (the members' names)".into(), false);
    } else {
        for j in 0..new.pool.members.len() {
            let name = &new.pool.members[j].name;
            let Some(i) = old.pool.members.iter().position(|m| &m.name == name) else {
                continue;
            };
            for field in engine_changes(&pool_engine(old, i), &pool_engine(new, j)) {
                differ(
                    format!("pool.member `{}` {field}", new.pool.members[j].name),
                    false,
                );
            }
        }
    }
    let (a, b) = (&old.openings, &new.openings);
    differ(
        "openings.file".into(),
        same_value(&a.file.to_string_lossy(), &b.file.to_string_lossy()),
    );
    differ("openings.order".into(), a.order == b.order);
    differ("openings.plies".into(), a.plies == b.plies);
    // compared as the arena reads them: a rule written out with its defaults is the same rule
    let rules = match (
        adjudication(&old.adjudication),
        adjudication(&new.adjudication),
    ) {
        (Ok(x), Ok(y)) => x == y,
        _ => old.adjudication == new.adjudication,
    };
    differ("adjudication".into(), rules);
    keys
}

/// The fields in which two engines differ: command, args, options, limits.
fn engine_changes(a: &EngineSpec, b: &EngineSpec) -> Vec<&'static str> {
    [
        ("command", same_value(&a.command, &b.command)),
        ("args", a.args == b.args),
        ("options", same_options(&a.options, &b.options)),
        ("limits", a.limits == b.limits),
    ]
    .into_iter()
    .filter(|(_, same)| !same)
    .map(|(f, _)| f)
    .collect()
}

/// The same options as sets (the order they are sent in does not matter).
fn same_options(a: &[(String, String)], b: &[(String, String)]) -> bool {
    let sorted = |o: &[(String, String)]| {
        let mut o = o.to_vec();
        o.sort();
        o
    };
    let (a, b) = (sorted(a), sorted(b));
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
}

/// Two config values alike, or naming the same file (a book, a command with a slash, a
/// `StrengthTable`): a config's relative paths are resolved from its folder, and the same file
/// reached from another working directory reads differently.
fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    if !(a.contains('/') && b.contains('/')) {
        return false;
    }
    let (pa, pb) = (Path::new(a), Path::new(b));
    if let (Ok(x), Ok(y)) = (pa.canonicalize(), pb.canonicalize()) {
        if x == y {
            return true;
        }
    }
    match (std::fs::read(pa), std::fs::read(pb)) {
        (Ok(x), Ok(y)) => x == y,
        // the old path was resolved from the working directory of the run that saved it
        (Err(_), Ok(_)) => pa.file_name() == pb.file_name(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_naming_the_same_file_are_the_same() {
        let book = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/books/2moves_v1.epd");
        let other = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/configs/families/../books/2moves_v1.epd"
        );
        assert!(same_value(book, other));
        assert!(same_value("gone/2moves_v1.epd", book));
        assert!(!same_value(
            book,
            concat!(env!("CARGO_MANIFEST_DIR"), "/configs/default.toml")
        ));
        assert!(!same_value("16", "32"));
    }
}
