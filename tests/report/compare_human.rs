//! `skillcal compare --human`: families beside rated human games, at the band's Elo and at equal
//! ACPL, worked by hand on the hand-made runs of the compare tests.

use skillcal::results::{read_csv, CompareBandRow, CompareHumanRow, CompareTradeoffRow};

use crate::support::arena::skillcal_stderr as skillcal;
use crate::support::arena::temp_dir;
use crate::support::runs::{analysed_run, ANALYSIS_HEAD};

/// A human.csv row: band, moves, ACPL, inaccuracy / mistake / blunder rates, drop rates equal
/// and losing, top-1 (the other columns are filler).
fn band_row(band: &str, moves: u32, f: [f64; 7]) -> String {
    let [acpl, inacc, mistake, blunder, drop_eq, drop_lose, top1] = f;
    let ci = |v: f64| format!("{v},{},{}", v * 0.9, v * 1.1);
    format!(
        "{band},,20,{moves},0,{},80,75,85,{},{},{},0.01,0.0,0.02,0.05,0.0,0.1,{},{},{}\n",
        ci(acpl),
        ci(inacc),
        ci(mistake),
        ci(blunder),
        ci(drop_eq),
        ci(drop_lose),
        ci(top1)
    )
}

#[test]
fn compare_sets_families_beside_human_bands_at_equal_acpl() {
    let dir = temp_dir("compare-human");
    let (a, b) = (dir.join("a"), dir.join("b"));
    // a: Elo 1000, 1400, 1800; ACPL 100, 60, 40; blunders 10%, 6%, 2%; drop ratios 12, 6, 4;
    // top-1 30%, 40%, 50%; inaccuracies 10% and mistakes 5% throughout
    analysed_run(
        &a,
        &[1000.0, 1400.0, 1800.0],
        &[
            (100.0, 0.10, 0.05, 0.15, 0.30),
            (60.0, 0.06, 0.04, 0.06, 0.40),
            (40.0, 0.02, 0.02, 0.02, 0.50),
        ],
    );
    // b: Elo 1400, 2200; ACPL 70, 40; blunders 5%, 2%; drop ratios 8, 4; top-1 40%, 55%
    analysed_run(
        &b,
        &[1400.0, 2200.0],
        &[
            (70.0, 0.05, 0.02, 0.04, 0.40),
            (40.0, 0.02, 0.01, 0.01, 0.55),
        ],
    );
    let human = dir.join("human");
    std::fs::create_dir_all(&human).unwrap();
    let head = ANALYSIS_HEAD.replacen("player", "band", 1);
    // 1200-1299: exactly a halfway between its first two settings at ACPL 80 (Elo 1200)
    // 1600-1699: too few moves to be compared
    // 2000-2099: exactly b halfway (ACPL 55 at Elo 1800); a at a quarter from 1400 to 1800
    let text = format!(
        "{head}\n{}{}{}",
        band_row(
            "1200-1299",
            3000,
            [80.0, 0.10, 0.05, 0.08, 0.01, 0.09, 0.35]
        ),
        band_row("1600-1699", 400, [50.0, 0.10, 0.05, 0.05, 0.01, 0.05, 0.40]),
        band_row(
            "2000-2099",
            900,
            [55.0, 0.10, 0.05, 0.035, 0.01, 0.06, 0.475]
        ),
    );
    std::fs::write(human.join("human.csv"), text).unwrap();
    std::fs::write(
        human.join("matching.csv"),
        "band,engine,setting,games,positions,matches,rate,lower,upper\n\
         1200-1299,sk uci,Style=a;UCI_LimitStrength=true;UCI_Elo=1250,10,100,30,0.3,0.2,0.4\n\
         1200-1299,sk uci,Style=b;UCI_LimitStrength=true;UCI_Elo=1250,10,100,40,0.4,0.3,0.5\n\
         2000-2099,sk uci,Style=a;UCI_LimitStrength=true;UCI_Elo=2050,5,50,25,0.5,0.4,0.6\n",
    )
    .unwrap();
    let out = dir.join("cmp");
    let (ok, stderr) = skillcal(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--name",
        &format!("a={}", a.display()),
        "--name",
        &format!("b={}", b.display()),
        "--human",
        human.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let rows: Vec<CompareHumanRow> = read_csv(&out.join("compare_human.csv")).unwrap();
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r.band.as_str(), r.family.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("1200-1299", "a"),
            ("1200-1299", "b"),
            ("2000-2099", "a"),
            ("2000-2099", "b")
        ]
    );
    let close = |x: Option<f64>, y: f64| x.is_some_and(|x| (x - y).abs() < 1e-9);
    let a12 = &rows[0];
    assert_eq!(a12.band_elo, 1250.0);
    // at Elo 1250, 5/8 of the way from 1000 to 1400
    assert!(close(a12.acpl, 75.0) && close(a12.blunder_rate, 0.075) && close(a12.top1, 0.3625));
    // at equal ACPL: halfway, every figure the humans' own
    assert!(close(a12.acpl_elo, 1200.0));
    assert!(close(a12.blunder_rate_at_acpl, 0.08) && close(a12.drop_ratio_at_acpl, 9.0));
    assert!(close(a12.human_drop_ratio, 9.0) && close(a12.top1_at_acpl, 0.35));
    assert!(close(a12.unlikeness, 0.0), "{:?}", a12.unlikeness);
    // b's ACPL never reaches 80, nor its curve 1250
    let b12 = &rows[1];
    assert!(b12.acpl_elo.is_none() && b12.unlikeness.is_none() && b12.acpl.is_none());
    // band 2000: b halfway is the humans exactly; a a quarter of the way from 1400 to 1800
    let (a20, b20) = (&rows[2], &rows[3]);
    assert!(close(b20.acpl_elo, 1800.0) && close(b20.unlikeness, 0.0));
    assert!(close(a20.acpl_elo, 1500.0));
    let want = [
        (0.05f64 / 0.035).ln(),
        0.0,
        0.0,
        (5.5f64 / 6.0).ln().abs(),
        (0.425f64 / 0.475).ln().abs(),
    ]
    .iter()
    .sum::<f64>()
        / 5.0;
    assert!(
        close(a20.unlikeness, want),
        "{:?} vs {want}",
        a20.unlikeness
    );
    let page = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(page.contains("Against human games"));
    assert!(page.contains("Most alike at equal ACPL in band 2000-2099: b (unlikeness 0.00)"));
    assert!(
        !page.contains("Band 1600-1699"),
        "a band under 500 moves is left out"
    );
    // a: 0 over 3,000 moves and `want` over 900; b: 0 in its one band
    let a_all = want * 900.0 / 3900.0;
    assert!(
        page.contains(&format!(
            "most alike first): b 0.00 (1 bands), a {a_all:.2} (2 bands)."
        )),
        "{page}"
    );
    assert!(page
        .contains("without its UCI_Elo): Style=a 55 of 150 (36.7%); Style=b 40 of 100 (40.0%)."));

    // a band label that is not LOW-HIGH is an error naming the file, and nothing is written
    std::fs::write(
        human.join("human.csv"),
        format!(
            "{head}\n{}",
            band_row("strong", 3000, [80.0, 0.1, 0.05, 0.08, 0.01, 0.09, 0.35])
        ),
    )
    .unwrap();
    let out2 = dir.join("cmp2");
    let (ok, stderr) = skillcal(&[
        "compare",
        a.to_str().unwrap(),
        "--human",
        human.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("human.csv") && stderr.contains("`strong`"),
        "{stderr}"
    );
    assert!(!out2.exists());
}

/// The figure of move-matching against Elo: a family at UCI_Elo at each band's middle, a knob at
/// a fixed value (`--match-as-given`, from a `--matching` folder) at the Elo its run's curve
/// gives it, a Maia net's top move at its rating as a pool member, these two against the band
/// holding their Lichess blitz equivalent by the table; a value whose Elo no band holds gives no
/// point.
#[test]
fn compare_sets_each_setting_at_its_elo_against_the_band_holding_it() {
    let dir = temp_dir("compare-tradeoff");
    let a = dir.join("a");
    analysed_run(
        &a,
        &[1000.0, 1800.0],
        &[(100.0, 0.1, 0.05, 0.15, 0.3), (40.0, 0.02, 0.02, 0.02, 0.5)],
    );
    // a Maia member of the run's pool at 1292
    let mut pool = std::fs::read_to_string(a.join("pool.csv")).unwrap();
    pool.push_str("maia1-1100,,,1292,1250,1334,100,,,\n");
    std::fs::write(a.join("pool.csv"), pool).unwrap();
    let human = dir.join("human");
    std::fs::create_dir_all(&human).unwrap();
    let head = ANALYSIS_HEAD.replacen("player", "band", 1);
    std::fs::write(
        human.join("human.csv"),
        format!(
            "{head}\n{}",
            band_row("1200-1299", 3000, [80.0, 0.1, 0.05, 0.08, 0.01, 0.09, 0.35])
        ),
    )
    .unwrap();
    // the rate names the band: 0.12 for 1200-1299 and so on
    let mut matching =
        String::from("band,engine,setting,games,positions,matches,rate,lower,upper\n");
    for lo in (800..2000).step_by(100) {
        let r = f64::from(lo) / 10_000.0;
        for setting in [
            "Style=maia;MaiaNet=1100".to_string(),
            format!("Style=a;UCI_LimitStrength=true;UCI_Elo={}", lo + 50),
        ] {
            matching.push_str(&format!(
                "{lo}-{},sk,{setting},10,100,{},{r},{},{}\n",
                lo + 99,
                100.0 * r,
                r - 0.01,
                r + 0.01
            ));
        }
    }
    // a's level read as a Lichess blitz rating: its table's lichess_blitz column is elo + 100,
    // so band 1300-1399 (middle 1350) is played at 1250
    for lo in [1300, 1400] {
        matching.push_str(&format!(
            "{lo}-{},sk,Style=a;UCI_EloScale=lichess-blitz;UCI_LimitStrength=true;UCI_Elo={},10,100,45,0.45,0.4,0.5\n",
            lo + 99,
            lo + 50
        ));
    }
    // a stronger net on one band: the best net there
    matching.push_str("1500-1599,sk,Style=maia;MaiaNet=1900,10,100,20,0.2,0.19,0.21\n");
    std::fs::write(human.join("matching.csv"), matching).unwrap();
    let table = std::fs::read_to_string(a.join("uci_elo_table.csv")).unwrap();
    let with_blitz: Vec<String> = table
        .lines()
        .map(|l| {
            if l.starts_with('#') {
                l.to_string()
            } else if l.starts_with("elo,") {
                format!("{l},lichess_blitz")
            } else {
                let elo: f64 = l.split(',').next().unwrap().parse().unwrap();
                format!("{l},{}", elo + 100.0)
            }
        })
        .collect();
    std::fs::write(a.join("uci_elo_table.csv"), with_blitz.join("\n") + "\n").unwrap();
    // LimitNodes 1024 is t = 0.5 on the run's log path 16..65536; 65536 (t = 1, about 2,300)
    // is in no band here
    let given = dir.join("given");
    std::fs::create_dir_all(&given).unwrap();
    let mut rows = String::from("band,engine,setting,games,positions,matches,rate,lower,upper\n");
    for lo in (800..2000).step_by(100) {
        let r = f64::from(lo) / 10_000.0;
        for nodes in [1024, 65536] {
            rows.push_str(&format!(
                "{lo}-{},sk,LimitNodes={nodes},10,100,{},{r},{r},{r}\n",
                lo + 99,
                100.0 * r
            ));
        }
    }
    std::fs::write(given.join("matching.csv"), rows).unwrap();
    // a level and a net measured on the same sample of positions: compared with each other
    let paired = dir.join("paired");
    std::fs::create_dir_all(&paired).unwrap();
    std::fs::write(
        paired.join("matching.csv"),
        "band,engine,setting,selection,games,positions,matches,rate,lower,upper\n\
         1200-1299,sk,Style=maia;MaiaNet=1500,\"sample, seed 1\",10,100,30,0.3,0.29,0.31\n\
         1200-1299,sk,Style=b;UCI_LimitStrength=true;UCI_Elo=1250,\"sample, seed 1\",10,100,28,0.28,0.27,0.29\n\
         1300-1399,sk,Style=maia;MaiaNet=1100,\"sample, seed 1\",10,100,40,0.4,0.39,0.41\n",
    )
    .unwrap();
    let out = dir.join("cmp");
    let (ok, stderr) = skillcal(&[
        "compare",
        a.to_str().unwrap(),
        "--name",
        &format!("a={}", a.display()),
        "--human",
        human.to_str().unwrap(),
        "--matching",
        given.to_str().unwrap(),
        "--matching",
        paired.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let pts: Vec<CompareTradeoffRow> = read_csv(&out.join("compare_tradeoff.csv")).unwrap();
    let of = |line: &str| -> Vec<&CompareTradeoffRow> {
        pts.iter().filter(|p| p.line == line).collect()
    };
    let per_band = of("Style=a at UCI_Elo");
    assert_eq!(per_band.len(), 12, "{pts:?}");
    // each at its band's middle, against that band's rate
    for p in &per_band {
        assert!((p.rate - (p.elo - 50.0) / 10_000.0).abs() < 1e-12, "{p:?}");
    }
    let [maia] = of("Maia-1 1100 top move")[..] else {
        panic!("one Maia point: {pts:?}")
    };
    // against the band of its Lichess blitz equivalent (the table's column: elo + 100)
    assert_eq!(
        (maia.elo, maia.band.as_str(), maia.rate),
        (1292.0, "1300-1399", 0.13)
    );
    // the same net on a sample's positions: a line of its own
    let [sample] = of("Maia-1 1100 top move (sample, seed 1)")[..] else {
        panic!("one sample point: {pts:?}")
    };
    assert_eq!((sample.band.as_str(), sample.rate), ("1300-1399", 0.4));
    // the curve at t = 0.5 (results/full's fit_curve.csv row 0.5: 1368.8), 1468.8 on Lichess
    let [knob] = of("a by LimitNodes (as given)")[..] else {
        panic!("one point of the knob: {pts:?}")
    };
    assert!((knob.elo - 1368.83).abs() < 0.01, "{knob:?}");
    assert_eq!((knob.band.as_str(), knob.rate), ("1400-1499", 0.14));
    let blitz = of("Style=a UCI_EloScale=lichess-blitz at UCI_Elo");
    let got: Vec<(f64, &str)> = blitz.iter().map(|p| (p.elo, p.band.as_str())).collect();
    assert_eq!(
        got,
        [(1250.0, "1300-1399"), (1350.0, "1400-1499")],
        "{pts:?}"
    );
    let page = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(
        page.contains("## Playing like people against strength")
            && page.contains("compare_tradeoff.svg"),
        "{page}"
    );
    // each band's level beside the best net's top move there
    let bands: Vec<CompareBandRow> = read_csv(&out.join("compare_bands.csv")).unwrap();
    let a: Vec<&CompareBandRow> = bands.iter().filter(|b| b.line == "Style=a").collect();
    assert_eq!(a.len(), 12, "{bands:?}");
    let b1500 = a.iter().find(|b| b.band == "1500-1599").unwrap();
    assert_eq!(
        (b1500.rate, b1500.best_net.as_str(), b1500.best_net_rate),
        (0.15, "1900", 0.2)
    );
    let b1200 = a.iter().find(|b| b.band == "1200-1299").unwrap();
    assert_eq!(
        (b1200.best_net.as_str(), b1200.best_net_rate),
        ("1100", 0.12)
    );
    assert!(
        page.contains("## Each band's level beside the best Maia net")
            && page.contains("| 1500-1599 | 1900: 20.0% | 15.0% (-5.0) |")
            && page.contains("Style=a 15.0% (the best nets 15.6%; 9 bands)"),
        "{page}"
    );
    assert!(out.join("compare_tradeoff.svg").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
