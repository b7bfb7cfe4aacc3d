//! Integration tests: the policy room (lc0-format networks) and `skillcal policy`.

mod command;
mod fixture;
mod format;
mod logits;
