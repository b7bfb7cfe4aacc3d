//! ScoreInaccuracy root Errors: range, uniformity, reproducibility.

use rand::RngExt;
use skillcal::strength::{clock_seed, move_seed, noise_rng, root_errors};
use statrs::distribution::{ChiSquared, ContinuousCDF};

#[test]
fn errors_are_uniform_integers_in_range() {
    let si = 10u32;
    let bins = (2 * si + 1) as usize;
    let mut counts = vec![0u64; bins];
    let mut total = 0u64;
    for ply in 0..2000u32 {
        let errors = root_errors(move_seed(42, 0xdead_beef, ply), 30, si);
        assert_eq!(errors.len(), 30);
        for e in errors {
            assert!((-10..=10).contains(&e), "error {e}");
            counts[(e + 10) as usize] += 1;
            total += 1;
        }
    }
    let expected = total as f64 / bins as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let p = 1.0 - ChiSquared::new((bins - 1) as f64).unwrap().cdf(chi2);
    assert!(p > 0.001, "chi-square {chi2}, p = {p}, counts {counts:?}");
}

#[test]
fn errors_are_reproducible_and_vary_with_seed_position_and_ply() {
    let base = root_errors(move_seed(1, 77, 10), 40, 200);
    assert_eq!(base, root_errors(move_seed(1, 77, 10), 40, 200));
    assert_ne!(base, root_errors(move_seed(2, 77, 10), 40, 200));
    assert_ne!(base, root_errors(move_seed(1, 78, 10), 40, 200));
    assert_ne!(base, root_errors(move_seed(1, 77, 11), 40, 200));
    // Fewer legal moves draw the same leading Errors.
    assert_eq!(base[..5], root_errors(move_seed(1, 77, 10), 5, 200)[..]);
}

#[test]
fn zero_inaccuracy_gives_zero_errors() {
    assert_eq!(root_errors(move_seed(9, 9, 9), 20, 0), vec![0; 20]);
    assert!(root_errors(move_seed(9, 9, 9), 0, 100).is_empty());
}

#[test]
fn noise_stream_is_reproducible_and_distinct_from_errors() {
    let seed = move_seed(3, 4, 5);
    let a: Vec<u32> = (0..8)
        .map(|_| 0)
        .scan(noise_rng(seed), |r, _: u32| Some(r.random::<u32>()))
        .collect();
    let b: Vec<u32> = (0..8)
        .map(|_| 0)
        .scan(noise_rng(seed), |r, _: u32| Some(r.random::<u32>()))
        .collect();
    assert_eq!(a, b);
    let other: Vec<u32> = (0..8)
        .map(|_| 0)
        .scan(noise_rng(seed ^ 1), |r, _: u32| Some(r.random::<u32>()))
        .collect();
    assert_ne!(a, other);
}

#[test]
fn clock_seed_is_nonzero() {
    assert_ne!(clock_seed(), 0);
}

/// The clock seed the engine prints fits the `RandomSeed` option (`0..=2147483647`), so a game
/// can be replayed by entering it.
#[test]
fn clock_seed_fits_the_random_seed_option() {
    for _ in 0..100 {
        let s = clock_seed();
        assert!((1..=2_147_483_647).contains(&s), "clock seed {s}");
    }
}
