//! lc0-format networks (Maia) in Rust: reading a `.pb.gz` network, encoding a position with
//! its history into the 112 input planes, the SE-ResNet forward pass, the convolutional policy
//! over the legal moves and the WDL value. Format facts and the checks against lc0 itself:
//! docs/policy.md. Uses no other room of the project.
//!
//! ```no_run
//! use skillcal::policy::{Evaluator, Net};
//! let net = Net::maia(1100).unwrap();
//! let mut eval = Evaluator::new(net, 1);
//! let game = [shakmaty::Chess::default()];
//! let e = eval.evaluate(&game);
//! println!("{:?} {:?}", e.best(), e.wdl);
//! ```

// The face: a net, its evaluator and errors; `game` (positions from a FEN and moves), `bench`
// (the throughput benchmark) and `proto` (lc0's format, for tools and tests that build or damage
// a net) are public rooms of their own; the rest is the evaluator's inside.
pub mod bench;
mod encode;
mod error;
mod evaluator;
mod forward;
pub mod game;
mod kernels;
mod moves;
mod net;
pub mod proto;
mod simd;
mod weights;
mod wino;

pub use error::PolicyError;
pub use evaluator::{Evaluation, Evaluator};
pub use net::{Net, MAIA_BANDS};
pub use weights::load_bytes;
