//! SPRT operating characteristics by seeded simulation: at elo0 the test rarely accepts H1
//! (about alpha), at elo1 it rarely accepts H0 (about beta).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillcal::rating::model::{expected_score, outcome_probabilities};
use skillcal::rating::{EloScale, Pentanomial, Sprt, SprtState};

/// Runs one SPRT on opening pairs whose games are drawn at logistic Elo `elo` (draw parameter
/// 1, a third of games drawn between equals), checking after every 4 pairs.
fn run_once(rng: &mut ChaCha8Rng, sprt: &Sprt, elo: f64) -> SprtState {
    let p = outcome_probabilities(expected_score(elo), 1.0);
    let game = |rng: &mut ChaCha8Rng| {
        let u: f64 = rng.random();
        if u < p.win {
            1.0
        } else if u < p.win + p.draw {
            0.5
        } else {
            0.0
        }
    };
    let mut penta = Pentanomial::default();
    for k in 1..=20_000 {
        let (a, b) = (game(rng), game(rng));
        penta.add_pair(a, b);
        if k % 4 == 0 {
            let state = sprt.test(&penta.counts).state;
            if state != SprtState::Continue {
                return state;
            }
        }
    }
    SprtState::Continue
}

fn rate_of(rng: &mut ChaCha8Rng, sprt: &Sprt, elo: f64, state: SprtState, runs: usize) -> f64 {
    (0..runs)
        .filter(|_| run_once(rng, sprt, elo) == state)
        .count() as f64
        / runs as f64
}

#[test]
fn logistic_sprt_errors_are_near_alpha_and_beta() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05, EloScale::Logistic);
    let type1 = rate_of(&mut rng, &sprt, 0.0, SprtState::AcceptH1, 300);
    let type2 = rate_of(&mut rng, &sprt, 40.0, SprtState::AcceptH0, 300);
    println!("logistic: type I {type1:.3}, type II {type2:.3}");
    assert!(
        type1 <= 0.09 && type2 <= 0.09,
        "type I {type1}, type II {type2}"
    );
    // Far from both hypotheses the right answer comes almost always.
    assert!(rate_of(&mut rng, &sprt, 80.0, SprtState::AcceptH1, 50) > 0.97);
}

#[test]
fn normalized_sprt_errors_are_near_alpha_and_beta() {
    // With a third of games drawn, a pair's per-game deviation is about 0.41, so 50 normalized
    // Elo is about 40 logistic Elo (0.0575 expected score / 0.41 * 347.4 = 49).
    let mut rng = ChaCha8Rng::seed_from_u64(4242);
    let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05, EloScale::Normalized);
    let type1 = rate_of(&mut rng, &sprt, 0.0, SprtState::AcceptH1, 300);
    let type2 = rate_of(&mut rng, &sprt, 40.0, SprtState::AcceptH0, 300);
    println!("normalized: type I {type1:.3}, type II {type2:.3}");
    assert!(
        type1 <= 0.09 && type2 <= 0.12,
        "type I {type1}, type II {type2}"
    );
    // Far from both hypotheses (80 logistic, about 100 normalized Elo) the right answer comes
    // almost always: a test that never decided would pass the two error rates above.
    assert!(rate_of(&mut rng, &sprt, 80.0, SprtState::AcceptH1, 50) > 0.97);
}
