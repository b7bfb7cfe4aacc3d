//! The rating report's inputs and computed data, shared by its sections and plots.

use serde::Serialize;

use crate::rating::{HeadToHead, RateOptions, Ratings, Sprt, SprtResult};

/// The sequential test a match ran: `first` against `second`.
#[derive(Clone, Debug)]
pub struct SprtSpec {
    pub first: String,
    pub second: String,
    pub test: Sprt,
}

/// What a rating report shows beyond the games.
#[derive(Clone, Debug)]
pub struct RatingReportOptions {
    pub title: String,
    /// The rating options (anchors, intervals), as `skillcal rate` takes them.
    pub rate: RateOptions,
    /// What the numbers are (the anchors' scale); `None` says only how they are anchored.
    pub scale: Option<String>,
    pub sprt: Option<SprtSpec>,
    /// Where the games came from, for the report's first line.
    pub sources: Vec<String>,
}

/// One player's rating after the first `games` games.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryRow {
    pub games: usize,
    pub name: String,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

/// The SPRT after the first `games` games (complete opening pairs only count).
#[derive(Clone, Debug, Serialize)]
pub struct SprtRow {
    pub games: usize,
    pub pairs: u64,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
}

/// Everything the rating sections show, computed once.
pub struct RatingData<'a> {
    pub ratings: &'a Ratings,
    pub pairs: Vec<HeadToHead>,
    pub history: Vec<HistoryRow>,
    pub sprt: Option<(SprtSpec, Vec<SprtRow>, SprtResult, HeadToHead)>,
}
