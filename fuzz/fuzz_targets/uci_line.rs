//! The engine's UCI line handling: every input (split into lines) must be answered without a
//! panic, every `isready` with `readyok`, and only `quit` may end the loop.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillcal::engine::uci::{Options, Uci};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut uci = Uci::capturing(Options {
        hash_mb: 1,
        max_hash_mb: 2,
        ..Options::default()
    });
    for line in text.lines().take(64) {
        let (go_on, out) = uci.respond(line);
        if skillcal::engine::command::parse(line)
            .is_some_and(|p| p.command == skillcal::engine::command::Command::IsReady)
        {
            assert!(out.iter().any(|l| l == "readyok"), "{line:?} -> {out:?}");
        }
        assert!(
            !out.iter().any(|l| l == skillcal::engine::uci::SEARCH_FAILED),
            "{line:?} -> {out:?}"
        );
        if !go_on {
            assert_eq!(
                skillcal::engine::command::parse(line).map(|p| p.command),
                Some(skillcal::engine::command::Command::Quit)
            );
            break;
        }
    }
});
