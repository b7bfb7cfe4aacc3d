//! Which half of the games a game is in, so the games a model is checked on are not the games it
//! was fitted on, in every run and on every machine: the 64-bit FNV-1a hash of the game's `Site`
//! tag (its bytes as written), its top bit 0 for the fit half and 1 for the check half. FNV-1a
//! is fixed by its definition, unlike std's hasher, which may change between Rust releases.

use std::fmt;
use std::str::FromStr;

/// The games a command reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Fit,
    Check,
    All,
}

impl Half {
    /// Whether a game with this `Site` tag is in the half.
    pub fn holds(self, site: &str) -> bool {
        match self {
            Half::All => true,
            Half::Fit => fnv1a(site.as_bytes()) >> 63 == 0,
            Half::Check => fnv1a(site.as_bytes()) >> 63 == 1,
        }
    }
}

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Half::Fit => "fit",
            Half::Check => "check",
            Half::All => "all",
        })
    }
}

impl FromStr for Half {
    type Err = String;

    fn from_str(s: &str) -> Result<Half, String> {
        match s {
            "fit" => Ok(Half::Fit),
            "check" => Ok(Half::Check),
            "all" => Ok(Half::All),
            _ => Err(format!("half `{s}`: expected fit, check or all")),
        }
    }
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_is_the_published_function_and_the_halves_split_the_games() {
        // the reference values of FNV-1a 64
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let site = "https://lichess.org/DWpef5hg";
        assert_ne!(Half::Fit.holds(site), Half::Check.holds(site));
        assert!(Half::All.holds(site));
    }
}
