//! UCI option declarations (`option name Hash type spin default 16 min 1 max 4096`) and the
//! check of a value against one, so a match never plays with a value the engine would
//! reject or ignore.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What kind of option, with its constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: Option<bool>,
    },
    Spin {
        default: Option<i64>,
        min: i64,
        max: i64,
    },
    Combo {
        default: Option<String>,
        vars: Vec<String>,
    },
    Button,
    String {
        default: Option<String>,
    },
}

impl OptionKind {
    /// The UCI name of the type (`spin`, `check`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::Button => "button",
            OptionKind::String { .. } => "string",
        }
    }
}

/// One `option` line after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: OptionKind,
}

const KEYWORDS: [&str; 5] = ["default", "min", "max", "var", "type"];

impl OptionDecl {
    /// The declaration of option `name` among `declared` (case-insensitive, as UCI says).
    pub fn find<'a>(declared: &'a [OptionDecl], name: &str) -> Option<&'a OptionDecl> {
        declared.iter().find(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// The names an engine declares, for an error naming what it offers.
    pub fn offered(declared: &[OptionDecl]) -> String {
        let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
        names.join(", ")
    }

    /// Parses an `option name <name> type <type> [default x] [min x] [max x] [var x]...` line;
    /// `None` for anything else (never a panic: engines print what they like).
    pub fn parse(line: &str) -> Option<OptionDecl> {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.first() != Some(&"option") || toks.get(1) != Some(&"name") {
            return None;
        }
        let type_at = toks.iter().position(|&t| t == "type")?;
        let name = toks[2..type_at].join(" ");
        let kind = *toks.get(type_at + 1)?;
        if name.is_empty() {
            return None;
        }
        // `keyword value...` groups after the type; values may hold spaces (string defaults).
        let mut default = None;
        let mut min = None;
        let mut max = None;
        let mut vars = Vec::new();
        let mut i = type_at + 2;
        while i < toks.len() {
            let key = toks[i];
            let mut j = i + 1;
            while j < toks.len() && !KEYWORDS.contains(&toks[j]) {
                j += 1;
            }
            let value = toks[i + 1..j].join(" ");
            match key {
                "default" => default = Some(value),
                "min" => min = value.parse::<i64>().ok(),
                "max" => max = value.parse::<i64>().ok(),
                "var" => vars.push(value),
                _ => {}
            }
            i = j;
        }
        let kind = match kind {
            "check" => OptionKind::Check {
                default: default.and_then(|d| parse_bool(&d)),
            },
            "spin" => OptionKind::Spin {
                default: default.and_then(|d| d.parse().ok()),
                min: min.unwrap_or(i64::MIN),
                max: max.unwrap_or(i64::MAX),
            },
            "combo" => OptionKind::Combo { default, vars },
            "button" => OptionKind::Button,
            "string" => OptionKind::String {
                default: default.filter(|d| d != "<empty>"),
            },
            _ => return None,
        };
        Some(OptionDecl { name, kind })
    }

    /// The spin range, for spin options.
    pub fn spin_range(&self) -> Option<(i64, i64)> {
        match self.kind {
            OptionKind::Spin { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    /// Checks a value the arena would send; the error says what is allowed.
    pub fn check(&self, value: &str) -> Result<(), Allowed> {
        let v = value.trim();
        let ok = match &self.kind {
            OptionKind::Check { .. } => parse_bool(v).is_some(),
            OptionKind::Spin { min, max, .. } => {
                v.parse::<i64>().is_ok_and(|x| (*min..=*max).contains(&x))
            }
            OptionKind::Combo { vars, .. } => vars.iter().any(|o| o.eq_ignore_ascii_case(v)),
            OptionKind::Button | OptionKind::String { .. } => true,
        };
        if ok {
            Ok(())
        } else {
            Err(Allowed(self.kind.clone()))
        }
    }
}

/// What an option accepts, for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowed(pub OptionKind);

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            OptionKind::Check { .. } => write!(f, "true or false"),
            OptionKind::Spin { min, max, .. } => write!(f, "an integer from {min} to {max}"),
            OptionKind::Combo { vars, .. } => write!(f, "one of {}", vars.join(", ")),
            OptionKind::Button => write!(f, "anything (a button)"),
            OptionKind::String { .. } => write!(f, "any text"),
        }
    }
}

fn parse_bool(s: &str) -> Option<bool> {
    if s.eq_ignore_ascii_case("true") {
        Some(true)
    } else if s.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// UCI options in the order written, which is the order `setoption` sends them (as cutechess
/// and fastchess do: an engine may need one before another, e.g. Fairy-Stockfish's
/// `VariantPath` before a `UCI_Variant` it defines). In TOML a table
/// `{ "Skill Level" = 2, Hash = 16 }`; values may be strings, integers, floats or booleans.
/// Build one with `UciOptions::from(vec)`.
#[derive(Clone, Debug, Default)]
pub struct UciOptions(
    pub Vec<(String, String)>,
    /// Read from a TOML table: such an engine's name lists its options sorted, as it always
    /// did (the table was read sorted before it kept its order), so names and games.csv rows
    /// stay as they were; options given any other way are named as written.
    pub(crate) bool,
);

impl From<Vec<(String, String)>> for UciOptions {
    fn from(options: Vec<(String, String)>) -> UciOptions {
        UciOptions(options, false)
    }
}

/// The same options in the same order, however they were given.
impl PartialEq for UciOptions {
    fn eq(&self, other: &UciOptions) -> bool {
        self.0 == other.0
    }
}

impl UciOptions {
    /// The options as they name the engine: sorted by name when read from a TOML table, else
    /// as written.
    pub fn for_name(&self) -> Vec<(String, String)> {
        let mut v = self.0.clone();
        if self.1 {
            v.sort();
        }
        v
    }
}

impl Serialize for UciOptions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for UciOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{DeserializeSeed, MapAccess, Visitor};
        struct Table;
        impl<'de> Visitor<'de> for Table {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table of UCI options, such as { Hash = 16, Threads = 1 }")
            }
            // in the order written (the toml crate's `preserve_order`; TOML refuses a key twice)
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<(String, String)> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    let value = map.next_value_seed(Scalar(&name))?;
                    out.push((name, value));
                }
                Ok(out)
            }
        }
        // A value as `setoption` sends it; by hand, not an untagged enum, so that an array or
        // a table is refused naming the option and what is expected.
        struct Scalar<'a>(&'a str);
        impl<'de> DeserializeSeed<'de> for Scalar<'_> {
            type Value = String;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
                d.deserialize_any(self)
            }
        }
        impl<'de> Visitor<'de> for Scalar<'_> {
            type Value = String;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(
                    f,
                    "a number, string or boolean as the value of option `{}`",
                    self.0
                )
            }
            fn visit_str<E>(self, v: &str) -> Result<String, E> {
                Ok(v.to_string())
            }
            fn visit_i64<E>(self, v: i64) -> Result<String, E> {
                Ok(v.to_string())
            }
            fn visit_u64<E>(self, v: u64) -> Result<String, E> {
                Ok(v.to_string())
            }
            fn visit_f64<E>(self, v: f64) -> Result<String, E> {
                Ok(v.to_string())
            }
            fn visit_bool<E>(self, v: bool) -> Result<String, E> {
                Ok(v.to_string())
            }
        }
        Ok(UciOptions(d.deserialize_map(Table)?, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_parse_and_check() {
        let d =
            OptionDecl::parse("option name Skill Level type spin default 20 min 0 max 20").unwrap();
        assert_eq!(d.name, "Skill Level");
        assert_eq!(d.spin_range(), Some((0, 20)));
        assert!(d.check("20").is_ok());
        let e = d.check("99").unwrap_err();
        assert_eq!(e.to_string(), "an integer from 0 to 20");
        assert!(d.check("2.5").is_err());

        let c = OptionDecl::parse(
            "option name Analysis Contempt type combo default Both var Off var White var Both",
        )
        .unwrap();
        assert!(c.check("white").is_ok());
        assert_eq!(
            c.check("Red").unwrap_err().to_string(),
            "one of Off, White, Both"
        );

        let b = OptionDecl::parse("option name Ponder type check default false").unwrap();
        assert!(b.check("TRUE").is_ok() && b.check("1").is_err());

        let s =
            OptionDecl::parse("option name Debug Log File type string default <empty>").unwrap();
        assert_eq!(s.kind, OptionKind::String { default: None });
        let p = OptionDecl::parse("option name EvalFile type string default nn 1.nnue").unwrap();
        assert_eq!(
            p.kind,
            OptionKind::String {
                default: Some("nn 1.nnue".into())
            }
        );
        assert!(OptionDecl::parse("option name Clear Hash type button").is_some());
        // nonsense is skipped, not a panic
        assert!(OptionDecl::parse("option name X type spin min 99999999999999999999").is_some());
        assert!(OptionDecl::parse("option type spin").is_none());
        assert!(OptionDecl::parse("optional").is_none());
    }
}
