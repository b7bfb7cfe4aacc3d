//! The arena's reading of an engine's `info` lines. `arena::engine::parse_info` is private, so
//! this target repeats its steps against what is public: drop `wdl W D L`, then
//! `vampirc_uci::parse_one`, then read the attributes as `parse_info` does. A panic here is a
//! panic of the arena on a line an engine printed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vampirc_uci::{UciInfoAttribute, UciMessage};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(16) {
        let t = line.trim();
        if !(t.starts_with("info") && t.contains(" score ")) {
            continue;
        }
        let owned;
        let t = match t.find(" wdl ") {
            Some(i) => {
                let mut toks: Vec<&str> = t[..i].split_whitespace().collect();
                toks.extend(t[i..].split_whitespace().skip(4));
                owned = toks.join(" ");
                owned.as_str()
            }
            None => t,
        };
        if let UciMessage::Info(attrs) = vampirc_uci::parse_one(t) {
            for a in attrs {
                match a {
                    UciInfoAttribute::Depth(d) => {
                        let _ = d as u32;
                    }
                    UciInfoAttribute::Score { cp, mate, .. } => {
                        let _ = (cp, mate.map(|m| m as i32));
                    }
                    _ => {}
                }
            }
        }
    }
});
