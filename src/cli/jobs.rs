//! `--concurrency N`, shared by the commands that play a calibration's games.

/// Games played at once for one sitting.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Jobs {
    /// Games played at once, overriding the config's `concurrency` (at most the machine's
    /// cores; the games' results do not depend on it at node and depth limits).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: Option<u16>,
}

impl Jobs {
    /// The config's `concurrency`, replaced by the flag when given.
    pub fn apply(&self, concurrency: &mut usize) {
        if let Some(n) = self.concurrency {
            *concurrency = n.into();
        }
    }
}
