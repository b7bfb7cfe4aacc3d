//! A decoded network, and the Maia nets embedded in the binary.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::error::PolicyError;
use super::forward::Layers;
use super::weights;

/// The Maia-1 nets shipped in `nets/maia/` (GPL-3.0, CSSLab), one per 100-point rating band.
pub const MAIA_BANDS: [u32; 9] = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900];

const MAIA_FILES: [&[u8]; 9] = [
    include_bytes!("../../nets/maia/maia-1100.pb.gz"),
    include_bytes!("../../nets/maia/maia-1200.pb.gz"),
    include_bytes!("../../nets/maia/maia-1300.pb.gz"),
    include_bytes!("../../nets/maia/maia-1400.pb.gz"),
    include_bytes!("../../nets/maia/maia-1500.pb.gz"),
    include_bytes!("../../nets/maia/maia-1600.pb.gz"),
    include_bytes!("../../nets/maia/maia-1700.pb.gz"),
    include_bytes!("../../nets/maia/maia-1800.pb.gz"),
    include_bytes!("../../nets/maia/maia-1900.pb.gz"),
];

/// A decoded network, shared between evaluators.
#[derive(Debug)]
pub struct Net {
    pub name: String,
    /// The layers as the forward pass runs them (Winograd-transformed once, here).
    pub(super) layers: Layers,
}

impl Net {
    /// Reads an lc0 network file.
    pub fn load(path: &Path) -> Result<Arc<Net>, PolicyError> {
        Ok(Arc::new(Net {
            name: path.display().to_string(),
            layers: Layers::new(&weights::load_file(path)?),
        }))
    }

    /// An embedded Maia net by its band (1100, ..., 1900), decoded once per process.
    pub fn maia(band: u32) -> Result<Arc<Net>, PolicyError> {
        static NETS: [OnceLock<Arc<Net>>; 9] = [const { OnceLock::new() }; 9];
        let i = MAIA_BANDS
            .iter()
            .position(|&b| b == band)
            .ok_or_else(|| PolicyError::NoSuchMaia(band.to_string()))?;
        if let Some(net) = NETS[i].get() {
            return Ok(net.clone());
        }
        let name = format!("embedded maia-{band}");
        let weights = weights::load_bytes(MAIA_FILES[i], Path::new(&name))?;
        Ok(NETS[i]
            .get_or_init(|| {
                Arc::new(Net {
                    name,
                    layers: Layers::new(&weights),
                })
            })
            .clone())
    }

    /// `--net` as the command line takes it: a Maia band (`1100`) or a file's path.
    pub fn from_arg(arg: &str) -> Result<Arc<Net>, PolicyError> {
        match arg.trim().parse::<u32>() {
            Ok(band) if MAIA_BANDS.contains(&band) => Net::maia(band),
            _ if Path::new(arg).exists() => Net::load(Path::new(arg)),
            Ok(_) => Err(PolicyError::NoSuchMaia(arg.to_string())),
            Err(_) => Net::load(Path::new(arg)),
        }
    }
}
