//! A person's think time, fitted and checked on clocked games (`skillcal think-time`): the model
//! itself (what the engine draws its times from) is `strength::think_model`; this room makes its
//! data and measures it.
//!
//! A reader follows a run in this order:
//! - [`games`]: clocked games streamed from PGN, `.pgn.zst`, `.pgn.gz`; bad games named by file
//!   and line;
//! - [`half`]: which half a game is in (fit or check), by a stable hash of its `Site`;
//! - [`speed`]: Lichess's speed categories (blitz is base + 40 increments from 3 to 8 minutes);
//! - [`rows`]: every timed move with its clocks, its seconds and the Maia net's view, on threads;
//! - [`fit`]: the model's two least-squares fits;
//! - [`check`](mod@check): the model beside people, per band, with its own clock simulated;
//! - [`commands`]: the two commands, their files and the page.

pub mod check;
pub mod commands;
mod error;
pub mod fit;
pub mod games;
pub mod half;
pub mod rows;
pub mod speed;

pub use check::{check, CheckRow};
pub use commands::{meets_target, run_check, run_fit, target_band, CheckOutcome, FitOutcome};
pub use error::{Error, Result};
pub use half::Half;
pub use rows::{collect, Collected, GameRows, MoveRow, Selection};
pub use speed::Speed;
