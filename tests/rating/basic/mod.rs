//! Hand-checkable rating, pentanomial and SPRT values.

use skillcal::rating::{
    head_to_head, rate, Anchor, EloScale, Game, GameResult, Intervals, Pentanomial, RateOptions,
    Reference, ScoreStats, Sprt, SprtState, WhiteAdvantage,
};

use GameResult::{BlackWins as BlackWin, Draw, WhiteWins as WhiteWin};

mod stats;

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
