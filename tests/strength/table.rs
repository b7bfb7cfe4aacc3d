//! The UCI_Elo table: parsing, errors with file and line, interpolation.

use skillcal::strength::{EloTable, Knob, NoiseModel, Value};

fn num(row: &skillcal::strength::Row, knob: Knob) -> f64 {
    match row.values.iter().find(|(k, _)| *k == knob).map(|(_, v)| *v) {
        Some(Value::Num(x)) => x,
        other => panic!("{} is {other:?}", knob.name()),
    }
}

const GOOD: &str = "# provisional: test table
# a comment

elo,ScoreInaccuracy,NoiseModel,NoiseDrift,LimitNodes,LimitDepth,elo_lower,elo_upper
1000,300,gaussian,1.0,1000,4,950,1050
1400,100,gbm,0.5,4000,0,1360,1440
2000,0,none,0.0,0,8,,
";

fn good() -> EloTable {
    EloTable::parse(GOOD, "good.csv").unwrap()
}

#[test]
fn embedded_table_is_valid_and_says_whether_it_is_provisional() {
    let t = EloTable::embedded();
    let text = include_str!("../../configs/uci_elo_table.csv");
    assert_eq!(t.provisional(), text.contains("# provisional"));
    // it spans the anchored range from its lowest anchor (1320) well into the middle
    let (lo, hi) = t.elo_range();
    assert!(lo <= 1320.0 && hi >= 2000.0, "{lo}..{hi}");
    assert!(t.knobs().contains(&Knob::LimitNodes));
}

#[test]
fn good_table_parses_with_comments_and_interval_columns() {
    let t = good();
    assert!(t.provisional());
    assert_eq!(t.source(), "good.csv");
    assert_eq!(
        t.knobs(),
        [
            Knob::ScoreInaccuracy,
            Knob::NoiseModel,
            Knob::NoiseDrift,
            Knob::LimitNodes,
            Knob::LimitDepth
        ]
    );
    assert_eq!(t.rows().len(), 3);
    assert_eq!(t.elo_range(), (1000.0, 2000.0));
    let plain = GOOD.replace("# provisional: test table", "# measured");
    assert!(!EloTable::parse(&plain, "x").unwrap().provisional());
}

#[test]
fn interpolation_between_rows() {
    let t = good();
    let r = t.settings_for_elo(1200.0);
    assert_eq!(r.elo, 1200.0);
    assert_eq!(num(&r, Knob::ScoreInaccuracy), 200.0); // linear
    assert!((num(&r, Knob::NoiseDrift) - 0.75).abs() < 1e-12); // linear, real
    assert_eq!(num(&r, Knob::LimitNodes), 2000.0); // log-linear: geometric mean
    assert_eq!(num(&r, Knob::LimitDepth), 0.0); // 0 = unlimited: a step at t = 0.5, to the upper
    assert_eq!(r.values[1].1, Value::Model(NoiseModel::Gaussian)); // lower row's model
    let r = t.settings_for_elo(1102.0); // t = 0.255
    assert_eq!(num(&r, Knob::ScoreInaccuracy), 249.0); // 300 - 51
    assert_eq!(num(&r, Knob::LimitNodes), 1424.0); // 1000 * 4^0.255 = 1424.05
    assert_eq!(num(&r, Knob::LimitDepth), 4.0); // nearer row: the lower
    let r = t.settings_for_elo(1350.0); // t = 0.875: nearer row is the upper
    assert_eq!(num(&r, Knob::LimitDepth), 0.0);
    let r = t.settings_for_elo(1700.0); // between 4000 and unlimited: t = 0.5 -> upper
    assert_eq!(num(&r, Knob::LimitNodes), 0.0);
    assert_eq!(num(&r, Knob::ScoreInaccuracy), 50.0);
}

#[test]
fn rows_exactly_and_clamped_at_the_ends() {
    let t = good();
    for row in t.rows() {
        assert_eq!(&t.settings_for_elo(row.elo).values, &row.values);
    }
    assert_eq!(t.settings_for_elo(200.0).values, t.rows()[0].values);
    assert_eq!(t.settings_for_elo(3000.0).values, t.rows()[2].values);
}

fn error_of(text: &str) -> String {
    EloTable::parse(text, "bad.csv").unwrap_err().to_string()
}

#[test]
fn malformed_tables_name_file_and_line() {
    let header = "# c\nelo,ScoreInaccuracy,LimitNodes\n";
    let cases = [
        (
            format!("{header}1000,100,500\n1200,50\n"),
            "bad.csv:4: 2 fields, the header has 3",
        ),
        (
            format!("{header}1000,100,500\nabc,50,500\n"),
            "bad.csv:4: elo 'abc' is not a number",
        ),
        (
            format!("{header}1000,x,500\n"),
            "bad.csv:3: column ScoreInaccuracy: 'x' is not an integer",
        ),
        (
            format!("{header}1000,-5,500\n"),
            "bad.csv:3: column ScoreInaccuracy: -5 is outside 0..=3000",
        ),
        (
            format!("{header}1000,5,500\n1000,4,600\n"),
            "bad.csv:4: elo 1000 does not increase",
        ),
        (
            "elo,Bogus\n1000,1\n".to_string(),
            "bad.csv:1: unknown column 'Bogus'",
        ),
        (
            "elo,MultiPV,multipv\n".to_string(),
            "bad.csv:1: column MultiPV appears twice",
        ),
        (
            "Elo_rating,MultiPV\n".to_string(),
            "bad.csv:1: the first column must be `elo`",
        ),
        ("# only comments\n".to_string(), "bad.csv: no header line"),
        (header.to_string(), "bad.csv: no rows after the header"),
        (
            "elo,NoiseModel\n900,brownian\n".to_string(),
            "bad.csv:2: column NoiseModel: 'brownian' is not one of",
        ),
        // a table that sets no knob played full strength at every Elo
        (
            "# c\nelo,elo_lower,elo_upper\n1000,900,1100\n2000,1900,2100\n".to_string(),
            "bad.csv:2: no knob column: the table sets nothing (knob columns: ScoreInaccuracy,",
        ),
        ("elo\n1000\n2000\n".to_string(), "bad.csv:1: no knob column"),
        // interval columns are not used, but must hold what the calibration writes: numbers
        (
            "elo,LimitNodes,elo_lower\n1000,100,900\n2000,300,xyz\n".to_string(),
            "bad.csv:3: column elo_lower: 'xyz' is not a number",
        ),
    ];
    for (text, want) in cases {
        let got = error_of(&text);
        assert!(got.starts_with(want), "got '{got}', want '{want}'");
    }
}

#[test]
fn load_reads_files_and_names_missing_ones() {
    let dir = std::env::temp_dir().join(format!("skillcal-strength-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.csv");
    std::fs::write(&path, GOOD).unwrap();
    let t = EloTable::load(&path).unwrap();
    assert_eq!(t.rows().len(), 3);
    assert_eq!(t.source(), path.display().to_string());
    let missing = dir.join("missing.csv");
    let err = EloTable::load(&missing).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}: cannot read", missing.display())),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A row of 1e300 Elo (what a calibration with `targets = { from = 1e300, ... }` wrote) or a
/// negative one was loaded and clamped to; it is refused with file and line, as `inf` is.
#[test]
fn absurd_elo_rows_are_refused_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("skillcal-absurd-elo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.csv");
    for (rows, want) in [
        (
            "1000,100\n1e300,200\n",
            ":4: elo '1e300' is outside 0..=4000",
        ),
        ("-100,100\n1000,200\n", ":3: elo '-100' is outside 0..=4000"),
        (
            "1000,100\n4000.5,200\n",
            ":4: elo '4000.5' is outside 0..=4000",
        ),
        ("1000,100\ninf,200\n", ":4: elo 'inf' is not a number"),
    ] {
        std::fs::write(&path, format!("# a table\nelo,LimitNodes\n{rows}")).unwrap();
        let err = EloTable::load(&path).unwrap_err().to_string();
        assert_eq!(err, format!("{}{want}", path.display()), "{rows}");
    }
    // the bounds themselves are rows
    std::fs::write(&path, "elo,LimitNodes\n0,1\n4000,100\n").unwrap();
    assert_eq!(EloTable::load(&path).unwrap().elo_range(), (0.0, 4000.0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn row_spec_is_setoption_text() {
    let r = good().settings_for_elo(1100.0);
    assert_eq!(
        r.to_spec(),
        "ScoreInaccuracy=250,NoiseModel=gaussian,NoiseDrift=0.875,LimitNodes=1414,LimitDepth=4"
    );
    let mut s = skillcal::strength::Settings::default();
    for part in r.to_spec().split(',') {
        let (n, v) = part.split_once('=').unwrap();
        s.set_option(n, v).unwrap();
    }
    assert_eq!(s.noise_drift, 0.875);
    let r = good().settings_for_elo(1000.0 + 400.0 / 3.0);
    assert!(
        r.to_spec().contains(",NoiseDrift=0.8333,"),
        "{}",
        r.to_spec()
    );
}

/// The shipped tables give each row on Lichess's scales by the embedded human scale
/// (the pool's measured map); the engine reads `elo` and ignores
/// them, and refuses a column that is neither a knob, an interval nor a human scale.
#[test]
fn shipped_tables_give_their_rows_on_lichess_scales() {
    let maps = skillcal::strength::scale_maps();
    // the engine's scales are the ones a pool measures and a calibration writes
    let names: Vec<&str> = maps.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, skillcal::results::HUMAN_SCALES);
    let mut tables = vec![("embedded", include_str!("../../configs/uci_elo_table.csv"))];
    for f in skillcal::strength::Family::ALL {
        if !EloTable::parse(f.table_csv(), "t").unwrap().provisional() {
            tables.push((f.name(), f.table_csv()));
        }
    }
    assert!(tables.len() >= 6, "{}", tables.len());
    for (name, text) in tables {
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let head: Vec<&str> = body[0].split(',').collect();
        for m in maps {
            let col = skillcal::results::human_column(&m.name);
            let i = head
                .iter()
                .position(|h| *h == col)
                .unwrap_or_else(|| panic!("{name}: no {col}"));
            for row in &body[1..] {
                let f: Vec<&str> = row.split(',').collect();
                let elo: f64 = f[0].parse().unwrap();
                assert_eq!(
                    f[i].parse::<f64>().unwrap(),
                    m.from_pool(elo).round(),
                    "{name}: {row}"
                );
            }
            assert!(
                text.contains(&format!("# {}: {col} = elo", m.name)),
                "{name}"
            );
        }
    }
    let e = error_of("elo,LimitNodes,lichess_bullet\n1000,100,1200\n");
    assert!(
        e.contains("unknown column 'lichess_bullet'") && e.contains("lichess_blitz"),
        "{e}"
    );
}
