//! Config values refused at load for their shape: targets out of order, a path end outside its
//! knob's range, a knob moved twice, pool keys beside a measured pool, zero opening plies, a
//! misshapen target or option value, questionable plan, pool, fit and name values.

use super::*;

/// `text` with `from` replaced by `to` once; the replacement must land.
fn with(text: &str, from: &str, to: &str) -> String {
    let out = text.replacen(from, to, 1);
    assert_ne!(out, text, "{to}: the replacement missed");
    out
}

/// The error of a calibration config that must be refused at load.
fn refused(text: &str) -> String {
    CalibrationConfig::parse(text, "configs/x.toml")
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

fn assert_refused(text: &str, expect: &str) {
    let e = refused(text);
    assert!(
        e.starts_with("configs/x.toml: ") && e.contains(expect),
        "{expect}: {e}"
    );
}

/// Targets of 1e300 Elo passed the checks: games were played and a table of 300-digit rows
/// written, which the engine then loaded; negative targets passed too. A target outside the
/// rows a table may have is refused at load, naming the file and the key.
#[test]
fn targets_beyond_a_tables_elo_are_refused_at_load() {
    let base = config_text(400, 50.0, "linear");
    let range = "targets = { from = 1000, to = 2500, step = 100 }";
    for (targets, expect) in [
        (
            "{ from = 1e300, to = 1.1e300, step = 1e299 }",
            "key `targets`: 1e300 is outside 0..=4000 Elo",
        ),
        (
            "{ from = -200, to = 1000, step = 100 }",
            "key `targets`: -200 is outside 0..=4000 Elo",
        ),
        (
            "{ from = 3000, to = 4100, step = 100 }",
            "key `targets`: 4100 is outside 0..=4000 Elo",
        ),
        (
            "[1000, 1500, 9000]",
            "key `targets`: 9000 is outside 0..=4000 Elo",
        ),
        ("[-1, 1000]", "key `targets`: -1 is outside 0..=4000 Elo"),
        (
            "{ from = 1000, to = 2000, step = -100 }",
            "key `targets`: need from <= to and step > 0",
        ),
    ] {
        assert_refused(&with(&base, range, &format!("targets = {targets}")), expect);
    }
    // the bounds are targets
    let ok = with(
        &base,
        range,
        "targets = { from = 0, to = 4000, step = 1000 }",
    );
    CalibrationConfig::parse(&ok, "x").unwrap();
}

/// The table's rows follow the targets: a list out of order or repeated passed the config's
/// checks and failed only at the first fit, after games were played ("elo 1500 does not
/// increase").
#[test]
fn a_target_list_out_of_order_or_repeated_is_refused_at_load() {
    let base = config_text(400, 50.0, "linear");
    let range = "targets = { from = 1000, to = 2500, step = 100 }";
    for (list, expect) in [
        (
            "[1500, 1500, 1200]",
            "key `targets`: must increase (1500 given twice)",
        ),
        (
            "[1600, 1200]",
            "key `targets`: must increase (1200 after 1600)",
        ),
    ] {
        assert_refused(&with(&base, range, &format!("targets = {list}")), expect);
    }
    CalibrationConfig::parse(&with(&base, range, "targets = [1200, 1500, 1600]"), "x").unwrap();
}

/// A path's end outside the built-in engine's range for its knob was sent as the range's bound:
/// ScoreInaccuracy -200..-100 played 0 at both ends, LimitNodes 5,000,000,000 played
/// 2,000,000,000.
#[test]
fn a_path_end_outside_the_knobs_range_is_refused() {
    let base = config_text(400, 50.0, "linear");
    assert_refused(
        &with(&base, "to = 65536", "to = 5000000000"),
        "key `path[0] (LimitNodes).to`: 5000000000 is outside 1..=2000000000 (the built-in \
         engine's range of LimitNodes)",
    );
    let inaccuracy = "\n[[path]]\nknob = \"ScoreInaccuracy\"\nfrom = -200\nto = -100\n";
    assert_refused(
        &format!("{base}{inaccuracy}"),
        "key `path[1] (ScoreInaccuracy).from`: -200 is outside 0..=3000 (the built-in engine's \
         range of ScoreInaccuracy)",
    );
    // another engine's option of the same name is kept in that range too: said, not done
    let external = with(
        &base,
        "command = \"builtin\"",
        "command = \"/usr/games/stockfish\"",
    );
    assert_refused(
        &with(&external, "to = 65536", "to = 5000000000"),
        "key `path[0] (LimitNodes).to`: 5000000000 is outside 1..=2000000000 (the built-in \
         engine's range of LimitNodes, which skillcal keeps this path in whatever the engine)",
    );
    let zero = "\n[[path]]\nknob = \"LimitDepth\"\nfrom = 0\nto = 20\n";
    assert_refused(
        &format!("{base}{zero}"),
        "key `path[1] (LimitDepth).from`: 0 is outside 1..=100 (the built-in engine's range of \
         LimitDepth; 0 would mean unlimited)",
    );
    let inside = "\n[[path]]\nknob = \"ScoreInaccuracy\"\nfrom = 3000\nto = 0\n";
    CalibrationConfig::parse(&format!("{base}{inside}"), "x").unwrap();
}

/// Two paths over one knob were both sent at every setting (the engine kept the last), and a
/// knob both moved by a path and set in `subject.options` lost the option unsaid.
#[test]
fn a_knob_moved_twice_or_also_set_as_an_option_is_refused() {
    let base = config_text(400, 50.0, "linear");
    for knob in ["LimitNodes", "limitnodes"] {
        let second = format!("\n[[path]]\nknob = \"{knob}\"\nfrom = 500\nto = 600\n");
        assert_refused(
            &format!("{base}{second}"),
            &format!("key `path[1] ({knob})`: path[0] already moves {knob}; one path per knob"),
        );
    }
    let go_nodes = "\n[[path]]\nlimit = \"nodes\"\nfrom = 4\nto = 1000\n";
    assert_refused(
        &format!("{base}{go_nodes}{go_nodes}"),
        "key `path[2] (go nodes)`: path[1] already moves go nodes",
    );
    for option in ["LimitNodes", "LIMITNODES"] {
        assert_refused(
            &with(
                &base,
                "limits = { tc",
                &format!("options = {{ {option} = 5000 }}\nlimits = {{ tc"),
            ),
            &format!("key `subject.options.{option}`: path[0] moves LimitNodes; remove it"),
        );
    }
    // another knob beside the path's is the subject's own setting
    CalibrationConfig::parse(
        &with(
            &base,
            "limits = { tc",
            "options = { ScoreInaccuracy = 50 }\nlimits = { tc",
        ),
        "x",
    )
    .unwrap();
}

/// With `pool.file`, the measured pool's own `[pool]` replaces the config's when it loads: the
/// other keys were thrown away unsaid (an `anchor_sd`, `limits` or `options` changed nothing).
#[test]
fn a_measured_pool_refuses_every_other_pool_key() {
    let base = config_text(400, 50.0, "linear");
    let head = base.split("\n[pool]\n").next().unwrap();
    let config = |extra: &str| {
        format!(
            "{head}\n[pool]\nfile = \"results/pool\"\nhold = true\n{extra}\n\n[openings]\n\
             file = \"configs/books/2moves_v1.epd\"\n"
        )
    };
    CalibrationConfig::parse(&config(""), "x").unwrap();
    for (extra, key) in [
        // the default value too: the pool file's SD is used whatever this one says
        ("anchor_sd = 50", "anchor_sd"),
        ("limits = { nodes = 5 }", "limits"),
        ("options = { \"Skill Level\" = 20 }", "options"),
        ("args = [\"-x\"]", "args"),
        ("scale = \"mine\"", "scale"),
        ("retired = [\"sf0\"]", "retired"),
        ("command = \"/usr/games/stockfish\"", "command"),
        ("[[pool.member]]\nname = \"sf0\"\nelo = 1320", "member"),
    ] {
        assert_refused(
            &config(extra),
            &format!(
                "key `pool.{key}`: a measured pool (`pool.file`) brings its own members and \
                 their settings; remove it (or `pool.file`)"
            ),
        );
    }
}

/// `openings.plies = 0` kept no move of a PGN opening: the book then failed to read ("neither a
/// move nor a FEN tag"), and an EPD book took it without a word. Calibration, pool and match
/// configs all refuse it.
#[test]
fn zero_opening_plies_are_refused_in_every_config() {
    let base = config_text(400, 50.0, "linear");
    let book = "file = \"configs/books/2moves_v1.epd\"";
    assert_refused(
        &with(&base, book, &format!("{book}\nplies = 0")),
        "key `openings.plies`: must be at least 1",
    );
    CalibrationConfig::parse(&with(&base, book, &format!("{book}\nplies = 8")), "x").unwrap();

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir("config-plies");
    let pool = std::fs::read_to_string(root.join("configs/pool.toml")).unwrap();
    let path = dir.join("pool.toml");
    std::fs::write(
        &path,
        with(&pool, "[openings]\n", "[openings]\nplies = 0\n"),
    )
    .unwrap();
    let e = PoolRunConfig::load(&path).unwrap_err().to_string();
    assert!(
        e.contains("key `openings.plies`: must be at least 1"),
        "{e}"
    );

    let matched = std::fs::read_to_string(root.join("configs/smoke-match.toml")).unwrap();
    let text = with(&matched, "[openings]\n", "[openings]\nplies = 0\n");
    let e = format!("{:#}", MatchConfig::from_toml_str(&text).unwrap_err());
    assert!(e.contains("openings.plies: must be at least 1"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `targets` or an option value of the wrong shape said only "data did not match any variant
/// of untagged enum Targets" (or Scalar): now the accepted forms and what is missing or unknown,
/// still at TOML's line and column.
#[test]
fn a_misshapen_targets_or_option_value_says_what_is_expected() {
    let base = config_text(400, 50.0, "linear");
    let range = "targets = { from = 1000, to = 2500, step = 100 }";
    let forms = "`{ from, to, step }` or a list of Elo";
    for (targets, expect) in [
        (
            "{ from = 800, to = 2400 }",
            "targets: `step` missing; expected ",
        ),
        (
            "{ to = 2400 }",
            "targets: `from`, `step` missing; expected ",
        ),
        (
            "{ from = 800, to = 2400, stepp = 100 }",
            "targets: unknown key `stepp`; expected ",
        ),
        (
            "\"800-2400\"",
            "invalid type: string \"800-2400\", expected targets as ",
        ),
    ] {
        let text = with(&base, range, &format!("targets = {targets}"));
        let line = text.lines().position(|l| l.starts_with("targets")).unwrap() + 1;
        let e = refused(&text);
        assert!(
            e.contains(&format!("line {line}")) && e.contains(&format!("{expect}{forms}")),
            "{targets}: {e}"
        );
    }
    // a calibration's engines: named by key, not sent as the TOML text `[1, 2]`
    assert_refused(
        &with(
            &base,
            "limits = { tc",
            "options = { Hash = [1, 2] }\nlimits = { tc",
        ),
        "key `subject.options.Hash`: expected a number, string or boolean, found array `[1, 2]`",
    );
    assert_refused(
        &with(
            &base,
            "\"Skill Level\" = 0 }",
            "\"Skill Level\" = { x = 0 } }",
        ),
        "key `pool.member[0].options.Skill Level`: expected a number, string or boolean, found \
         table",
    );
    assert_refused(
        &with(
            &base,
            "options = { Threads = 1 }",
            "options = { Threads = [1] }",
        ),
        "key `pool.options.Threads`: expected a number, string or boolean",
    );
    // a match's engines
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let matched = std::fs::read_to_string(root.join("configs/smoke-match.toml")).unwrap();
    let text = with(&matched, "Hash = 16,", "Hash = [1, 2],");
    let line = text
        .lines()
        .position(|l| l.contains("Hash = [1, 2]"))
        .unwrap()
        + 1;
    let e = format!("{:#}", MatchConfig::from_toml_str(&text).unwrap_err());
    assert!(
        e.contains(&format!("line {line}"))
            && e.contains("expected a number, string or boolean as the value of option `Hash`"),
        "{e}"
    );
}

/// Values that parse and look plausible but cannot be what was meant.
#[test]
fn questionable_plan_pool_fit_and_name_values_are_refused() {
    let base = config_text(400, 50.0, "linear");
    let plan = "batch_settings = 6";
    let cases = [
        (
            with(&base, plan, &format!("{plan}\nguess = [2400, 800]")),
            "key `plan.guess`: [2400, 800] is [at t = 0, at t = 1], and t = 0 is the weakest \
             end; the first must be lower",
        ),
        (
            with(&base, plan, &format!("{plan}\npool_games = 3")),
            "key `plan.pool_games`: 3 is odd; must be even",
        ),
        (
            with(&base, "anchor_sd = 30", "anchor_sd = inf"),
            "key `pool.anchor_sd`: must be a finite number >= 0",
        ),
        (
            with(&base, "elo = 1320", "elo = 1320\nsd = inf"),
            "key `pool.member[0].sd`: must be a finite number >= 0",
        ),
        (
            with(
                &base,
                "model = \"linear\"",
                "model = \"quadratic\"\nknots = 5",
            ),
            "key `fit.knots`: `fit.model` is `quadratic`, not the spline",
        ),
        (
            with(&base, "name = \"synthetic\"", "name = \"../../../tmp/x\""),
            "key `name`: `../../../tmp/x` is not a run name",
        ),
        (
            with(&base, "name = \"synthetic\"", "name = \"..\""),
            "key `name`: `..` is not a run name",
        ),
    ];
    for (text, expect) in cases {
        assert_refused(&text, expect);
    }
    for ok in [
        with(
            &base,
            plan,
            &format!("{plan}\nguess = [800, 2400]\npool_games = 4"),
        ),
        with(&base, "model = \"linear\"", "model = \"spline\"\nknots = 5"),
        with(&base, "model = \"linear\"", "select_form = true\nknots = 5"),
        with(&base, "name = \"synthetic\"", "name = \"range-2.1\""),
    ] {
        CalibrationConfig::parse(&ok, "x").unwrap();
    }
    // the pool run's name and members are checked alike
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir("config-questionable");
    let pool = std::fs::read_to_string(root.join("configs/pool.toml")).unwrap();
    let path = dir.join("pool.toml");
    for (text, expect) in [
        (
            with(&pool, "\nname = \"pool\"", "\nname = \"a/b\""),
            "key `name`: `a/b` is not a run name",
        ),
        (
            with(&pool, "elo = 1320", "elo = 1320\nsd = inf"),
            ".sd`: must be a finite number >= 0",
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let e = PoolRunConfig::load(&path).unwrap_err().to_string();
        assert!(e.contains(expect), "{expect}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
