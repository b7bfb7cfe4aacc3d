//! The options of `Style human` beyond its strength knob: how varied its choice is
//! (`HumanTemperature`) and whether it takes a person's time over a move (`HumanTime`,
//! `HumanTimeScale`, `HumanTimeModel`). They are not knobs: a table's row never sets them, so a
//! level's strength and its behaviour at the board are chosen apart.

pub const HUMAN_TEMPERATURE: &str = "HumanTemperature";
pub const HUMAN_TIME: &str = "HumanTime";
pub const HUMAN_TIME_SCALE: &str = "HumanTimeScale";
pub const HUMAN_TIME_MODEL: &str = "HumanTimeModel";
/// `HumanTemperature`'s default: the smallest temperature at which nearly every self-played
/// game from one position is its own while the level still plays the move people play nearly
/// as often as at 0.
pub const DEFAULT_TEMPERATURE: f64 = 0.35;
/// The largest `HumanTemperature` accepted (1 is the net's own distribution).
pub const MAX_TEMPERATURE: f64 = 10.0;
/// `HumanTimeScale`'s range (percent of the model's time).
pub const TIME_SCALE_RANGE: (u32, u32) = (1, 1000);
/// `HumanTimeModel`'s value for the model built into the binary.
pub const EMBEDDED_MODEL: &str = "<embedded>";

/// The options; see the module's text.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanOptions {
    /// HumanTemperature: 0 plays the schedule's one choice; above 0 the choice is drawn with the
    /// game's seed, the moves' probabilities sharpened by it (`strength::variety`).
    pub temperature: f64,
    /// HumanTime: with a clock, answer after a person's think time and play by the clock left.
    pub time: bool,
    /// HumanTimeScale: percent of the model's time taken.
    pub time_scale: u32,
    /// HumanTimeModel: a model file fitted by `skillcal think-time fit`, or the built-in one.
    pub time_model: String,
}

impl Default for HumanOptions {
    fn default() -> Self {
        HumanOptions {
            temperature: DEFAULT_TEMPERATURE,
            time: false,
            time_scale: 100,
            time_model: EMBEDDED_MODEL.to_string(),
        }
    }
}

impl HumanOptions {
    /// Applies one of its options; None when `name` is not one of them, else why the value is
    /// refused (the caller names the option and the value).
    pub fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let n = name.trim();
        let v = value.trim();
        if n.eq_ignore_ascii_case(HUMAN_TEMPERATURE) {
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
        if n.eq_ignore_ascii_case(HUMAN_TIME) {
            return Some(match v.to_ascii_lowercase().as_str() {
                "true" => {
                    self.time = true;
                    Ok(())
                }
                "false" => {
                    self.time = false;
                    Ok(())
                }
                _ => Err(format!("'{v}' is not true or false")),
            });
        }
        if n.eq_ignore_ascii_case(HUMAN_TIME_SCALE) {
            let (lo, hi) = TIME_SCALE_RANGE;
            return Some(
                match super::knob::parse_int(v, i64::from(lo), i64::from(hi)) {
                    Ok(s) => {
                        self.time_scale = s as u32;
                        Ok(())
                    }
                    Err(e) => Err(e),
                },
            );
        }
        if n.eq_ignore_ascii_case(HUMAN_TIME_MODEL) {
            if v.is_empty() || v == EMBEDDED_MODEL {
                self.time_model = EMBEDDED_MODEL.to_string();
                return Some(Ok(()));
            }
            // read now, so a bad file is named at `setoption`, not mid-game
            return Some(
                super::think_model::ThinkModel::load(std::path::Path::new(v)).map(|_| {
                    self.time_model = v.to_string();
                }),
            );
        }
        None
    }

    /// `Name=value` parts for the options that differ from the default.
    pub fn spec_parts(&self) -> Vec<String> {
        let d = HumanOptions::default();
        let mut parts = Vec::new();
        if self.temperature != d.temperature {
            parts.push(format!("{HUMAN_TEMPERATURE}={}", self.temperature));
        }
        if self.time != d.time {
            parts.push(format!("{HUMAN_TIME}={}", self.time));
        }
        if self.time_scale != d.time_scale {
            parts.push(format!("{HUMAN_TIME_SCALE}={}", self.time_scale));
        }
        if self.time_model != d.time_model {
            parts.push(format!("{HUMAN_TIME_MODEL}={}", self.time_model));
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_refuse() {
        let mut o = HumanOptions::default();
        assert_eq!(o.set_option("humantemperature", "0.5"), Some(Ok(())));
        assert_eq!(o.temperature, 0.5);
        assert!(matches!(
            o.set_option("HumanTemperature", "-1"),
            Some(Err(_))
        ));
        assert!(matches!(
            o.set_option("HumanTemperature", "x"),
            Some(Err(_))
        ));
        assert_eq!(o.temperature, 0.5);
        assert_eq!(o.set_option("HumanTime", "TRUE"), Some(Ok(())));
        assert!(o.time);
        assert!(matches!(o.set_option("HumanTime", "yes"), Some(Err(_))));
        assert!(matches!(o.set_option("HumanTimeScale", "0"), Some(Err(_))));
        assert!(matches!(
            o.set_option("HumanTimeScale", "1001"),
            Some(Err(_))
        ));
        assert_eq!(o.set_option("HumanTimeScale", "2"), Some(Ok(())));
        assert_eq!(o.time_scale, 2);
        assert_eq!(o.set_option("Hash", "2"), None);
        assert_eq!(
            o.spec_parts(),
            vec![
                "HumanTemperature=0.5".to_string(),
                "HumanTime=true".to_string(),
                "HumanTimeScale=2".to_string()
            ]
        );
    }
}
