//! Pair statistics and the SPRT: pentanomial and trinomial figures by hand, SPRT bounds and
//! decisions, the LLR beside its Brownian approximation, and the statistics of fishtest and
//! fastchess.

use super::*;

#[test]
fn pentanomial_hand_example() {
    // Pairs from A's side [LL, LD, DD+WL, WD, WW] = [1, 1, 4, 3, 1], N = 10 pairs, values
    // 0, 1/4, 1/2, 3/4, 1 (pair points / 2):
    //   mu  = (0 + 0.25 + 4*0.5 + 3*0.75 + 1) / 10 = 5.5 / 10 = 0.55
    //   var = (0.55^2 + 0.30^2 + 4*0.05^2 + 3*0.20^2 + 0.45^2) / 10
    //       = (0.3025 + 0.09 + 0.01 + 0.12 + 0.2025) / 10 = 0.0725
    //   se  = sqrt(0.0725 / 10) = 0.0851469
    //   Elo = -400 log10(1/0.55 - 1) = -400 log10(0.818182) = +34.86
    //   95%: mu ± 1.959964 * se = [0.383114, 0.716886] -> Elo [-82.75, +161.39], ± 122.07
    //   LOS = Phi(0.05 / 0.0851469) = Phi(0.58722) = 72.15%
    //   nElo = (0.55 - 0.5) / sqrt(2 * 0.0725) * 800 / ln 10 = 0.131306 * 347.436 = +45.62
    let p = Pentanomial {
        counts: [1, 1, 4, 3, 1],
    };
    let s = p.stats(0.95);
    assert!((s.score - 0.55).abs() < 1e-12);
    assert!((s.variance - 0.0725).abs() < 1e-12);
    assert!((s.elo - 34.86).abs() < 0.01, "{}", s.elo);
    assert!((s.elo_lower + 82.75).abs() < 0.01, "{}", s.elo_lower);
    assert!((s.elo_upper - 161.39).abs() < 0.01, "{}", s.elo_upper);
    assert!((s.elo_pm - 122.07).abs() < 0.01, "{}", s.elo_pm);
    assert!((s.los - 0.7215).abs() < 1e-4, "{}", s.los);
    assert!((s.nelo - 45.62).abs() < 0.01, "{}", s.nelo);
    //   nElo interval (fishtest's statistics page), per pair: t = 0.05 / sqrt(0.0725) = 0.185695;
    //   third and fourth central moments -0.007875 and 0.01454375, so skew = -0.403407 and
    //   excess kurtosis = -0.233056; var_t = 1 - t skew + t^2 (exkurt + 2) / 4 = 1.090143;
    //   t ± 1.959964 sqrt(var_t / 10) = [-0.461432, 0.832822]; times 347.436 / sqrt 2 = 245.672:
    //   [-113.36, +204.60].
    assert!((s.nelo_lower + 113.36).abs() < 0.01, "{}", s.nelo_lower);
    assert!((s.nelo_upper - 204.60).abs() < 0.01, "{}", s.nelo_upper);
}

#[test]
fn head_to_head_builds_pairs_from_pair_ids() {
    let g = vec![
        Game::new("A", "B", WhiteWin).with_pair(1), // A wins with white
        Game::new("B", "A", Draw).with_pair(1),     // then draws: WD
        Game::new("B", "A", WhiteWin).with_pair(2), // A loses with black
        Game::new("A", "B", WhiteWin).with_pair(2), // and wins with white: WL
        Game::new("A", "B", BlackWin).with_pair(3), // LL
        Game::new("B", "A", WhiteWin).with_pair(3),
        Game::new("A", "B", Draw),              // no pair
        Game::new("A", "C", Draw).with_pair(4), // other opponent: ignored
    ];
    let h = head_to_head(&g, "A", "B");
    assert_eq!(h.pentanomial.counts, [1, 0, 1, 1, 0]);
    assert_eq!((h.wins, h.draws, h.losses), (2, 2, 3));
    assert_eq!(h.unpaired_games, 1);
    assert_eq!(h.trinomial(), [3, 2, 2]);
}

#[test]
fn trinomial_stats_match_hand_values() {
    // 30 wins, 40 draws, 30 losses... shifted: L=20, D=40, W=40 over 100 games.
    //   mu = (40 + 20) / 100 = 0.6, var = 0.4*0.16 + 0.4*0.01 + 0.2*0.36 = 0.14
    //   Elo = 400 log10(1.5) = 70.44, se = sqrt(0.0014) = 0.0374166
    let s = ScoreStats::from_counts(&[20, 40, 40], 0.95);
    assert!((s.score - 0.6).abs() < 1e-12 && (s.variance - 0.14).abs() < 1e-12);
    assert!((s.elo - 70.44).abs() < 0.01);
    let lo = -400.0 * (1.0 / (0.6 - 1.959964 * 0.0374166) - 1.0f64).log10();
    assert!((s.elo_lower - lo).abs() < 0.01);
}

#[test]
fn sprt_bounds_and_decisions() {
    let t = Sprt::new(0.0, 5.0, 0.05, 0.05, EloScale::Logistic);
    assert!((t.lower_bound() + 2.944439).abs() < 1e-6);
    assert!((t.upper_bound() - 2.944439).abs() < 1e-6);
    assert_eq!(t.test(&[0, 0, 0, 0, 0]).state, SprtState::Continue);
    // A clearly stronger player: H1 (elo = 5 rather than 0) is accepted.
    let strong = t.test(&[100, 1200, 4000, 1700, 300]);
    assert_eq!(strong.state, SprtState::AcceptH1, "{strong:?}");
    let weak = t.test(&[300, 1700, 4000, 1200, 100]);
    assert_eq!(weak.state, SprtState::AcceptH0, "{weak:?}");
}

#[test]
fn sprt_llr_agrees_with_the_brownian_approximation() {
    // For many samples the exact GSPRT LLR approaches fishtest's closed forms:
    // logistic: N (s1 - s0)(2 mu - s0 - s1) / (2 var); normalized:
    // (games / 2) ln((1 + (nt - nt0)^2) / (1 + (nt - nt1)^2)), nt = (mu - 1/2) / sigma_per_game.
    let counts = [10789u64, 19328, 33806, 19402, 10543];
    let n: f64 = counts.iter().sum::<u64>() as f64;
    let vals = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mu: f64 = counts
        .iter()
        .zip(vals)
        .map(|(&c, v)| c as f64 * v)
        .sum::<f64>()
        / n;
    let var: f64 = counts
        .iter()
        .zip(vals)
        .map(|(&c, v)| c as f64 * (v - mu) * (v - mu))
        .sum::<f64>()
        / n;
    let l = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (l(-3.0), l(1.0));
    let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
    let exact = skillcal::rating::llr_logistic(-3.0, 1.0, &counts);
    assert!(
        (exact - approx).abs() < 0.02 * approx.abs().max(1.0),
        "{exact} vs {approx}"
    );

    let k = skillcal::rating::NELO_PER_T;
    let sigma_pg = (2.0 * var).sqrt();
    let nt = (mu - 0.5) / sigma_pg;
    let (nt0, nt1) = (-2.0 / k, 2.0 / k);
    let approx_n = n * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln();
    let exact_n = skillcal::rating::llr_normalized(-2.0, 2.0, &counts);
    assert!(
        (exact_n - approx_n).abs() < 0.02 * approx_n.abs().max(1.0),
        "{exact_n} vs {approx_n}"
    );
}

#[test]
fn statistics_match_fishtest_and_fastchess() {
    // fastchess's report of a real match (Zeno, doubled-passed-pawns vs develop, from its
    // README): "Elo: 19.83 +/- 6.77, nElo: 24.25 +/- 8.26, LOS: 100.00 %,
    // Ptnml(0-2): [352, 579, 1264, 743, 464], LLR: 4.60 (100.0%) (-4.60, 4.60) [9.00, 16.00]
    // ... H1 was accepted". fastchess's nElo ± is 1.96/sqrt(games) in t units; ours is fishtest's
    // (which accounts for skew and kurtosis), so only the centre is compared.
    let zeno = Pentanomial {
        counts: [352, 579, 1264, 743, 464],
    };
    let s = zeno.stats(0.95);
    assert!((s.elo - 19.83).abs() < 0.005, "{}", s.elo);
    assert!((s.elo_pm - 6.77).abs() < 0.005, "{}", s.elo_pm);
    assert!((s.nelo - 24.25).abs() < 0.005, "{}", s.nelo);
    assert!(s.los > 0.9999);
    // Normalized SPRT [9, 16] with alpha = beta = 0.01 (bounds ±ln 99 = ±4.595): just accepted.
    let t = Sprt::new(9.0, 16.0, 0.01, 0.01, EloScale::Normalized);
    let r = t.test(&zeno.counts);
    assert!((r.upper_bound - 99f64.ln()).abs() < 1e-12);
    assert_eq!(r.state, SprtState::AcceptH1);
    assert!((r.llr - 4.60).abs() < 0.005, "{}", r.llr);

    // Reference values from fishtest's own code (server/fishtest/stats/LLRcalc.py and
    // stat_util.get_elo, run with the brentq root finder replaced by bisection); the
    // pentanomials are the ones in stat_util.py's self-test.
    use skillcal::rating::{llr_logistic, llr_normalized};
    let big = [10789u64, 19328, 33806, 19402, 10543];
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6 * b.abs().max(1.0);
    let cases = [
        (llr_logistic(-3.0, 1.0, &big), 2.131067811785043),
        (llr_normalized(0.0, 2.0, &big), -6.070429067586407),
        (
            llr_logistic(0.2, 0.9, &[39, 2226, 31451, 2412, 40]),
            2.1625425800500317,
        ),
        (
            llr_normalized(0.764, 3.439, &[39, 2226, 31451, 2412, 40]),
            2.1629408695841628,
        ),
        (
            llr_logistic(0.0, 5.0, &[5026, 15699, 5019]),
            -7.088346352567046,
        ),
        (
            llr_normalized(0.0, 5.0, &[5026, 15699, 5019]),
            -2.8270700736560648,
        ),
    ];
    for (k, (ours, fishtest)) in cases.iter().enumerate() {
        assert!(close(*ours, *fishtest), "case {k}: {ours} vs {fishtest}");
    }
    let s = Pentanomial { counts: big }.stats(0.95);
    assert!(close(s.elo, -0.7735773359165423), "{}", s.elo);
    assert!(close(s.elo_pm, 1.2775798957280218), "{}", s.elo_pm);
    assert!(close(s.los, 0.11765885803277504), "{}", s.los);
    // Normalized Elo and its interval as fishtest's statistics page computes them (t-value
    // with the skew/kurtosis variance, divided by sqrt 2 for pairs, times 800 / ln 10).
    assert!(close(s.nelo, -0.9516290044726476), "{}", s.nelo);
    assert!(close(s.nelo_lower, -2.5232516812470083), "{}", s.nelo_lower);
    assert!(close(s.nelo_upper, 0.6199936723017129), "{}", s.nelo_upper);
}
