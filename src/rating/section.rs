//! `[rating]` of a match config: the anchors and the scale's name that `skillcal report` uses
//! for a match folder (flags on the command line override them).
//!
//! ```toml
//! [rating]
//! scale = "Stockfish Skill Level table of PR #4341"
//! anchors = { sf-skill3 = 1742, sf-skill5 = { elo = 2204, sd = 50 } }
//! ```
//! A number holds the player fixed; `{ elo, sd }` is a soft (Gaussian) anchor.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ratings::Anchor;

/// An anchor's value: fixed, or soft with a standard deviation.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(untagged)]
pub enum AnchorValue {
    Fixed(f64),
    Soft { elo: f64, sd: f64 },
}

/// The `[rating]` section.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct RatingSection {
    /// What the anchors' numbers are (shown in reports).
    pub scale: Option<String>,
    /// Player name -> rating.
    pub anchors: BTreeMap<String, AnchorValue>,
}

impl RatingSection {
    /// The anchors as the rating engine takes them.
    pub fn anchors(&self) -> Vec<Anchor> {
        self.anchors
            .iter()
            .map(|(name, v)| match *v {
                AnchorValue::Fixed(elo) => Anchor::hard(name, elo),
                AnchorValue::Soft { elo, sd } => Anchor::soft(name, elo, sd),
            })
            .collect()
    }

    /// Checks the anchors against the match's player names; the message names the key.
    pub fn check(&self, players: &[String]) -> Result<(), String> {
        for (name, v) in &self.anchors {
            let (elo, sd) = match *v {
                AnchorValue::Fixed(elo) => (elo, None),
                AnchorValue::Soft { elo, sd } => (elo, Some(sd)),
            };
            if !players.contains(name) {
                return Err(format!(
                    "rating.anchors.{name}: not an engine of this match (engines: {})",
                    players.join(", ")
                ));
            }
            if !elo.is_finite() {
                return Err(format!(
                    "rating.anchors.{name}: the rating must be a number"
                ));
            }
            if sd.is_some_and(|sd| !(sd > 0.0 && sd.is_finite())) {
                return Err(format!("rating.anchors.{name}.sd: must be positive"));
            }
        }
        Ok(())
    }
}
