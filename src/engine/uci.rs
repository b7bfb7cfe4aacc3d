//! The UCI protocol loop and options.

pub fn run_stdio() -> anyhow::Result<()> {
    anyhow::bail!("uci: not built yet")
}
