//! Isotonic regression, the check that a curve's tested settings rise with t.

/// Weighted isotonic (non-decreasing) regression by pool-adjacent-violators; `ys` in the order
/// of increasing x.
pub fn isotonic(ys: &[f64], weights: &[f64]) -> Vec<f64> {
    // blocks of (mean, weight, count)
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for (&y, &w) in ys.iter().zip(weights) {
        blocks.push((y, w.max(1e-12), 1));
        while blocks.len() >= 2 {
            let (m2, w2, c2) = blocks[blocks.len() - 1];
            let (m1, w1, c1) = blocks[blocks.len() - 2];
            if m1 <= m2 {
                break;
            }
            blocks.pop();
            let last = blocks.last_mut().expect("two blocks");
            *last = ((m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2);
        }
    }
    blocks
        .into_iter()
        .flat_map(|(m, _, c)| std::iter::repeat_n(m, c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isotonic_pools_violators() {
        let y = isotonic(&[1.0, 3.0, 2.0, 4.0], &[1.0, 1.0, 1.0, 1.0]);
        assert_eq!(y, vec![1.0, 2.5, 2.5, 4.0]);
        let y = isotonic(&[5.0, 1.0], &[3.0, 1.0]);
        assert_eq!(y, vec![4.0, 4.0]);
        let y = isotonic(&[1.0, 2.0, 3.0], &[1.0, 1.0, 1.0]);
        assert_eq!(y, vec![1.0, 2.0, 3.0]);
    }
}
