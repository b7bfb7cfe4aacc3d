//! How each level plays: a run's tested settings joined with its `analysis/analysis.csv`,
//! Spearman's rho (`data.rs`), the section (`section.rs`) and the plots (`plots.rs`).

mod data;
mod plots;
mod section;

pub use data::{
    average_ranks, levels_in, load_levels, spearman, write_levels, Levels, Rise, ANALYSIS_DIR,
    RHO_MAX,
};
pub use plots::draw as draw_plots;
pub use section::{levels_section, trend_sentence};
