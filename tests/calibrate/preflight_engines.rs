//! Every engine a calibration will play is checked before the run writes anything: the
//! subject at both ends of its path and each pool member, started once by the arena's own
//! preflight, with their limits and the adjudication rules. These errors came from the first
//! match, after batch 0's plans were written, and a rerun with the config corrected resumed
//! those plans and failed again with the old error.

use std::path::Path;

use crate::support::arena::{skillcal_in, STOCKFISH};
use crate::support::calibrate::{tiny_dir, TINY};

#[test]
fn an_engine_or_rule_that_cannot_play_fails_before_any_folder_naming_its_key() {
    assert!(Path::new(STOCKFISH).exists(), "{STOCKFISH} missing");
    let (dir, _) = tiny_dir("preflight-engines");
    let cases: [(&str, &str, &[&str]); 12] = [
        // a member is the engine its rating was measured with, by its `id name`
        (
            "name = \"sf-skill0\"",
            "name = \"sf-skill0\"\nid_name = \"Stockfish 99\"",
            &[
                "key pool.member[0] (sf-skill0)",
                "answers `uci` with \"id name Stockfish 15.1\"",
                "measured with \"Stockfish 99\"",
            ],
        ),
        (
            "tc = \"30+0.3\"",
            "tc = \"abc\"",
            &["key subject.limits.tc: time control 'abc'"],
        ),
        (
            "options = { Hash = 1, Threads = 1 }\nlimits = { tc",
            "options = { Hahs = 1, Threads = 1 }\nlimits = { tc",
            &["key subject.options", "unknown UCI option(s) Hahs"],
        ),
        (
            "\"Skill Level\" = 0",
            "\"Skill Levle\" = 0",
            &["key pool.member[0] (sf-skill0)", "Skill Levle"],
        ),
        // checked before it is sent: Stockfish 15.1 aborts on it, naming nothing
        (
            "\"Skill Level\" = 0",
            "\"Skill Level\" = \"three\"",
            &[
                "key pool.member[0] (sf-skill0)",
                "Skill Level = 'three' is not accepted: allowed: an integer from 0 to 20",
            ],
        ),
        (
            "\"Skill Level\" = 1 }",
            "\"Skill Level\" = 99 }",
            &["key pool.member[1] (sf-skill1)", "Skill Level = '99'"],
        ),
        (
            "limits = { nodes = 200 }",
            "limits = { nodes = 0 }",
            &["key pool.limits.nodes: must be positive"],
        ),
        (
            "max_plies = 120",
            "max_plies = 0",
            &["key adjudication.max_plies: must be positive"],
        ),
        (
            "resign = { score_cp = 600, moves = 3 }",
            "resign = { score_cp = 0, moves = 0 }",
            &["key adjudication.resign"],
        ),
        ("to = 256", "to = nan", &["key `path[0] (LimitNodes).to`"]),
        ("to = 256", "to = inf", &["key `path[0] (LimitNodes).to`"]),
        (
            "knob = \"LimitNodes\"",
            "knob = \"LimitNode\"",
            &["[[path]] at t = 0", "unknown UCI option(s) LimitNode;"],
        ),
    ];
    for (from, to, expect) in cases {
        let text = TINY.replace(from, to);
        assert_ne!(text, TINY, "{to}: the replacement missed");
        std::fs::write(dir.join("bad.toml"), &text).unwrap();
        let (ok, stderr) = skillcal_in(&dir, &["calibrate", "bad.toml", "--out", "runs/bad"]);
        assert!(!ok, "{to}: accepted");
        assert!(stderr.contains("bad.toml: "), "{to}: no file in {stderr}");
        for e in expect {
            assert!(stderr.contains(e), "{to}: no `{e}` in {stderr}");
        }
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(
            !dir.join("runs/bad").exists(),
            "{to}: a run folder was made"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
