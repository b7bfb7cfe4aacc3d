//! Noise samplers against their distributions, the best move's share against the coefficients,
//! and the guards.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skillcal::score::{MATE, MATE_BOUND};
use skillcal::strength::GBM_SCALE_CP;
use skillcal::strength::{choose, perturb_root_score, Noise};
use statrs::distribution::{ContinuousCDF, LogNormal, Normal, Uniform};

const GUARD: i32 = 1000;

/// Kolmogorov-Smirnov statistic of `samples` against `cdf`.
fn ks(mut samples: Vec<f64>, cdf: impl Fn(f64) -> f64) -> f64 {
    samples.sort_by(f64::total_cmp);
    let n = samples.len() as f64;
    samples
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(x);
            (f - i as f64 / n).abs().max((f - (i + 1) as f64 / n).abs())
        })
        .fold(0.0, f64::max)
}

/// Critical KS distance at significance 0.001.
fn ks_critical(n: usize) -> f64 {
    1.95 / (n as f64).sqrt()
}

fn mean_sd(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0);
    (m, v.sqrt())
}

const SCORES: [i32; 4] = [35, 10, -40, -160];

/// Offsets `p_i - s_i` of every candidate over many searches.
fn offsets(noise: Noise, searches: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out = Vec::new();
    for _ in 0..searches {
        let p = noise.perceive(&SCORES, &mut rng);
        out.extend(p.iter().zip(SCORES).map(|(p, s)| p - f64::from(s)));
    }
    out
}

#[test]
fn uniform_noise_is_uniform() {
    let a = 150.0;
    let x = offsets(Noise::Uniform { a }, 1500);
    let d = ks(x.clone(), |v| Uniform::new(-a, a).unwrap().cdf(v));
    assert!(d < ks_critical(x.len()), "KS distance {d}");
    let (m, sd) = mean_sd(&x);
    assert!(
        m.abs() < 3.0 && (sd - a / 3f64.sqrt()).abs() < 3.0,
        "mean {m} sd {sd}"
    );
    assert!(x.iter().all(|v| v.abs() <= a));
}

#[test]
fn gaussian_noise_is_gaussian() {
    let sigma = 120.0;
    let x = offsets(Noise::Gaussian { sigma }, 1500);
    let d = ks(x.clone(), |v| Normal::new(0.0, sigma).unwrap().cdf(v));
    assert!(d < ks_critical(x.len()), "KS distance {d}");
    let (m, sd) = mean_sd(&x);
    assert!(
        m.abs() < 5.0 && (sd - sigma).abs() < 4.0,
        "mean {m} sd {sd}"
    );
}

#[test]
fn gbm_factor_is_lognormal_with_mean_one() {
    let (mu, s, t) = (0.7, 0.5, 2.0);
    let noise = Noise::Gbm {
        drift: mu,
        diffusion: s,
        horizon: t,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let b = f64::from(SCORES[0]);
    let mut factors = Vec::new();
    for _ in 0..1500 {
        let p = noise.perceive(&SCORES, &mut rng);
        for (p, &sc) in p.iter().zip(&SCORES) {
            let x0 = GBM_SCALE_CP + (b - f64::from(sc)) * (-mu * t).exp();
            let xt = b + GBM_SCALE_CP - p;
            factors.push(xt / x0);
        }
    }
    let vol = s * t.sqrt();
    let law = LogNormal::new(-vol * vol / 2.0, vol).unwrap();
    let d = ks(factors.clone(), |v| law.cdf(v));
    assert!(d < ks_critical(factors.len()), "KS distance {d}");
    let (m, _) = mean_sd(&factors);
    assert!((m - 1.0).abs() < 0.02, "mean factor {m}");
}

#[test]
fn gbm_without_coefficients_is_exact() {
    let noise = Noise::Gbm {
        drift: 0.0,
        diffusion: 0.0,
        horizon: 1.0,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let p = noise.perceive(&SCORES, &mut rng);
    for (p, s) in p.iter().zip(SCORES) {
        assert!((p - f64::from(s)).abs() < 1e-9);
    }
}

/// Share of searches in which the best candidate is played.
fn best_share(scores: &[i32], noise: Noise, trials: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let hits = (0..trials)
        .filter(|_| choose(scores, &noise, GUARD, &mut rng).index == 0)
        .count();
    hits as f64 / trials as f64
}

/// Shares must fall by more than sampling noise at each step.
fn assert_falls(label: &str, shares: &[f64]) {
    assert_eq!(
        shares[0], 1.0,
        "{label}: zero coefficient must play the best: {shares:?}"
    );
    for w in shares.windows(2) {
        assert!(
            w[1] < w[0] - 0.02,
            "{label}: share does not fall: {shares:?}"
        );
    }
}

const LIST: [i32; 4] = [40, 0, -50, -200];
const TRIALS: u64 = 3000;

#[test]
fn best_share_falls_as_uniform_width_rises() {
    let shares: Vec<f64> = [0.0, 30.0, 60.0, 120.0, 250.0]
        .iter()
        .map(|&a| best_share(&LIST, Noise::Uniform { a }, TRIALS))
        .collect();
    assert_falls("uniform a", &shares);
}

#[test]
fn best_share_falls_as_sigma_rises() {
    let shares: Vec<f64> = [0.0, 20.0, 50.0, 100.0, 250.0]
        .iter()
        .map(|&sigma| best_share(&LIST, Noise::Gaussian { sigma }, TRIALS))
        .collect();
    assert_falls("gaussian sigma", &shares);
}

#[test]
fn best_share_falls_as_gbm_drift_rises() {
    // At zero diffusion the drift alone never reorders; it acts through the diffusion.
    let shares: Vec<f64> = [0.0, 0.5, 1.0, 2.0, 4.0]
        .iter()
        .map(|&drift| {
            best_share(
                &LIST,
                Noise::Gbm {
                    drift,
                    diffusion: 0.4,
                    horizon: 1.0,
                },
                TRIALS,
            )
        })
        .collect();
    assert!(shares[0] < 1.0);
    for w in shares.windows(2) {
        assert!(
            w[1] < w[0] - 0.02,
            "gbm drift: share does not fall: {shares:?}"
        );
    }
    assert_eq!(
        best_share(
            &LIST,
            Noise::Gbm {
                drift: 3.0,
                diffusion: 0.0,
                horizon: 1.0
            },
            200
        ),
        1.0
    );
}

#[test]
fn best_share_falls_as_gbm_diffusion_rises() {
    let shares: Vec<f64> = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0]
        .iter()
        .map(|&diffusion| {
            best_share(
                &LIST,
                Noise::Gbm {
                    drift: 0.5,
                    diffusion,
                    horizon: 1.0,
                },
                TRIALS,
            )
        })
        .collect();
    assert_falls("gbm diffusion", &shares);
}

#[test]
fn gbm_drift_is_monotone_path_by_path() {
    // With the same draws, a larger drift can only turn "best played" into "weaker played".
    for seed in 0..2000u64 {
        let pick = |drift| {
            let noise = Noise::Gbm {
                drift,
                diffusion: 0.3,
                horizon: 1.5,
            };
            choose(&LIST, &noise, GUARD, &mut ChaCha8Rng::seed_from_u64(seed)).index
        };
        if pick(1.2) == 0 {
            assert_eq!(pick(0.4), 0, "seed {seed}");
        }
    }
}

fn phi(x: f64) -> f64 {
    Normal::new(0.0, 1.0).unwrap().cdf(x)
}

#[test]
fn two_candidate_shares_match_closed_forms() {
    let n = 6000;
    let se = (0.25 / n as f64).sqrt();
    // Gaussian: P(best) = Phi(d / (sigma sqrt 2)).
    let (d, sigma) = (60.0, 80.0);
    let got = best_share(&[0, -60], Noise::Gaussian { sigma }, n);
    let want = phi(d / (sigma * 2f64.sqrt()));
    assert!((got - want).abs() < 4.0 * se, "gaussian {got} vs {want}");
    // GBM: P(best) = Phi(g / (s sqrt(2T))), g = ln(1 + d exp(-mu T) / c).
    let (mu, s, t) = (0.6, 0.7, 1.3);
    let got = best_share(
        &[0, -60],
        Noise::Gbm {
            drift: mu,
            diffusion: s,
            horizon: t,
        },
        n,
    );
    let g = (1.0 + d * (-mu * t).exp() / GBM_SCALE_CP).ln();
    let want = phi(g / (s * (2.0 * t).sqrt()));
    assert!((got - want).abs() < 4.0 * se, "gbm {got} vs {want}");
}

#[test]
fn same_seed_same_choices() {
    let noise = Noise::Gaussian { sigma: 90.0 };
    let run = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..50)
            .map(|_| choose(&LIST, &noise, GUARD, &mut rng).index)
            .collect::<Vec<_>>()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn ties_go_to_the_search_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(
        choose(&[20, 20, 20], &Noise::None, GUARD, &mut rng).index,
        0
    );
    assert_eq!(
        choose(&[10, 20, 20], &Noise::None, GUARD, &mut rng).index,
        1
    );
    assert_eq!(
        choose(&[20, 20], &Noise::Gaussian { sigma: 0.0 }, GUARD, &mut rng).index,
        0
    );
}

#[test]
fn forced_mate_is_always_played() {
    let scores = [MATE - 3, 150, 120, 100];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for noise in [
        Noise::Uniform { a: 3000.0 },
        Noise::Gaussian { sigma: 3000.0 },
        Noise::Gbm {
            drift: 20.0,
            diffusion: 20.0,
            horizon: 1.0,
        },
    ] {
        for _ in 0..300 {
            let c = choose(&scores, &noise, GUARD, &mut rng);
            assert_eq!((c.index, c.noised), (0, false), "{noise:?}");
        }
    }
}

#[test]
fn clear_wins_are_converted_and_the_guard_is_sharp() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let noise = Noise::Gaussian { sigma: 500.0 };
    for _ in 0..300 {
        assert_eq!(choose(&[1000, 700, 400], &noise, GUARD, &mut rng).index, 0);
    }
    assert!(choose(&[999, 700, 400], &noise, GUARD, &mut rng).noised);
    // A higher guard lets the noise act in the same position.
    assert!(choose(&[1000, 700, 400], &noise, 2000, &mut rng).noised);
}

#[test]
fn moves_that_get_mated_are_never_chosen() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let noise = Noise::Uniform { a: 3000.0 };
    let scores = [-200, -MATE + 4, -MATE + 2];
    for _ in 0..500 {
        assert_eq!(choose(&scores, &noise, GUARD, &mut rng).index, 0);
    }
    // All mated: the longest resistance (the search's best).
    assert_eq!(
        choose(&[-MATE + 9, -MATE + 3], &noise, GUARD, &mut rng).index,
        0
    );
    assert_eq!(choose(&[], &noise, GUARD, &mut rng).index, 0);
}

#[test]
fn root_score_perturbation_keeps_order_and_guards() {
    for error in [-300, -1, 0, 7, 300] {
        for raw in (-MATE..=MATE)
            .step_by(37)
            .chain([-MATE_BOUND, MATE_BOUND, GUARD - 1, GUARD])
        {
            let p = perturb_root_score(raw, error, GUARD);
            // Between raw and raw + error.
            assert!(p.min(raw) >= raw.min(raw + error) && p.max(raw) <= raw.max(raw + error));
            if raw.abs() >= MATE_BOUND || raw >= GUARD {
                assert_eq!(p, raw);
            } else {
                assert!(
                    p > -MATE_BOUND && p < GUARD,
                    "raw {raw} error {error} -> {p}"
                );
            }
        }
        // Monotone in raw on a sorted sweep.
        let sweep: Vec<i32> = (-MATE..=MATE)
            .step_by(13)
            .map(|r| perturb_root_score(r, error, GUARD))
            .collect();
        assert!(sweep.windows(2).all(|w| w[0] <= w[1]), "error {error}");
    }
    // A mate found by the search outranks any perturbed move at SI = 3000.
    assert!(perturb_root_score(MATE - 3, 0, GUARD) > perturb_root_score(900, 3000, GUARD));
}

#[test]
fn best_share_falls_as_score_inaccuracy_rises() {
    use skillcal::strength::{move_seed, root_errors, si_reference_choice};
    // 20 root moves spread like a middlegame: one best, a few close, the rest clearly worse.
    let raw: Vec<i32> = (0..20)
        .map(|i| 60 - 15 * i - if i > 4 { 100 } else { 0 })
        .collect();
    let share = |si: u32| {
        let hits = (0..2000u32)
            .filter(|&ply| {
                si_reference_choice(&raw, &root_errors(move_seed(8, 99, ply), 20, si), GUARD) == 0
            })
            .count();
        hits as f64 / 2000.0
    };
    let shares: Vec<f64> = [0, 10, 25, 50, 100, 300].into_iter().map(share).collect();
    assert_falls("ScoreInaccuracy", &shares);
    // A mate is found at any SI.
    let mut mate = raw.clone();
    mate[7] = MATE - 3;
    for ply in 0..300 {
        let e = root_errors(move_seed(8, 5, ply), 20, 3000);
        assert_eq!(si_reference_choice(&mate, &e, GUARD), 7);
    }
}
