//! The arena's reading of an engine's `info` lines (`skillcal::arena::parse_info`, the parser
//! the arena uses on every line an engine prints while searching). A panic here is a panic of
//! the arena on a line an engine printed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillcal::arena::{parse_info, SearchInfo};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut info = SearchInfo::default();
    for line in text.lines().take(16) {
        parse_info(line, &mut info);
    }
});
