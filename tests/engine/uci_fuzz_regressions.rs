//! Inputs that crashed or hung the UCI line handling, found from outside and by the
//! `uci_line` fuzz target (`fuzz/`), replayed through the same entry point the target uses:
//! `Uci::capturing` + `Uci::respond`. Each case lists its lines; all must be answered (every
//! `isready` with `readyok`), no search thread may fail, and only `quit` may end the loop.

use skillcal::engine::{parse_command as parse, Command};
use skillcal::engine::{Options, Uci, SEARCH_FAILED};

fn replay(lines: &[&str]) {
    let mut uci = Uci::capturing(Options {
        hash_mb: 1,
        max_hash_mb: 2,
        ..Options::default()
    });
    for line in lines {
        let (go_on, out) = uci.respond(line);
        let cmd = parse(line).map(|p| p.command);
        if cmd == Some(Command::IsReady) {
            assert!(out.iter().any(|l| l == "readyok"), "{line:?} -> {out:?}");
        }
        assert_eq!(go_on, cmd != Some(Command::Quit), "{line:?} -> {out:?}");
        // a panicking search is caught and answered on: only this line of `Uci::reclaim` says so
        assert!(
            !out.iter().any(|l| l == SEARCH_FAILED),
            "{line:?} -> {out:?}"
        );
    }
}

/// The report's cases: vampirc-uci panicked on u8 fields above 255.
#[test]
fn go_fields_above_a_byte() {
    for go in [
        "go depth 256",
        "go mate 256",
        "go movestogo 256",
        "go wtime 1000 movestogo 300",
        "go nodes 99999999999999999999 movetime 100",
        "go mate 4294967295",
        "go wtime 18446744073709551615 winc 18446744073709551615",
    ] {
        replay(&["position startpos", go, "isready", "quit"]);
    }
}

/// The first input the fuzz target reported (crash-f7148e5e...): not an engine failure but the
/// target's own check, which looked for "search thread failed" anywhere in the output, and the
/// engine echoes unknown lines. Kept as a replay; the target now matches the engine's own line.
#[test]
fn fuzz_echo_of_a_failure_text() {
    let data = b"uci\x0arsready\x0aposition st88888888888\x01\x00\x00\x00\x00\x00\x00\x118 depth 3\x0a888888X888 dsearch thread failedepth 3\x0ais\x00\x00\x00\x00\x00\x00\x00 it\x0a";
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.lines().collect();
    replay(&lines);
}
