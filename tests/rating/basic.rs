//! Hand-checkable rating, pentanomial and SPRT values.

use skillcal::rating::{
    head_to_head, rate, Anchor, EloScale, Game, GameResult, Intervals, Pentanomial, RateOptions,
    Reference, ScoreStats, Sprt, SprtState, WhiteAdvantage,
};

use GameResult::{BlackWins as BlackWin, Draw, WhiteWins as WhiteWin};

/// `wins`, `draws`, `losses` of `a` against `b`, colours alternating, in pairs.
fn games(a: &str, b: &str, wins: u32, draws: u32, losses: u32) -> Vec<Game> {
    let mut v = Vec::new();
    let results = std::iter::repeat_n(1.0, wins as usize)
        .chain(std::iter::repeat_n(0.5, draws as usize))
        .chain(std::iter::repeat_n(0.0, losses as usize));
    for (k, pts) in results.enumerate() {
        let a_white = k % 2 == 0;
        let white_pts = if a_white { pts } else { 1.0 - pts };
        let res = if white_pts > 0.75 {
            WhiteWin
        } else if white_pts < 0.25 {
            BlackWin
        } else {
            Draw
        };
        v.push(if a_white {
            Game::new(a, b, res)
        } else {
            Game::new(b, a, res)
        });
    }
    v
}

fn anchored(name: &str, elo: f64) -> RateOptions {
    RateOptions {
        anchors: vec![Anchor::hard(name, elo)],
        ..RateOptions::default()
    }
}

#[test]
fn score_76_percent_is_plus_200() {
    // 400 log10(0.76 / 0.24) = 200.24; draws count half, so 52 wins + 48 draws is also 76%.
    for g in [games("A", "B", 76, 0, 24), games("A", "B", 52, 48, 0)] {
        let r = rate(&g, &anchored("B", 0.0)).unwrap();
        let a = r.get("A").unwrap();
        assert!((a.elo.unwrap() - 200.24).abs() < 0.5, "{:?}", a.elo);
        assert_eq!(a.games, 100);
        assert!((a.score() - 0.76).abs() < 1e-12);
        let (lo, hi) = (a.lower.unwrap(), a.upper.unwrap());
        assert!(lo < 200.0 && hi > 200.0 && hi - lo < 200.0, "[{lo}, {hi}]");
        // The anchor is the reference: a zero-width interval.
        let b = r.get("B").unwrap();
        assert_eq!((b.elo, b.lower, b.upper), (Some(0.0), Some(0.0), Some(0.0)));
    }
}

#[test]
fn draws_narrow_the_interval() {
    // Same score, more draws: a game's score varies less, so the interval is narrower.
    let decisive = rate(&games("A", "B", 76, 0, 24), &anchored("B", 0.0)).unwrap();
    let drawish = rate(&games("A", "B", 52, 48, 0), &anchored("B", 0.0)).unwrap();
    let width = |r: &skillcal::rating::Ratings| {
        let a = r.get("A").unwrap();
        a.upper.unwrap() - a.lower.unwrap()
    };
    assert!(width(&drawish) < 0.9 * width(&decisive));
}

/// Many draws in a lopsided pairing do not make every even game near certain: A scores 10 wins
/// and 10 draws against B, C draws B once. Davidson's shape has few draws between unequal
/// players, so counting draws alone set the draw rate between equals at 95.5% and gave C ±182
/// (B held at 0, Hessian) against ±481 for its draw alone; the games' spread gives ±322.
#[test]
fn draws_in_a_lopsided_pairing_leave_other_intervals_honest() {
    let hessian = |g: &[Game]| {
        let opts = RateOptions {
            intervals: Intervals::Hessian,
            ..anchored("B", 0.0)
        };
        let r = rate(g, &opts).unwrap();
        let c = r.get("C").unwrap();
        (c.upper.unwrap() - c.lower.unwrap()) / 2.0
    };
    let mut g = games("A", "B", 10, 10, 0);
    g.extend(games("C", "B", 0, 1, 0));
    let alone = hessian(&games("C", "B", 0, 1, 0));
    let with_lopsided = hessian(&g);
    assert!(
        with_lopsided > 0.6 * alone,
        "±{with_lopsided:.0} against ±{alone:.0} alone"
    );
}

#[test]
fn chain_is_additive() {
    // A scores 76% against B, B 76% against C, C 64% against D: +200.2, +200.2, +99.9 (each
    // 400 log10(s / (1 - s))), so with D = 1000: C = 1099.9, B = 1300.2, A = 1500.4.
    // (The weak 2000-Elo prior on opponents' differences moves each link by about 0.1 Elo.)
    let mut g = games("A", "B", 76, 0, 24);
    g.extend(games("B", "C", 76, 0, 24));
    g.extend(games("C", "D", 60, 8, 32));
    let r = rate(&g, &anchored("D", 1000.0)).unwrap();
    let e = |n: &str| r.get(n).unwrap().elo.unwrap();
    assert!((e("C") - 1099.9).abs() < 0.5, "C {}", e("C"));
    assert!((e("B") - 1300.2).abs() < 0.5, "B {}", e("B"));
    assert!((e("A") - 1500.4).abs() < 0.5, "A {}", e("A"));
    // Intervals widen along the chain away from the anchor.
    let w = |n: &str| {
        let p = r.get(n).unwrap();
        p.upper.unwrap() - p.lower.unwrap()
    };
    assert!(w("A") > w("B") && w("B") > w("C"));
    // A - B is only as uncertain as their own games; the chain to the anchor cancels.
    let (d, sd) = r.difference("A", "B").unwrap();
    assert!((d - 200.2).abs() < 0.5);
    assert!(sd < r.get("A").unwrap().sd.unwrap());
    // (Same draw model: the Hessian's draw correction uses the pool's draw rate.)
    let same_draws = RateOptions {
        draw_rate: Some(r.equal_draw_rate),
        ..anchored("B", 0.0)
    };
    let ab_only = rate(&games("A", "B", 76, 0, 24), &same_draws).unwrap();
    let sd_ab = ab_only.get("A").unwrap().sd.unwrap();
    assert!((sd / sd_ab - 1.0).abs() < 0.01, "{sd} vs {sd_ab}");
}

#[test]
fn no_anchor_means_pool_mean_zero() {
    let mut g = games("A", "B", 76, 0, 24);
    g.extend(games("B", "C", 76, 0, 24));
    let r = rate(&g, &RateOptions::default()).unwrap();
    assert_eq!(r.reference, Reference::PoolMean);
    let sum: f64 = r.players.iter().map(|p| p.elo.unwrap()).sum();
    assert!(sum.abs() < 1e-6);
    assert!((r.get("A").unwrap().elo.unwrap() - 200.2).abs() < 0.5);
    assert!(r.get("C").unwrap().elo.unwrap() < -199.0);
}

#[test]
fn unconnected_players_are_reported_not_rated() {
    let mut g = games("A", "B", 60, 10, 30);
    g.extend(games("X", "Y", 50, 0, 50));
    let r = rate(&g, &anchored("A", 1500.0)).unwrap();
    assert!(r.get("B").unwrap().connected);
    for name in ["X", "Y"] {
        let p = r.get(name).unwrap();
        assert!(!p.connected);
        assert_eq!(p.elo, None);
        assert_eq!(p.games, 100);
    }
    // Without anchors only the largest pool is rated.
    let mut g2 = g.clone();
    g2.extend(games("B", "C", 5, 0, 5));
    let r = rate(&g2, &RateOptions::default()).unwrap();
    assert!(r.get("C").unwrap().connected && !r.get("X").unwrap().connected);
}

#[test]
fn perfect_scores_stay_finite() {
    let g = games("A", "B", 30, 0, 0);
    let r = rate(&g, &anchored("B", 0.0)).unwrap();
    let a = r.get("A").unwrap();
    let elo = a.elo.unwrap();
    assert!(elo.is_finite() && elo > 600.0 && elo < 3000.0, "{elo}");
    assert!(a.lower.unwrap() < elo && a.upper.unwrap() > elo);
    assert!(a.perfect && r.get("B").unwrap().perfect, "0% counts too");
}

#[test]
fn soft_anchors_pull_towards_data() {
    // Two soft anchors 200 apart at SD 30, but the games say 100: the fit lands in between,
    // and a soft anchor's interval is narrower than its prior alone.
    let g = games("S0", "S1", 36, 0, 64); // S1 scores 64%: +100
    let opts = RateOptions {
        anchors: vec![
            Anchor::soft("S0", 1000.0, 30.0),
            Anchor::soft("S1", 1200.0, 30.0),
        ],
        ..RateOptions::default()
    };
    let r = rate(&g, &opts).unwrap();
    let (e0, e1) = (
        r.get("S0").unwrap().elo.unwrap(),
        r.get("S1").unwrap().elo.unwrap(),
    );
    assert!((e0 + e1 - 2200.0).abs() < 1.0, "mean kept: {e0} {e1}");
    // the posterior's mode exactly: the gap d maximises 64 ln p(d) + 36 ln(1 - p(d)), p
    // logistic, less (d - 200)^2 / (2 * 2 * 30^2) (the gap's prior from two SD-30 anchors) and
    // d^2 / (2 * 2000^2) (the weak prior on opponents' differences): d = 143.02 by a 1-D search
    // (Ordo 1.2.6 `-y` with its draw rate fitted, `-D`, gives the same; see
    // scripts/bench/ordo-side-by-side.sh). A prior counted twice, or half, moves it by about 20.
    let gap = e1 - e0;
    assert!((gap - 143.02).abs() < 0.3, "gap {gap}");
    let p = r.get("S1").unwrap();
    assert!(p.upper.unwrap() - p.lower.unwrap() < 2.0 * 1.96 * 30.0);
}

#[test]
fn anchor_errors_are_readable() {
    let g = games("A", "B", 5, 0, 5);
    let err = rate(&g, &anchored("Z", 0.0)).unwrap_err().to_string();
    assert!(err.contains("anchor 'Z'") && err.contains("A, B"), "{err}");
    assert!(rate(&[], &RateOptions::default()).is_err());
}

#[test]
fn white_advantage_is_fitted() {
    // White scores 60% in every game between equals: advantage 400 log10(1.5) = 70.4.
    // Per 10 games each colour scores W W D D L as white: white 6/10 = 60%, A and B 50% each.
    let mut g = Vec::new();
    for _ in 0..50 {
        for (w, b) in [("A", "B"), ("B", "A")] {
            for res in [WhiteWin, WhiteWin, Draw, Draw, BlackWin] {
                g.push(Game::new(w, b, res));
            }
        }
    }
    let opts = RateOptions {
        anchors: vec![Anchor::hard("B", 0.0)],
        white_advantage: WhiteAdvantage::Estimate,
        ..RateOptions::default()
    };
    let r = rate(&g, &opts).unwrap();
    let adv = r.white_advantage.unwrap();
    assert!((adv - 70.4).abs() < 1.0, "{adv}");
    let (lo, hi) = r.white_advantage_interval.unwrap();
    assert!(lo < adv && adv < hi);
    assert!(r.get("A").unwrap().elo.unwrap().abs() < 1.0);
}

#[test]
fn bootstrap_matches_hessian_on_a_regular_pool() {
    let mut g = games("A", "B", 40, 30, 30);
    g.extend(games("B", "C", 45, 25, 30));
    g.extend(games("A", "C", 50, 30, 20));
    let hess = rate(&g, &anchored("C", 0.0)).unwrap();
    let boot_opts = RateOptions {
        intervals: Intervals::Bootstrap {
            samples: 2000,
            seed: 7,
        },
        ..anchored("C", 0.0)
    };
    let boot = rate(&g, &boot_opts).unwrap();
    for name in ["A", "B"] {
        let (h, b) = (hess.get(name).unwrap(), boot.get(name).unwrap());
        assert_eq!(
            h.elo, b.elo,
            "the point estimate does not depend on the intervals"
        );
        let (wh, wb) = (
            h.upper.unwrap() - h.lower.unwrap(),
            b.upper.unwrap() - b.lower.unwrap(),
        );
        assert!(
            (wb / wh - 1.0).abs() < 0.1,
            "{name}: hessian {wh} bootstrap {wb}"
        );
    }
    // Seeded: the same seed gives the same intervals.
    let again = rate(&g, &boot_opts).unwrap();
    assert_eq!(again.get("A").unwrap().lower, boot.get("A").unwrap().lower);
}

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

#[test]
fn ratings_match_ordo_on_its_scale() {
    // Ordo's default scale puts 76% at +202 (its -z 202) instead of the logistic 200.24, so its
    // differences are ours times 202 / 200.24. Published Ordo runs (Zeno engine's SPRT notes):
    // 20000 games, 17375.5 points for Zeno 2.0: Ordo 2465.6 vs 2134.4 (difference 331.2);
    // 20003 games, 16525 points for Zeno 3.0: Ordo 2436.6 vs 2163.4 (difference 273.2).
    // The draws do not matter (the fit uses scores, as Ordo's does).
    let to_ordo = 202.0 / (400.0 * (0.76f64 / 0.24).log10());
    for (wins, draws, losses, ordo) in [(16205, 2341, 1454, 331.2), (15458, 2134, 2411, 273.2)] {
        let r = rate(
            &games("new", "old", wins, draws, losses),
            &anchored("old", 0.0),
        )
        .unwrap();
        let diff = r.get("new").unwrap().elo.unwrap() * to_ordo;
        // Ordo prints one decimal per player: the difference is good to ±0.1.
        assert!((diff - ordo).abs() <= 0.11, "{diff} vs Ordo {ordo}");
    }
}

#[test]
fn all_draws_keep_an_honest_interval() {
    // Three draws say little: the draw model must not conclude that every game is a draw and
    // shrink the interval to nothing. With the fitted draw rate capped at n/(n+1) = 3/4, a
    // game's score variance at 50% is 1/4 - 3/16 = 1/16, so the SD of A - B is
    // sqrt(1/16 / 3) / (1/4) / (ln 10 / 400) = 100.3 Elo and the 95% half-width 196.6; the weak
    // 2000-Elo prior (precision 2.5e-7 against the games' 2.49e-5 per Elo^2) is counted in both
    // factors of the sandwich and widens it to 198.5. (Before the cap: 19.7.)
    let g = games("A", "B", 0, 3, 0);
    let r = rate(&g, &anchored("B", 0.0)).unwrap();
    let a = r.get("A").unwrap();
    assert!(a.elo.unwrap().abs() < 1e-6);
    let half = (a.upper.unwrap() - a.lower.unwrap()) / 2.0;
    assert!((half - 198.5).abs() < 0.5, "{half}");
    assert!((r.equal_draw_rate - 0.75).abs() < 1e-9);
}

/// A prior SD below 1 Elo (1e-300 left the information matrix singular, blamed on the games)
/// and an anchor beyond ±10000 (1e300 did not converge) are option errors.
#[test]
fn tiny_prior_sds_and_absurd_anchors_are_option_errors() {
    let g = games("A", "B", 5, 2, 3);
    for (opts, word) in [
        (
            RateOptions {
                prior_sd: 1e-300,
                ..RateOptions::default()
            },
            "rating: the prior SD must be from 1 to 100000 Elo, not 1e-300",
        ),
        (
            RateOptions {
                prior_sd: 1e300,
                ..RateOptions::default()
            },
            "rating: the prior SD must be from 1 to 100000 Elo",
        ),
        (
            RateOptions {
                anchors: vec![Anchor::hard("A", 1e300)],
                ..RateOptions::default()
            },
            "anchor 'A': the rating must be a number within ±10000, not 1e300",
        ),
    ] {
        let err = rate(&g, &opts).unwrap_err().to_string();
        assert!(err.contains(word), "{word}: {err}");
    }
}

#[test]
fn bad_options_are_errors() {
    let g = games("A", "B", 5, 2, 3);
    // each with the word its message names: every message starts `rating:` or `anchor`, so
    // the prefix alone would pass any error
    for (opts, word) in [
        (
            RateOptions {
                prior_sd: f64::INFINITY,
                ..RateOptions::default()
            },
            "prior SD",
        ),
        (
            RateOptions {
                prior_sd: 0.0,
                ..RateOptions::default()
            },
            "prior SD",
        ),
        (
            RateOptions {
                white_advantage: WhiteAdvantage::Fixed(f64::NAN),
                ..RateOptions::default()
            },
            "white advantage",
        ),
        (
            RateOptions {
                white_advantage: WhiteAdvantage::Fixed(1e308),
                ..RateOptions::default()
            },
            "white advantage",
        ),
        (
            RateOptions {
                draw_rate: Some(1.0),
                ..RateOptions::default()
            },
            "draw rate",
        ),
        (
            RateOptions {
                confidence: 1.0,
                ..RateOptions::default()
            },
            "confidence",
        ),
        (
            RateOptions {
                anchors: vec![Anchor::hard("A", f64::NAN)],
                ..RateOptions::default()
            },
            "anchor 'A': the rating must be a number",
        ),
    ] {
        let err = rate(&g, &opts).unwrap_err().to_string();
        assert!(
            (err.starts_with("rating:") || err.starts_with("anchor")) && err.contains(word),
            "{word}: {err}"
        );
    }
}
