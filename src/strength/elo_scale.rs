//! `UCI_EloScale`: the scale `UCI_Elo` is read on. The tables are on the reference pool's scale
//! (`pool`, the default); `lichess-blitz` and `lichess-rapid` read `UCI_Elo` as a Lichess rating
//! and map it onto the pool's scale with the human scale the binary embeds: the pool's Maia-1
//! members' ratings beside the Lichess ratings their bots hold, one offset a scale.

use std::sync::OnceLock;

pub const UCI_ELO_SCALE: &str = "UCI_EloScale";
pub const POOL: &str = "pool";

/// The embedded map, one row a scale.
const EMBEDDED_CSV: &str = include_str!("../../results/pool/human-scale.csv");

/// One scale's map onto the pool's: `pool = (human - intercept) / slope` when the measured
/// slope is supported, else `pool = human - offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleMap {
    pub name: String,
    pub offset: f64,
    /// `(intercept, slope)` when the pool measured a slope whose interval leaves out 1.
    pub line: Option<(f64, f64)>,
}

impl ScaleMap {
    /// A rating on this scale, on the pool's.
    pub fn to_pool(&self, elo: f64) -> f64 {
        match self.line {
            Some((a, b)) => (elo - a) / b,
            None => elo - self.offset,
        }
    }

    /// A rating on the pool's scale, on this one.
    pub fn from_pool(&self, elo: f64) -> f64 {
        match self.line {
            Some((a, b)) => a + b * elo,
            None => elo + self.offset,
        }
    }
}

/// The embedded maps (checked by the tests: a bad file is a build that fails its tests).
pub fn maps() -> &'static [ScaleMap] {
    static MAPS: OnceLock<Vec<ScaleMap>> = OnceLock::new();
    MAPS.get_or_init(|| {
        parse(EMBEDDED_CSV).expect("results/pool/human-scale.csv is checked by the tests")
    })
}

/// The scale names `UCI_EloScale` offers, `pool` first.
pub fn names() -> Vec<String> {
    std::iter::once(POOL.to_string())
        .chain(maps().iter().map(|m| m.name.clone()))
        .collect()
}

/// A table's column of its rows on a human scale: the scale's name with `_` for `-`
/// (`lichess-blitz` -> `lichess_blitz`).
pub fn human_column(scale: &str) -> String {
    scale.replace('-', "_")
}

/// The human-scale columns a table may carry (informational: the engine reads `elo`).
pub fn human_columns() -> Vec<String> {
    maps().iter().map(|m| human_column(&m.name)).collect()
}

/// Whether a table's column is a human-scale column.
pub fn is_human_column(cell: &str) -> bool {
    maps()
        .iter()
        .any(|m| human_column(&m.name).eq_ignore_ascii_case(cell))
}

/// The map of a scale name (case-insensitive); `Some(None)` for `pool`, `None` if unknown.
pub fn find(name: &str) -> Option<Option<&'static ScaleMap>> {
    if name.eq_ignore_ascii_case(POOL) {
        return Some(None);
    }
    maps()
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(name))
        .map(Some)
}

/// The scale's own name for a `UCI_EloScale` value (case-insensitive), or why not.
pub fn canonical(value: &str) -> Result<String, String> {
    match find(value) {
        Some(None) => Ok(POOL.to_string()),
        Some(Some(m)) => Ok(m.name.clone()),
        None => Err(format!("'{value}' is not one of {}", names().join(", "))),
    }
}

/// `elo` on the scale `name`, on the pool's.
pub fn to_pool(name: &str, elo: f64) -> f64 {
    match find(name) {
        Some(Some(m)) => m.to_pool(elo),
        _ => elo,
    }
}

/// What the `info string` of a row adds when `UCI_Elo` is read on a human scale.
pub fn caveat(name: &str, elo: i64, pool: f64) -> String {
    if name == POOL {
        return String::new();
    }
    format!("; {elo} on {name} is {pool:.0} on the pool's scale")
}

/// Reads `human-scale.csv` (the columns `skillcal pool` writes; others ignored).
pub fn parse(text: &str) -> Result<Vec<ScaleMap>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().ok_or("empty file")?.split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or(format!("no column `{name}`"))
    };
    let (scale, offset, slope, intercept, supported) = (
        col("scale")?,
        col("offset")?,
        col("slope")?,
        col("intercept")?,
        col("slope_supported")?,
    );
    let mut maps = Vec::new();
    for (i, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let at = |k: usize| f.get(k).copied().unwrap_or("");
        let num = |k: usize| -> Result<f64, String> {
            at(k)
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or(format!("line {}: `{}` is not a number", i + 2, at(k)))
        };
        let line = match at(supported) {
            "true" => Some((num(intercept)?, num(slope)?)),
            "false" => None,
            other => return Err(format!("line {}: slope_supported `{other}`", i + 2)),
        };
        if line.is_some_and(|(_, b)| b <= 0.0) {
            return Err(format!("line {}: the slope must be positive", i + 2));
        }
        maps.push(ScaleMap {
            name: at(scale).to_string(),
            offset: num(offset)?,
            line,
        });
    }
    Ok(maps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_maps_read_and_invert() {
        let names = names();
        assert_eq!(names[0], POOL);
        assert!(names.iter().any(|n| n == "lichess-blitz"), "{names:?}");
        for m in maps() {
            let p = m.to_pool(1500.0);
            assert!((m.from_pool(p) - 1500.0).abs() < 1e-9);
        }
        assert_eq!(find("POOL"), Some(None));
        assert!(find("fide").is_none());
    }

    #[test]
    fn a_bad_file_is_named_by_line() {
        let head = "scale,points,offset,slope,intercept,slope_supported\n";
        let e = parse(&format!("{head}lichess-blitz,3,abc,,,false\n")).unwrap_err();
        assert!(e.contains("line 2") && e.contains("abc"), "{e}");
        let ok = parse(&format!("{head}x,3,100,2,-1000,true\n")).unwrap();
        assert_eq!(ok[0].to_pool(2000.0), 1500.0);
        assert!(parse("scale\n").is_err());
    }
}
