//! Writes the provisional tables of the weakening families not yet calibrated,
//! `configs/families/<family>.csv`, from their configs (`configs/families/<family>.toml`):
//!
//!     cargo run --release --example family_tables
//!
//! `blend` is measured (configs/uci_elo_table.csv) and is left alone, as is every family whose
//! table is already measured (installed by `skillcal calibrate ... --install FAMILY`).
//! `tests/calibrate/families.rs` checks that the shipped provisional files are what this writes.

use std::path::Path;

use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::table::provisional_table;
use skillcal::strength::{EloTable, Family};

fn main() -> anyhow::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/families");
    for family in Family::ALL {
        if family == Family::Blend {
            continue;
        }
        let origin = format!("configs/families/{family}.toml");
        let cfg = CalibrationConfig::load(&dir.join(format!("{family}.toml")))?;
        let out = dir.join(format!("{family}.csv"));
        let current = std::fs::read_to_string(&out).unwrap_or_default();
        if EloTable::parse(&current, &out.display().to_string()).is_ok_and(|t| !t.provisional()) {
            println!("{}: measured, left alone", out.display());
            continue;
        }
        std::fs::write(&out, provisional_table(&cfg, &origin)?)?;
        println!("{}", out.display());
    }
    Ok(())
}
