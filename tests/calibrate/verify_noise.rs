//! How much of a verification's RMS its games' noise explains: on simulated verifications of an
//! exact table and of one off by 60 Elo at every level, the estimate of the table's own error
//! finds each, and the pool's uncertainty in the intervals (shared with the table, so absent
//! from the misses) does not hide a table's error.

use rand::SeedableRng;
use rand_distr::{Distribution, Normal};
use skillcal::rating::model::Z95;
use skillcal::report::run::verify_noise;
use skillcal::results::VerifyRow;

/// Levels whose ratings scatter with standard error `se` around target + `bias`; their
/// intervals also carry a pool uncertainty `pool_sd` that the misses do not (`sd_games` says
/// `se` when `own_sd`, as verify writes it; older rows lack it).
fn rows(
    bias: f64,
    se: f64,
    pool_sd: f64,
    own_sd: bool,
    levels: usize,
    seed: u64,
) -> Vec<VerifyRow> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let noise = Normal::new(0.0, se).unwrap();
    (0..levels)
        .map(|i| {
            let target = 600.0 + 10.0 * i as f64;
            let measured = target + bias + noise.sample(&mut rng);
            let half = Z95 * (se * se + pool_sd * pool_sd).sqrt();
            VerifyRow {
                target,
                measured,
                lower: measured - half,
                upper: measured + half,
                games: 240,
                score: 0.5,
                diff: measured - target,
                extrapolated: false,
                measured_run_pool: None,
                sd_games: own_sd.then_some(se),
                opponents_chi2: None,
                opponents_dof: None,
            }
        })
        .collect()
}

#[test]
fn the_noise_estimate_separates_an_exact_table_from_a_biased_one() {
    // many levels, so that the estimate's own scatter is small against the gap tested
    let exact = rows(0.0, 32.0, 0.0, true, 2000, 1);
    let (noise, own) = verify_noise(&exact, f64::NEG_INFINITY).unwrap();
    assert!((noise - 32.0).abs() < 1e-9, "{noise}");
    assert!(own < 12.0, "an exact table: {own}");
    let biased = rows(60.0, 32.0, 0.0, true, 2000, 2);
    let (_, own) = verify_noise(&biased, f64::NEG_INFINITY).unwrap();
    assert!((own - 60.0).abs() < 6.0, "60 Elo off: {own}");
    // levels below `low` are left out; none left is None
    assert!(verify_noise(&exact, 1e9).is_none());
}

#[test]
fn the_pool_share_of_the_intervals_does_not_hide_a_tables_error() {
    // 30 Elo off, 32 of game noise, 50 of pool uncertainty that the misses do not carry
    let biased = rows(30.0, 32.0, 50.0, true, 2000, 3);
    let (noise, own) = verify_noise(&biased, f64::NEG_INFINITY).unwrap();
    assert!((noise - 32.0).abs() < 1e-9, "{noise}");
    assert!((own - 30.0).abs() < 6.0, "30 Elo off: {own}");
    // rows from before sd_games read the whole interval, and the error vanishes under it
    let old = rows(30.0, 32.0, 50.0, false, 2000, 3);
    let (noise, own) = verify_noise(&old, f64::NEG_INFINITY).unwrap();
    assert!(noise > 55.0 && own < 1e-9, "{noise} {own}");
}
