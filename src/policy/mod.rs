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

pub mod bench;
pub mod encode;
pub mod error;
pub mod evaluator;
pub mod forward;
pub mod game;
pub mod moves;
pub mod net;
pub mod proto;
pub mod weights;

pub use error::PolicyError;
pub use evaluator::{Evaluation, Evaluator};
pub use net::{Net, MAIA_BANDS};
