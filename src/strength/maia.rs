//! `Style=maia`: the engine plays a Maia network's policy at one node instead of searching.
//! Here only its options (`MaiaNet`, `PolicyTemperature`) and their checks live; the engine runs
//! the network (`crate::policy`). `UCI_LimitStrength` and `UCI_Elo` have no table under it: a
//! Maia net's strength is its band, so they are ignored (the engine says so).

pub const MAIA_NET: &str = "MaiaNet";
pub const POLICY_TEMPERATURE: &str = "PolicyTemperature";
/// The `Style` value that selects it.
pub const MAIA_STYLE: &str = "maia";
/// The Maia-1 nets shipped with skillcal, by rating band.
pub const MAIA_BANDS: [u32; 9] = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900];
/// The largest `PolicyTemperature` accepted (10 is lc0's own bound).
pub const MAX_TEMPERATURE: f64 = 10.0;

/// The Maia options; `on` while `Style` is `maia`.
#[derive(Clone, Debug, PartialEq)]
pub struct Maia {
    pub on: bool,
    /// MaiaNet: the band of the net played.
    pub net: u32,
    /// PolicyTemperature: 0 plays the policy's top move; above 0 samples from the softmax at
    /// that temperature with the engine's seeded generator.
    pub temperature: f64,
}

impl Default for Maia {
    fn default() -> Self {
        Maia {
            on: false,
            net: 1100,
            temperature: 0.0,
        }
    }
}

impl Maia {
    /// Applies one of its options; None when `name` is not one of them, else why the value is
    /// refused (the caller names the option and the value).
    pub fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let n = name.trim();
        let v = value.trim();
        if n.eq_ignore_ascii_case(MAIA_NET) {
            let band = v.parse::<u32>().ok().filter(|b| MAIA_BANDS.contains(b));
            return Some(match band {
                Some(b) => {
                    self.net = b;
                    Ok(())
                }
                None => Err(format!("not one of {}", bands().join(", "))),
            });
        }
        if n.eq_ignore_ascii_case(POLICY_TEMPERATURE) {
            let t = v
                .parse::<f64>()
                .ok()
                .filter(|t| (0.0..=MAX_TEMPERATURE).contains(t));
            return Some(match t {
                Some(t) => {
                    self.temperature = t;
                    Ok(())
                }
                None => Err(format!("not a number from 0 to {MAX_TEMPERATURE}")),
            });
        }
        None
    }

    /// `Name=value` parts for the options that differ from the default (`Style=maia` is the
    /// caller's).
    pub fn spec_parts(&self) -> Vec<String> {
        let d = Maia::default();
        let mut parts = Vec::new();
        if self.net != d.net {
            parts.push(format!("{MAIA_NET}={}", self.net));
        }
        if self.temperature != d.temperature {
            parts.push(format!("{POLICY_TEMPERATURE}={}", self.temperature));
        }
        parts
    }
}

/// The `MaiaNet` values.
pub fn bands() -> Vec<String> {
    MAIA_BANDS.iter().map(|b| b.to_string()).collect()
}
