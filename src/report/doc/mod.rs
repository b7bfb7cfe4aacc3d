//! The Files section every page ends with (`files.rs`), beside the one document model, which
//! lives in `results` (every room writing a page uses it) and is re-exported here.

mod files;

pub use crate::results::{estimate, f0, fixed, percent, Document, NO_NUMBER};
pub use files::files_section;
