//! The one document model: headings, paragraphs, tables, figures and lists, rendered to Markdown
//! and to self-contained HTML (`document.rs`), and the Files section every page ends with
//! (`files.rs`).

mod document;
mod files;

pub use document::{f0, Document};
pub use files::files_section;
