//! Settings: UCI option parsing and errors, declarations, Name=value specs, UCI_Elo precedence.

use skillcal::strength::{Knob, Noise, NoiseModel, OptionError, Settings, TableSource};

#[test]
fn defaults_are_full_strength() {
    let s = Settings::default();
    assert_eq!(s.score_inaccuracy, 0);
    assert_eq!(s.multipv, 1);
    assert_eq!(s.noise_model, NoiseModel::None);
    assert_eq!(s.noise(), Noise::None);
    assert_eq!((s.limit_nodes, s.limit_nps, s.limit_depth), (0, 0, 0));
    assert_eq!(s.noise_horizon, 1.0);
    assert_eq!(s.win_guard, 1000);
    assert_eq!(s.random_seed, 0);
    assert!(!s.limit_strength);
    assert_eq!(s.strength_table, TableSource::Embedded);
    assert_eq!(s.to_spec(), "");
    assert_ne!(s.resolved_seed(), 0);
    assert_eq!(
        Settings::from_spec("RandomSeed=17")
            .unwrap()
            .resolved_seed(),
        17
    );
    assert_eq!(s.effective(), s);
}

#[test]
fn every_option_sets_its_field() {
    let mut s = Settings::default();
    for (name, value) in [
        ("ScoreInaccuracy", "120"),
        ("multipv", "4"), // names are case-insensitive
        ("NoiseModel", "GBM"),
        ("NoiseUniform", "30"),
        ("NoiseSigma", "45"),
        ("NoiseDrift", "0.25"),
        ("NoiseDiffusion", "1.5"),
        ("NoiseHorizon", "2"),
        ("LimitNodes", "20000"),
        ("LimitNps", "5000"),
        ("LimitDepth", "7"),
        ("WinGuard", "1500"),
        ("RandomSeed", "99"),
        ("UCI_LimitStrength", "true"),
        ("UCI_Elo", "1500"),
    ] {
        s.set_option(name, value)
            .unwrap_or_else(|e| panic!("{name}={value}: {e}"));
    }
    assert_eq!(s.score_inaccuracy, 120);
    assert_eq!(s.multipv, 4);
    assert_eq!(
        s.noise(),
        Noise::Gbm {
            drift: 0.25,
            diffusion: 1.5,
            horizon: 2.0
        }
    );
    assert_eq!((s.noise_uniform, s.noise_sigma), (30, 45));
    assert_eq!(
        (s.limit_nodes, s.limit_nps, s.limit_depth),
        (20000, 5000, 7)
    );
    assert_eq!(
        (s.win_guard, s.random_seed, s.limit_strength, s.elo),
        (1500, 99, true, 1500)
    );
    s.set_option("NoiseModel", "uniform").unwrap();
    assert_eq!(s.noise(), Noise::Uniform { a: 30.0 });
    s.set_option("NoiseModel", "gaussian").unwrap();
    assert_eq!(s.noise(), Noise::Gaussian { sigma: 45.0 });
}

fn err(name: &str, value: &str) -> String {
    Settings::default()
        .set_option(name, value)
        .unwrap_err()
        .to_string()
}

/// `UCI_Elo` is kept as given, whatever the table (a `StrengthTable` or `Style` set after it
/// sets the range; an arbitrary `0..=5000` matched neither the declaration nor the table);
/// [`Settings::elo_outside`] says when it lies outside the declared range and what is played.
#[test]
fn uci_elo_outside_the_tables_range_is_kept_and_reported() {
    let huge = "99999999999999999999";
    let minus_huge = format!("-{huge}");
    let mut s = Settings::default();
    for (value, stored, used) in [
        ("9000", 9000, 2600),
        ("100", 100, 600),
        (huge, i64::MAX, 2600),
        (minus_huge.as_str(), i64::MIN, 600),
    ] {
        s.set_option("UCI_Elo", value).unwrap();
        assert_eq!(s.elo, stored);
        let o = s.elo_outside().unwrap();
        assert_eq!((o.bounds, o.used), ((600, 2600), used));
        assert_eq!(
            o.message(value),
            format!("UCI_Elo {value} is outside 600..=2600, the range of the Style human table")
        );
    }
    s.set_option("UCI_Elo", "2600").unwrap();
    assert_eq!(s.elo_outside(), None);
    // the range follows the table: 2600 is beyond the nodes family's
    s.set_option("Style", "nodes").unwrap();
    assert_eq!(s.elo_bounds(), (800, 2400));
    assert_eq!(s.elo_outside().map(|o| o.used), Some(2400));
}

/// A number too large for any integer type is out of range, not "not an integer" (audit case
/// 484); its sign and digits are read as written.
#[test]
fn an_overflowing_integer_is_out_of_range() {
    let huge = "99999999999999999999";
    assert_eq!(
        err("RandomSeed", huge),
        format!("option RandomSeed: bad value '{huge}': {huge} is outside 0..=2147483647")
    );
    assert_eq!(
        err("LimitNodes", huge),
        format!("option LimitNodes: bad value '{huge}': {huge} is outside 0..=2000000000")
    );
    assert_eq!(
        err("RandomSeed", "-5"),
        "option RandomSeed: bad value '-5': -5 is outside 0..=2147483647"
    );
    assert_eq!(
        err("LimitDepth", "1e3"),
        "option LimitDepth: bad value '1e3': '1e3' is not an integer"
    );
}

#[test]
fn bad_values_name_the_option_and_the_value() {
    assert_eq!(
        err("ScoreInaccuracy", "lots"),
        "option ScoreInaccuracy: bad value 'lots': 'lots' is not an integer"
    );
    assert_eq!(
        err("ScoreInaccuracy", "3001"),
        "option ScoreInaccuracy: bad value '3001': 3001 is outside 0..=3000"
    );
    assert_eq!(
        err("MultiPV", "0"),
        "option MultiPV: bad value '0': 0 is outside 1..=256"
    );
    assert_eq!(err("NoiseModel", "brownian"), "option NoiseModel: bad value 'brownian': 'brownian' is not one of none, uniform, gaussian, gbm");
    assert_eq!(
        err("NoiseDrift", "-0.5"),
        "option NoiseDrift: bad value '-0.5': -0.5 is outside 0..=20"
    );
    assert_eq!(
        err("NoiseDiffusion", "NaN"),
        "option NoiseDiffusion: bad value 'NaN': NaN is outside 0..=20"
    );
    assert_eq!(
        err("NoiseHorizon", "soon"),
        "option NoiseHorizon: bad value 'soon': 'soon' is not a number"
    );
    assert_eq!(
        err("LimitNodes", "-1"),
        "option LimitNodes: bad value '-1': -1 is outside 0..=2000000000"
    );
    assert_eq!(
        err("WinGuard", "50"),
        "option WinGuard: bad value '50': 50 is outside 100..=10000"
    );
    assert_eq!(
        err("RandomSeed", "4294967296"),
        "option RandomSeed: bad value '4294967296': 4294967296 is outside 0..=2147483647"
    );
    assert_eq!(
        err("UCI_LimitStrength", "yes"),
        "option UCI_LimitStrength: bad value 'yes': 'yes' is not true or false"
    );
    assert_eq!(
        err("UCI_Elo", "1500.5"),
        "option UCI_Elo: bad value '1500.5': '1500.5' is not an integer"
    );
    assert_eq!(err("Skill Level", "3"), "unknown option 'Skill Level'");
    let missing = err("StrengthTable", "/nonexistent/table.csv");
    assert!(
        missing.starts_with("option StrengthTable: /nonexistent/table.csv: cannot read"),
        "{missing}"
    );
}

#[test]
fn a_failed_setoption_changes_nothing() {
    let mut s = Settings::default();
    s.set_option("ScoreInaccuracy", "40").unwrap();
    let before = s.clone();
    assert!(s.set_option("ScoreInaccuracy", "x").is_err());
    assert!(s.set_option("StrengthTable", "/nonexistent.csv").is_err());
    assert_eq!(s, before);
}

#[test]
fn declarations_cover_every_option_and_accept_their_defaults() {
    let s = Settings::default();
    let decls = s.uci_options();
    let lines: Vec<String> = decls.iter().map(|d| d.to_string()).collect();
    for want in [
        "option name ScoreInaccuracy type spin default 0 min 0 max 3000",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name NoiseModel type combo default none var none var uniform var gaussian var gbm",
        "option name NoiseDrift type string default 0",
        "option name NoiseHorizon type string default 1",
        "option name LimitNodes type spin default 0 min 0 max 2000000000",
        "option name RandomSeed type spin default 0 min 0 max 2147483647",
        "option name UCI_LimitStrength type check default false",
        "option name StrengthTable type string default <embedded>",
    ] {
        assert!(
            lines.iter().any(|l| l == want),
            "missing '{want}' in {lines:#?}"
        );
    }
    // UCI_Elo spans the embedded table, whatever table is installed
    let (lo, hi) = skillcal::strength::EloTable::embedded().elo_range();
    let (lo, hi) = (lo.floor() as i64, hi.ceil() as i64);
    let want = format!("option name UCI_Elo type spin default {lo} min {lo} max {hi}");
    assert!(lines.contains(&want), "missing '{want}' in {lines:#?}");
    let mut names: Vec<&str> = decls.iter().map(|d| d.name).collect();
    for required in [
        "ScoreInaccuracy",
        "MultiPV",
        "NoiseModel",
        "LimitNodes",
        "LimitNps",
        "LimitDepth",
        "RandomSeed",
        "UCI_LimitStrength",
        "UCI_Elo",
        "StrengthTable",
    ] {
        assert!(names.contains(&required), "{required}");
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), decls.len(), "duplicate declarations");
    // Setting every declared default leaves the defaults unchanged.
    let mut t = Settings::default();
    for line in &lines {
        let rest = line.strip_prefix("option name ").unwrap();
        let (name, rest) = rest.split_once(" type ").unwrap();
        let default = rest
            .split(" default ")
            .nth(1)
            .unwrap()
            .split(" min ")
            .next()
            .unwrap();
        let default = default.split(" var ").next().unwrap();
        t.set_option(name, default)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    assert_eq!(t, s);
}

#[test]
fn specs_round_trip() {
    let spec = "ScoreInaccuracy=50,LimitNodes=20000";
    let s = Settings::from_spec(spec).unwrap();
    assert_eq!((s.score_inaccuracy, s.limit_nodes), (50, 20000));
    assert_eq!(s.to_spec(), spec);
    let full = "ScoreInaccuracy=75,MultiPV=3,NoiseModel=gbm,NoiseDrift=0.5,NoiseDiffusion=0.25,LimitDepth=9,RandomSeed=7,UCI_LimitStrength=true,UCI_Elo=1234";
    let s = Settings::from_spec(full).unwrap();
    assert_eq!(s.to_spec(), full);
    assert_eq!(Settings::from_spec(&s.to_spec()).unwrap(), s);
    // Order-insensitive input, canonical output; spaces tolerated; empty = defaults.
    assert_eq!(
        Settings::from_spec(" LimitNodes=20000 , ScoreInaccuracy=50 ")
            .unwrap()
            .to_spec(),
        spec
    );
    assert_eq!(Settings::from_spec("").unwrap(), Settings::default());
    let e = Settings::from_spec("ScoreInaccuracy=50,LimitNodes").unwrap_err();
    assert_eq!(
        e.to_string(),
        "settings 'ScoreInaccuracy=50,LimitNodes': 'LimitNodes' is not Name=value"
    );
    assert!(matches!(
        Settings::from_spec("Foo=1"),
        Err(OptionError::Unknown { .. })
    ));
}

#[test]
fn limit_strength_row_overrides_only_its_columns() {
    let dir = std::env::temp_dir().join(format!("skillcal-strength-row-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("levels.csv");
    std::fs::write(
        &path,
        "# provisional: a test table\nelo,ScoreInaccuracy,MultiPV,LimitNodes\n1000,400,4,800\n1200,300,4,1500\n",
    )
    .unwrap();
    let mut s = Settings::from_spec("ScoreInaccuracy=5,NoiseHorizon=3,LimitNps=9000").unwrap();
    s.set_option("StrengthTable", path.to_str().unwrap())
        .unwrap();
    let explicit = s.clone();
    s.set_option("UCI_Elo", "1100").unwrap();
    assert_eq!(s.effective(), s, "UCI_Elo alone changes nothing");
    s.set_option("UCI_LimitStrength", "true").unwrap();
    let e = s.effective();
    let row = s.table().settings_for_elo(1100.0);
    for (knob, value) in &row.values {
        assert_eq!(e.knob(*knob), *value, "{}", knob.name());
    }
    assert_eq!(e.score_inaccuracy, 350); // 400 at 1000, 300 at 1200
                                         // Knobs the table has no column for keep their explicit values.
    assert!(!s.table().knobs().contains(&Knob::NoiseHorizon));
    assert_eq!((e.noise_horizon, e.limit_nps), (3.0, 9000));
    let info = s.strength_info().unwrap();
    assert!(
        info.starts_with(&format!(
            "UCI_Elo 1100 (Style human, table {}, provisional: not yet calibrated): ScoreInaccuracy=350,",
            path.display()
        )),
        "{info}"
    );
    // Off again: the explicit values return.
    s.set_option("UCI_LimitStrength", "false").unwrap();
    assert_eq!(s.effective().score_inaccuracy, explicit.score_inaccuracy);
    assert!(s.strength_info().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn strength_table_option_loads_a_file() {
    let dir = std::env::temp_dir().join(format!("skillcal-strength-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("levels.csv");
    std::fs::write(&path, "elo,LimitNodes\n1000,100\n2000,10000\n").unwrap();
    let mut s = Settings::default();
    s.set_option("StrengthTable", path.to_str().unwrap())
        .unwrap();
    assert_eq!(s.strength_table, TableSource::Path(path.clone()));
    assert_eq!(s.table().elo_range(), (1000.0, 2000.0));
    s.set_option("UCI_LimitStrength", "true").unwrap();
    s.set_option("UCI_Elo", "1500").unwrap();
    assert_eq!(s.effective().limit_nodes, 1000);
    let decl = s
        .uci_options()
        .into_iter()
        .find(|d| d.name == "UCI_Elo")
        .unwrap();
    assert_eq!(
        decl.to_string(),
        "option name UCI_Elo type spin default 1000 min 1000 max 2000"
    );
    assert!(s
        .to_spec()
        .ends_with(&format!("StrengthTable={}", path.display())));
    s.set_option("StrengthTable", "<embedded>").unwrap();
    assert_eq!(s.strength_table, TableSource::Embedded);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn limits_combine_with_go() {
    let s = Settings::from_spec("LimitNodes=5000,LimitDepth=6,LimitNps=20000").unwrap();
    assert_eq!(s.node_limit(None), Some(5000));
    assert_eq!(s.node_limit(Some(100)), Some(100));
    assert_eq!(s.node_limit(Some(9000)), Some(5000));
    assert_eq!(s.depth_limit(Some(9)), Some(6));
    assert_eq!(s.nps_limit(), Some(20000));
    let d = Settings::default();
    assert_eq!((d.node_limit(None), d.node_limit(Some(7))), (None, Some(7)));
    assert_eq!((d.depth_limit(None), d.nps_limit()), (None, None));
}

#[test]
fn uci_elo_scale_reads_uci_elo_as_a_lichess_rating() {
    let blitz = skillcal::strength::scale_maps()
        .iter()
        .find(|m| m.name == "lichess-blitz")
        .expect("results/pool/human-scale.csv has lichess-blitz");
    let mut s = Settings::from_spec("UCI_LimitStrength=true,UCI_Elo=1600").unwrap();
    let pool_row = s.strength_row().unwrap();
    s.set_option("UCI_EloScale", "Lichess-Blitz").unwrap();
    assert_eq!(s.elo_scale, "lichess-blitz");
    assert!((s.pool_elo() - (1600.0 - blitz.offset)).abs() < 1e-9 || blitz.line.is_some());
    // a Lichess 1600 is weaker than a pool 1600: the row has fewer nodes
    let row = s.strength_row().unwrap();
    assert_eq!(row.elo, s.table().settings_for_elo(s.pool_elo()).elo);
    assert_ne!(row, pool_row);
    let info = s.strength_info().unwrap();
    assert!(info.contains("1600 on lichess-blitz is"), "{info}");
    // named in the spec, and read back
    assert!(
        s.to_spec().contains("UCI_EloScale=lichess-blitz"),
        "{}",
        s.to_spec()
    );
    assert_eq!(Settings::from_spec(&s.to_spec()).unwrap(), s);
    // an unknown scale is refused, naming the choices; the previous one is kept
    let e = s.set_option("UCI_EloScale", "fide").unwrap_err();
    assert!(e.to_string().contains("pool, lichess-blitz"), "{e}");
    assert_eq!(s.elo_scale, "lichess-blitz");
    s.set_option("UCI_EloScale", "pool").unwrap();
    assert_eq!(s.strength_row().unwrap(), pool_row);
}

/// The declared `UCI_Elo` range is the table's, on the pool's scale; on a human scale the usable
/// range is that one mapped and rounded to whole Elo, and a value outside it is said on that
/// scale, never as a fraction (a Lichess blitz 650 printed "529.2575815533426 is outside").
#[test]
fn uci_elo_range_and_messages_follow_the_scale_in_whole_elo() {
    let blitz = skillcal::strength::scale_maps()
        .iter()
        .find(|m| m.name == "lichess-blitz")
        .expect("results/pool/human-scale.csv has lichess-blitz");
    let on_blitz = |pool: f64| blitz.from_pool(pool).round() as i64;
    let (lo, hi) = (on_blitz(600.0), on_blitz(2600.0));
    let mut s = Settings::from_spec("UCI_LimitStrength=true,UCI_Elo=650").unwrap();
    assert_eq!(s.scale_bounds(), (600, 2600));
    assert_eq!(
        s.scale_info(),
        "UCI_EloScale pool: UCI_Elo is usable from 600 to 2600 (the Style human table's)"
    );
    s.set_option("UCI_EloScale", "lichess-blitz").unwrap();
    assert_eq!(s.elo_bounds(), (600, 2600));
    assert_eq!(s.scale_bounds(), (lo, hi));
    assert!(lo > 650, "a blitz 650 is below the table: {lo}");
    assert_eq!(
        s.scale_info(),
        format!(
            "UCI_EloScale lichess-blitz: UCI_Elo is usable from {lo} to {hi} (the Style human \
             table's 600-2600 on the pool's scale)"
        )
    );
    let o = s.elo_outside().unwrap();
    assert_eq!((o.bounds, o.used), ((lo, hi), lo));
    assert_eq!(
        o.message("650"),
        format!(
            "UCI_Elo 650 is outside {lo}..={hi}, the range of the Style human table on lichess-blitz"
        )
    );
    let info = s.strength_info().unwrap();
    let pool = (650.0 - blitz.offset).round();
    assert!(
        info.contains(&format!(
            "650 on lichess-blitz is {pool} on the pool's scale; {pool} is outside the table's \
             600-2600: its 600 row is played"
        )),
        "{info}"
    );
    // the top of the usable range is inside, one above it is not
    s.set_option("UCI_Elo", &hi.to_string()).unwrap();
    assert_eq!(s.elo_outside(), None);
    s.set_option("UCI_Elo", &(hi + 1).to_string()).unwrap();
    assert_eq!(s.elo_outside().map(|o| o.used), Some(hi));
}
