//! Lichess's formulas against values worked by hand (Python, from the formulas in lila's
//! WinPercent.scala / AccuracyPercent.scala / Advice.scala) and against the sample data in
//! AccuracyPercent.scala's comment.

use skillcal::analysis::percentile;
use skillcal::analysis::{
    accuracy_percent, game_accuracy, win_percent, winning_chances, Judgement, Score,
};

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b}");
}

#[test]
fn winning_chances_by_hand() {
    // 2 / (1 + exp(-0.00368208 cp)) - 1
    close(winning_chances(0), 0.0, 1e-15);
    close(winning_chances(100), 0.182_051_794_383_225_6, 1e-12);
    close(winning_chances(200), 0.352_423_274_970_108, 1e-12);
    close(winning_chances(300), 0.502_251_001_876_696_8, 1e-12);
    close(winning_chances(-300), -0.502_251_001_876_696_8, 1e-12);
    // Capped at +-1000 (Eval.Cp.CEILING): 5000 cp and a mate are the cap.
    close(winning_chances(1000), 0.950_894_872_682_864_5, 1e-12);
    assert_eq!(winning_chances(5000), winning_chances(1000));
    assert_eq!(Score::Mate(7).capped_cp(), 1000);
    assert_eq!(Score::Mate(-2).capped_cp(), -1000);
    assert_eq!(Score::Mate(0).capped_cp(), -1000);
    assert_eq!(Score::Cp(-4321).capped_cp(), -1000);
    close(win_percent(100), 59.102_589_719_161_28, 1e-10);
    close(win_percent(-300), 24.887_449_906_165_16, 1e-10);
}

#[test]
fn judgements_at_the_thresholds() {
    // From an equal position (0 cp) to the mover's -cp: drops 0.1998 / 0.2033 / 0.2998 / 0.3031.
    let drop = |after: i32| winning_chances(0) - winning_chances(after);
    assert_eq!(Judgement::from_drop(drop(-50)), Judgement::Good); // 0.0918
    assert_eq!(Judgement::from_drop(drop(-100)), Judgement::Inaccuracy); // 0.1821
    assert_eq!(Judgement::from_drop(drop(-110)), Judgement::Inaccuracy); // 0.1998
    assert_eq!(Judgement::from_drop(drop(-112)), Judgement::Mistake); // 0.2033
    assert_eq!(Judgement::from_drop(drop(-168)), Judgement::Mistake); // 0.2998
    assert_eq!(Judgement::from_drop(drop(-170)), Judgement::Blunder); // 0.3031
                                                                      // Exactly at a threshold counts (Advice.scala: `d <= delta`).
    assert_eq!(Judgement::from_drop(0.1), Judgement::Inaccuracy);
    assert_eq!(Judgement::from_drop(0.2), Judgement::Mistake);
    assert_eq!(Judgement::from_drop(0.3), Judgement::Blunder);
    // A gain is never an error; a lost position lost further barely moves the scale.
    assert_eq!(Judgement::from_drop(-0.5), Judgement::Good);
    let d = winning_chances(-700) - winning_chances(-1000);
    assert_eq!(Judgement::from_drop(d), Judgement::Good);
}

#[test]
fn accuracy_by_hand_and_lila_fit_data() {
    // No drop (or a gain): 100.
    assert_eq!(accuracy_percent(50.0, 50.0), 100.0);
    assert_eq!(accuracy_percent(40.0, 60.0), 100.0);
    // 103.1668100711649 exp(-0.04354415386753951 d) - 3.166924740191411 + 1
    close(accuracy_percent(60.0, 50.0), 64.579_828_453_720_67, 1e-9);
    close(accuracy_percent(70.0, 50.0), 41.016_818_741_417_13, 1e-9);
    close(accuracy_percent(100.0, 0.0), 0.0, 0.0);
    // The curve was fitted to (0, 100), (5, 75), (10, 60), (20, 42), (40, 20), (60, 5),
    // (80, 0) (AccuracyPercent.scala's comment); without lila's +1 bonus it passes within 6.
    for (d, y) in [
        (5.0, 75.0),
        (10.0, 60.0),
        (20.0, 42.0),
        (40.0, 20.0),
        (60.0, 5.0),
    ] {
        close(accuracy_percent(50.0 + d, 50.0) - 1.0, y, 6.0);
    }
    close(accuracy_percent(90.0, 10.0) - 1.0, 0.0, 0.001);
    close(accuracy_percent(100.0, 100.0 - 1e-9), 100.0, 1e-6);
}

#[test]
fn game_accuracy_as_lila() {
    // Worked in Python from AccuracyPercent.gameAccuracy and lila's Maths (population SD,
    // harmonic mean over max(1, v), weighted mean).
    let cps = [20, -30, 40, -250, 300, 280, -600, 700, 650, 690, 700, 1000];
    let (w, b) = game_accuracy(15, &cps, true);
    close(w.unwrap(), 40.523_388_746_474_815, 1e-9);
    close(b.unwrap(), 32.143_665_485_414_17, 1e-9);
    let mut long: Vec<i32> = cps.to_vec();
    long.extend([990; 20]);
    long.extend([-5; 5]);
    let (w, b) = game_accuracy(15, &long, false);
    close(w.unwrap(), 86.988_594_044_376_38, 1e-9);
    close(b.unwrap(), 75.756_203_169_52, 1e-9);
    // A quiet game is 100 for both; one move: one side only.
    let (w, b) = game_accuracy(15, &[15, 15, 15, 15], true);
    close(w.unwrap(), 100.0, 1e-12);
    close(b.unwrap(), 100.0, 1e-12);
    let (w, b) = game_accuracy(15, &[15], true);
    assert!(w.is_some() && b.is_none());
}

#[test]
fn percentiles_interpolate() {
    let xs = [0.0, 10.0, 20.0, 30.0, 40.0];
    assert_eq!(percentile(&xs, 50.0), Some(20.0));
    assert_eq!(percentile(&xs, 75.0), Some(30.0));
    assert_eq!(percentile(&xs, 90.0), Some(36.0));
    assert_eq!(percentile(&xs, 100.0), Some(40.0));
    assert_eq!(percentile(&[], 50.0), None);
}
