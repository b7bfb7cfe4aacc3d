//! The game plan: which engines meet, in which colours, with which opening and seed.
//!
//! Game ids depend only on (round, pairing, game in pair), never on what has been played, so
//! a resumed run (or one with more rounds) plans the same ids for the same games.

use super::config::MatchConfig;
use super::openings::{self, Book};

/// One planned game, before the opening is attached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub game_id: u64,
    pub pair_id: u64,
    pub round: u32,
    pub white: usize,
    pub black: usize,
    /// Index into the book's openings.
    pub opening: usize,
    pub seed: u64,
}

/// Every game of the match, round by round (so a partial run is balanced across pairings).
pub fn plan(cfg: &MatchConfig, book: &Book) -> Vec<Slot> {
    let pairs = cfg.pairings();
    let order = openings::order(book.openings.len(), &cfg.openings, cfg.seed);
    let gpo = cfg.games_per_opening as u64;
    let per_pairing = cfg.games_per_pairing() as u64;
    let mut out = Vec::new();
    for r in 0..cfg.rounds as u64 {
        let opening = openings::for_round(&order, cfg.openings.start, r as usize);
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for g in 0..gpo {
                if r * gpo + g >= per_pairing {
                    continue;
                }
                let game_id = (r * pairs.len() as u64 + p as u64) * gpo + g + 1;
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                out.push(Slot {
                    game_id,
                    pair_id: r * pairs.len() as u64 + p as u64 + 1,
                    round: r as u32 + 1,
                    white,
                    black,
                    opening,
                    seed: game_seed(cfg.seed, game_id),
                });
            }
        }
    }
    out
}

/// A per-game seed from the match seed and the game id (SplitMix64 finaliser).
pub fn game_seed(seed: u64, game_id: u64) -> u64 {
    let mut z = seed
        .wrapping_add(game_id.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::config::EngineConfig;
    use crate::arena::config::Pairing;
    use crate::arena::openings::Opening;

    fn book(n: usize) -> Book {
        Book {
            openings: (0..n)
                .map(|i| Opening {
                    id: i + 1,
                    root_fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into(),
                    moves: vec![],
                })
                .collect(),
        }
    }

    fn cfg(n: usize, pairing: Pairing, rounds: u32) -> MatchConfig {
        MatchConfig {
            engines: (0..n)
                .map(|i| EngineConfig {
                    name: Some(format!("e{i}")),
                    command: "x".into(),
                    ..Default::default()
                })
                .collect(),
            pairing,
            rounds,
            ..Default::default()
        }
    }

    #[test]
    fn gauntlet_pairs_swap_colours_and_ids_are_stable() {
        let c = cfg(3, Pairing::Gauntlet, 2);
        let p = plan(&c, &book(10));
        assert_eq!(p.len(), 8);
        assert_eq!(
            p.iter().map(|s| s.game_id).collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
        assert_eq!(
            (p[0].white, p[0].black, p[1].white, p[1].black),
            (0, 1, 1, 0)
        );
        assert_eq!(p[0].opening, p[1].opening);
        assert_eq!((p[2].white, p[2].black), (0, 2));
        let more = plan(&cfg(3, Pairing::Gauntlet, 3), &book(10));
        assert_eq!(&more[..8], &p[..]);
    }

    #[test]
    fn round_robin_and_game_cap() {
        let mut c = cfg(4, Pairing::RoundRobin, 3);
        assert_eq!(plan(&c, &book(5)).len(), 6 * 6);
        c.games = Some(3);
        let p = plan(&c, &book(5));
        assert_eq!(p.len(), 6 * 3);
        assert!(p.iter().all(|s| s.game_id <= 36));
    }
}
