//! verify's games by opponent (verify_opponents.csv): the tallies add up to the level's games,
//! a level that plays as one rating against every member is not flagged, and one that loses
//! every game to one member while matching its rating against the other is.

use std::path::Path;

use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::play::{EngineSpec, GameRunner, MatchSpec};
use skillcal::calibrate::verify;
use skillcal::calibrate::Result;
use skillcal::report::run::consistency;
use skillcal::results::{self, GameResult, GameRow, VerifyOpponentRow};

fn sim() -> SimRunner {
    SimRunner {
        truth: Box::new(|e: &EngineSpec| {
            if let Some(l) = e.option("UCI_Elo") {
                return l.parse::<f64>().unwrap();
            }
            let i: usize = e.option("Skill Level").unwrap().parse().unwrap();
            crate::support::calibrate::ANCHORS[i]
        }),
        draw_rate: 0.3,
        seconds: None,
    }
}

/// The simulation, except that every level loses every game against `member`.
struct LosesTo {
    inner: SimRunner,
    member: &'static str,
}

impl GameRunner for LosesTo {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> Result<()> {
        self.inner.run(spec, dir)?;
        let path = dir.join("games.csv");
        let mut games: Vec<GameRow> = results::read_csv(&path)?;
        for g in &mut games {
            if g.white == self.member {
                g.result = Some(GameResult::WhiteWins);
            } else if g.black == self.member {
                g.result = Some(GameResult::BlackWins);
            }
        }
        results::write_csv(&path, &games)?;
        Ok(())
    }
}

fn by_opponent(
    name: &str,
    runner: &dyn GameRunner,
) -> (Vec<skillcal::results::VerifyRow>, Vec<VerifyOpponentRow>) {
    let cfg = crate::support::calibrate::config(100, 50.0, "linear");
    let dir =
        std::env::temp_dir().join(format!("skillcal-verify-opp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(&table, "elo,LimitNodes\n1000,100\n2500,60000\n").unwrap();
    let rows = verify::verify(&cfg, &table, &dir, &[1500.0, 2000.0], 200, runner).unwrap();
    let opp: Vec<VerifyOpponentRow> = results::read_csv(&dir.join(verify::OPPONENTS_FILE)).unwrap();
    let md = std::fs::read_to_string(skillcal::report::generate(&dir).unwrap()).unwrap_or_default();
    assert!(md.contains("Verification by opponent"));
    let _ = std::fs::remove_dir_all(&dir);
    (rows, opp)
}

#[test]
fn a_level_rated_alike_by_every_opponent_is_not_flagged() {
    let (rows, opp) = by_opponent("even", &sim());
    for r in &rows {
        let mine: Vec<&VerifyOpponentRow> = opp.iter().filter(|o| o.target == r.target).collect();
        assert_eq!(mine.len(), 2, "two nearest members each");
        assert_eq!(mine.iter().map(|o| o.games).sum::<u32>(), r.games);
        for o in &mine {
            assert_eq!(o.wins + o.draws + o.losses, o.games);
            let points = o.wins as f64 + 0.5 * o.draws as f64;
            assert!((points / o.games as f64 - o.score).abs() < 1e-9);
            // the truth is the label: each match's performance brackets it
            assert!(
                o.performance_lower < r.target && r.target < o.performance_upper,
                "{o:?}"
            );
            assert!(o.z.abs() < 2.5, "{o:?}");
        }
    }
    let tests = consistency(&rows);
    assert_eq!(tests.len(), rows.len(), "one test per level: {tests:?}");
    for (t, chi2, dof, p) in tests {
        assert_eq!(dof, 1);
        assert!(p > 0.01, "{t}: chi2 {chi2} p {p}");
    }
}

#[test]
fn a_level_that_loses_every_game_to_one_member_is_flagged() {
    // sf4 (1923) is among 2000's nearest members (sf4 and sf5), not 1500's (sf1 and sf2)
    let runner = LosesTo {
        inner: sim(),
        member: "sf4",
    };
    let (rows, opp) = by_opponent("loses", &runner);
    let row = opp.iter().find(|o| o.opponent == "sf4").unwrap();
    assert_eq!((row.target, row.wins, row.draws), (2000.0, 0, 0));
    assert!(row.z < -3.0, "{row:?}");
    // a perfect score leaves a performance with one bound
    assert_eq!(row.performance_lower, f64::NEG_INFINITY);
    assert!(row.performance_upper < row.opponent_elo - 300.0, "{row:?}");
    let tests = consistency(&rows);
    let flagged: Vec<f64> = tests.iter().filter(|t| t.3 < 1e-3).map(|t| t.0).collect();
    assert_eq!(flagged, vec![2000.0], "{tests:?}");
}

#[test]
fn rate_only_rates_the_folders_games_and_names_a_level_without_any() {
    use skillcal::calibrate::play::RateOnly;
    let cfg = crate::support::calibrate::config(100, 50.0, "linear");
    let dir = std::env::temp_dir().join(format!("skillcal-verify-rate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(&table, "elo,LimitNodes\n1000,100\n2500,60000\n").unwrap();
    let played = verify::verify(&cfg, &table, &dir, &[1500.0, 2000.0], 100, &sim()).unwrap();
    // the match files stay as played: a spec removed is not written again
    let spec = dir.join("matches/v01-1500/calibration-match.toml");
    std::fs::remove_file(&spec).unwrap();
    let rated = verify::verify(&cfg, &table, &dir, &[1500.0, 2000.0], 100, &RateOnly).unwrap();
    assert_eq!(played, rated);
    assert!(!spec.exists());
    // a level without games (a run stopped before it) is left out, the others rated
    let partial = verify::verify(&cfg, &table, &dir, &[1500.0, 1700.0], 100, &RateOnly).unwrap();
    assert_eq!(partial.len(), 1);
    assert_eq!(partial[0].target, 1500.0);
    assert!(!dir.join("matches/v02-1700").exists());
    let err = verify::verify(&cfg, &table, &dir, &[1700.0], 100, &RateOnly).unwrap_err();
    let msg = format!("{err:#}");
    assert!(
        msg.contains("1700") && msg.contains("no verification games"),
        "{msg}"
    );
    assert!(!dir.join("matches/v01-1700").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
