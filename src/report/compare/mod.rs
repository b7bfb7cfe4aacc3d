//! `skillcal compare`: the families' page (`page.rs`), their run folders read into rows
//! (`data.rs`), the curves (`plot.rs`), how each analysed family plays by Elo (`play.rs`,
//! `play_plot.rs`) and beside rated human games, with move-matching (`human.rs`) and
//! move-matching against Elo (`tradeoff.rs`).

mod data;
mod human;
mod page;
mod play;
mod play_plot;
mod plot;
mod tradeoff;

pub use data::same_folder;
pub use human::write_matching_plot;
pub use page::{compare, CompareOptions};
