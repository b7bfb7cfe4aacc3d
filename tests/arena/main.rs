//! Integration tests: arena. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod batch;
mod books;
mod builtin;
mod failures;
mod hardening;
mod legality;
mod named_files;
mod resume;
mod resume_options;
mod sprt;
mod substitute;
mod sweep;
