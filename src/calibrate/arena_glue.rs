//! The real match runner: hands a gauntlet to the arena.

use std::path::{Path, PathBuf};

use super::runner::{GameRunner, MatchSpec};

pub struct ArenaRunner {
    #[allow(dead_code)]
    root: PathBuf,
}

impl ArenaRunner {
    pub fn new(root: &Path) -> Self {
        ArenaRunner {
            root: root.to_path_buf(),
        }
    }
}

impl GameRunner for ArenaRunner {
    fn run(&self, _spec: &MatchSpec, _dir: &Path) -> anyhow::Result<()> {
        anyhow::bail!("the arena is not available in this build yet")
    }
}
