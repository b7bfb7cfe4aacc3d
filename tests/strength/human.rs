//! `Style=human`'s option and schedule: HumanStrength parsed and range-checked, the family's
//! table read under UCI_LimitStrength, and a schedule in which every step up adds strength.

use skillcal::strength::{human_plan as plan, HUMAN_MAX, MISTAKES_END, POLICY_END};
use skillcal::strength::{Family, Knob, Settings, Value};

#[test]
fn human_strength_is_a_knob_and_style_human_reads_its_table() {
    let mut s = Settings::default();
    assert_eq!(
        s.human_strength, HUMAN_MAX,
        "the default is the strongest point"
    );
    s.set_option("humanstrength", " 250 ").unwrap();
    s.set_option("Style", "Human").unwrap();
    assert_eq!(s.style, Family::Human);
    assert!(!s.maia.on);
    assert_eq!(
        s.to_spec(),
        "HumanStrength=250",
        "Style human is the default"
    );
    assert_eq!(Settings::from_spec(&s.to_spec()).unwrap(), s);
    for bad in ["-1", "1001", "x", "2.5"] {
        let err = s.set_option("HumanStrength", bad).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("option HumanStrength: bad value '{bad}'")),
            "{err}"
        );
    }
    assert_eq!(s.human_strength, 250, "a bad value changes nothing");
    // UCI_LimitStrength: the human table's row sets HumanStrength, monotone in UCI_Elo
    s.set_option("UCI_LimitStrength", "true").unwrap();
    assert_eq!(s.table().knobs(), &[Knob::HumanStrength]);
    let mut last = -1.0;
    for elo in [600, 1000, 1500, 2000, 2500] {
        s.set_option("UCI_Elo", &elo.to_string()).unwrap();
        let Value::Num(h) = s.effective().knob(Knob::HumanStrength) else {
            panic!("a number")
        };
        assert!(h > last, "UCI_Elo {elo}: HumanStrength {h} after {last}");
        last = h;
    }
    assert!(s.strength_info().unwrap().contains("(Style human"));
}

#[test]
fn every_step_of_the_schedule_adds_strength() {
    let mut prev = plan(0);
    for h in 1..=HUMAN_MAX + 1 {
        let p = plan(h);
        assert!(p.net >= prev.net, "{h}: band {} after {}", p.net, prev.net);
        match (&prev.search, &p.search) {
            // fewer mistakes (a larger weight against them), then a stronger band's net (a step that moves nothing within a
            // band is allowed: the nets stretch has 300 values for 9 nets)
            (None, None) => match (&prev.mistakes, &p.mistakes) {
                (Some(a), Some(b)) => assert!(b.weight > a.weight, "{h}: {b:?} after {a:?}"),
                (Some(a), None) => {
                    assert_eq!((h, a.weight.is_finite(), p.net), (MISTAKES_END, true, 1100))
                }
                (None, None) => {}
                (None, Some(_)) => panic!("{h}: mistakes again"),
            },
            (None, Some(_)) => assert_eq!(
                (h, prev.net, prev.mistakes.is_none()),
                (POLICY_END + 1, 1900, true)
            ),
            (Some(a), Some(b)) => {
                assert!(
                    b.nodes >= a.nodes && b.margin <= a.margin,
                    "{h}: {b:?} after {a:?}"
                );
                assert!(b.engine_best >= a.engine_best, "{h}");
                assert!(
                    b.nodes > a.nodes || b.margin < a.margin || h > HUMAN_MAX,
                    "{h}: a step that moves nothing"
                );
            }
            (Some(_), None) => panic!("{h}: back to the policy half"),
        }
        prev = p;
    }
    let bands: std::collections::BTreeSet<u32> = (0..=POLICY_END).map(|h| plan(h).net).collect();
    assert_eq!(bands.len(), 9, "every Maia band is on the path: {bands:?}");
}
