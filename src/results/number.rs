//! Numbers as the pages' tables and the CSV files show them: fixed decimals, percentages, a
//! figure with its interval, and the mark of a number that is not there. Each caller names its
//! mark: the pages show [`NO_NUMBER`], a CSV an empty field, the comparison "—".

/// What a page's table shows for a number not measured (undefined, or not finite).
pub const NO_NUMBER: &str = "–";

/// `x` when it is finite: what a page shows as a number rather than [`NO_NUMBER`].
pub fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// `v` to `digits` decimals, or `absent` when there is none.
pub fn fixed(v: Option<f64>, digits: usize, absent: &str) -> String {
    v.map_or_else(|| absent.to_string(), |x| format!("{x:.digits$}"))
}

/// A fraction as a percentage (100 `v`) to `digits` decimals with its `%`, or `absent`.
pub fn percent(v: Option<f64>, digits: usize, absent: &str) -> String {
    v.map_or_else(
        || absent.to_string(),
        |x| format!("{:.digits$}%", 100.0 * x),
    )
}

/// A whole number, or [`NO_NUMBER`] for one not measured (NaN, infinite).
pub fn f0(x: f64) -> String {
    fixed(finite(x), 0, NO_NUMBER)
}

/// A figure with its interval, `34.1 [28.0, 41.3]`, each times `scale` (100 for percentages)
/// to `digits` decimals; the figure alone when a bound is missing, `absent` when the figure is
/// (a number that is not finite counts as missing).
pub fn estimate(
    value: Option<f64>,
    lower: Option<f64>,
    upper: Option<f64>,
    scale: f64,
    digits: usize,
    absent: &str,
) -> String {
    let scaled = |x: Option<f64>| x.and_then(finite).map(|x| x * scale);
    match (scaled(value), scaled(lower), scaled(upper)) {
        (None, _, _) => absent.to_string(),
        (Some(v), Some(l), Some(u)) => format!("{v:.digits$} [{l:.digits$}, {u:.digits$}]"),
        (Some(v), _, _) => format!("{v:.digits$}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_their_absence() {
        assert_eq!(fixed(Some(2.345_67), 2, "-"), "2.35");
        assert_eq!(fixed(Some(0.1), 4, ""), "0.1000");
        assert_eq!(fixed(None, 1, "—"), "—");
        assert_eq!(
            fixed(Some(f64::NAN), 1, ""),
            "NaN",
            "a CSV shows what it was given"
        );
        assert_eq!(percent(Some(0.3456), 1, "-"), "34.6%");
        assert_eq!(percent(Some(0.5), 0, "-"), "50%");
        assert_eq!(percent(None, 1, "n/a"), "n/a");
        assert_eq!(
            (f0(1499.5), f0(-0.4)),
            ("1500".to_string(), "-0".to_string())
        );
        assert_eq!(
            (f0(f64::INFINITY), f0(f64::NAN)),
            (NO_NUMBER.into(), NO_NUMBER.into())
        );
    }

    #[test]
    fn an_estimate_shows_its_interval_when_it_has_both_bounds() {
        let e = |v, l, u| estimate(v, l, u, 100.0, 1, "-");
        assert_eq!(e(Some(0.341), Some(0.28), Some(0.413)), "34.1 [28.0, 41.3]");
        assert_eq!(e(Some(0.341), None, Some(0.413)), "34.1");
        assert_eq!(e(Some(0.341), Some(f64::NAN), Some(0.413)), "34.1");
        assert_eq!(e(None, Some(0.28), Some(0.413)), "-");
        assert_eq!(e(Some(f64::INFINITY), None, None), "-");
        assert_eq!(
            estimate(Some(47.52), Some(42.0), Some(53.9), 1.0, 0, "–"),
            "48 [42, 54]"
        );
    }
}
