//! `analysis.csv` and `human.csv` (as `skillcal analyse` writes them): one row per player, or per
//! rating band of human games, written and read as the one record [`AnalysisRow`].

use std::path::Path;

use serde::{Deserialize, Serialize, Serializer};

use super::csvfile::{csv_error, CsvRow};
use super::error::ResultsError;
use super::number::fixed;

/// One group's row of `analysis.csv` (a player) or `human.csv` (a rating band, e.g.
/// `1200-1299`): its counts, then each figure with its 95% interval. Figures are written to four
/// decimals and are empty where undefined (no such moves). Rates are fractions of moves.
///
/// Reading: the columns the levels table and the comparison use are required; the others
/// default (0, empty), so an analysis.csv from before a column existed, or one cut down by hand
/// to those columns, still reads.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct AnalysisRow {
    /// The player; the first column is `band` in human.csv.
    #[serde(alias = "band")]
    pub player: String,
    /// The player's engine settings (`Name=value;...`), empty for a human band.
    #[serde(default)]
    pub settings: String,
    pub games: usize,
    pub moves: usize,
    #[serde(default)]
    pub inaccuracies: usize,
    #[serde(default)]
    pub mistakes: usize,
    #[serde(default)]
    pub blunders: usize,
    #[serde(default)]
    pub drops: usize,
    #[serde(default)]
    pub moves_winning: usize,
    #[serde(default)]
    pub moves_equal: usize,
    #[serde(default)]
    pub moves_losing: usize,
    #[serde(default)]
    pub moves_opening: usize,
    #[serde(default)]
    pub moves_middlegame: usize,
    #[serde(default)]
    pub moves_endgame: usize,
    #[serde(default)]
    pub top1_matches: usize,
    #[serde(serialize_with = "four_places")]
    pub acpl: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub acpl_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub acpl_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p50: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p50_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p50_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p75: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p75_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p75_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p90: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p90_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p90_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p95: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p95_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p95_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p99: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p99_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub loss_p99_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub accuracy: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub accuracy_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub accuracy_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub game_accuracy: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub game_accuracy_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub game_accuracy_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub inaccuracy_rate: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub inaccuracy_rate_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub inaccuracy_rate_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub mistake_rate: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub mistake_rate_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub mistake_rate_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_winning: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_winning_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_winning_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_equal: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_equal_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_equal_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_losing: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_losing_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub blunder_rate_losing_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_opening: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_opening_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_opening_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_middlegame: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_middlegame_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_middlegame_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_endgame: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_endgame_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub blunder_rate_endgame_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_winning: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_winning_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_winning_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_equal: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_equal_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_equal_upper: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_losing: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_losing_lower: Option<f64>,
    #[serde(default, serialize_with = "four_places")]
    pub drop_rate_losing_upper: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub top1: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub top1_lower: Option<f64>,
    #[serde(serialize_with = "four_places")]
    pub top1_upper: Option<f64>,
}

impl CsvRow for AnalysisRow {}

/// An optional figure to four decimals, empty when undefined.
fn four_places<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(_) => s.serialize_str(&fixed(*v, 4, "")),
        None => s.serialize_none(),
    }
}

/// The record's columns in order, the first named `first`: serde names them when a row is
/// serialized, so one row is written to memory and its header read back.
fn header(first: &str) -> csv::Result<csv::StringRecord> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(AnalysisRow::default())?;
    let bytes = w
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let names = reader.headers()?;
    Ok(std::iter::once(first).chain(names.iter().skip(1)).collect())
}

/// Writes `rows` to `path`, the header first even when there are no rows; the first column is
/// named `first` (`player` in analysis.csv, `band` in human.csv).
pub fn write_analysis_csv(
    path: &Path,
    first: &str,
    rows: &[AnalysisRow],
) -> Result<(), ResultsError> {
    let write = || -> csv::Result<()> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_path(path)?;
        w.write_record(&header(first)?)?;
        for row in rows {
            w.serialize(row)?;
        }
        w.flush()?;
        Ok(())
    };
    write().map_err(|e| csv_error(path, e, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::read_csv;

    /// Every column after the first, as analysis.csv and human.csv name them.
    const COLUMNS: &str = "settings,games,moves,inaccuracies,mistakes,blunders,drops,moves_winning,moves_equal,moves_losing,moves_opening,moves_middlegame,moves_endgame,top1_matches,acpl,acpl_lower,acpl_upper,loss_p50,loss_p50_lower,loss_p50_upper,loss_p75,loss_p75_lower,loss_p75_upper,loss_p90,loss_p90_lower,loss_p90_upper,loss_p95,loss_p95_lower,loss_p95_upper,loss_p99,loss_p99_lower,loss_p99_upper,accuracy,accuracy_lower,accuracy_upper,game_accuracy,game_accuracy_lower,game_accuracy_upper,inaccuracy_rate,inaccuracy_rate_lower,inaccuracy_rate_upper,mistake_rate,mistake_rate_lower,mistake_rate_upper,blunder_rate,blunder_rate_lower,blunder_rate_upper,blunder_rate_winning,blunder_rate_winning_lower,blunder_rate_winning_upper,blunder_rate_equal,blunder_rate_equal_lower,blunder_rate_equal_upper,blunder_rate_losing,blunder_rate_losing_lower,blunder_rate_losing_upper,blunder_rate_opening,blunder_rate_opening_lower,blunder_rate_opening_upper,blunder_rate_middlegame,blunder_rate_middlegame_lower,blunder_rate_middlegame_upper,blunder_rate_endgame,blunder_rate_endgame_lower,blunder_rate_endgame_upper,drop_rate,drop_rate_lower,drop_rate_upper,drop_rate_winning,drop_rate_winning_lower,drop_rate_winning_upper,drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,top1,top1_lower,top1_upper";
    const PLAYER: &str = "fairy11.1-skill-12,Hash=16;Skill Level=-12;Threads=1,80,3556,603,299,729,719,1995,532,437,640,2274,642,345,176.9044,160.5235,194.7254,96.0000,86.0000,111.0000,253.0000,221.9938,281.0063,455.0000,413.0000,508.0200,626.0000,563.9825,687.0000,1006.5000,974.3263,1062.2380,74.1019,71.5915,76.4238,56.1025,52.8805,59.2183,0.4587,0.4216,0.4987,0.2891,0.2558,0.3251,0.2050,0.1760,0.2377,0.2165,0.1789,0.2647,0.2293,0.1906,0.2708,0.0137,0.0044,0.0240,0.1578,0.1219,0.1984,0.2221,0.1812,0.2619,0.1916,0.1198,0.2724,0.2022,0.1763,0.2312,0.2551,0.2157,0.3022,0.1297,0.0985,0.1642,0.0847,0.0602,0.1156,0.0970,0.0891,0.1057";
    /// A human band: no settings, and a figure undefined (no move in a winning position).
    const BAND: &str = "800-899,,1,60,5,0,2,5,22,2,32,10,18,32,18,87.0833,87.0833,87.0833,30.0000,30.0000,30.0000,89.7500,89.7500,89.7500,271.9000,271.9000,271.9000,362.4500,362.4500,362.4500,596.5700,596.5700,596.5700,91.6117,91.6117,91.6117,80.7208,80.7208,80.7208,0.1167,0.1167,0.1167,0.0333,0.0333,0.0333,0.0333,0.0333,0.0333,,,,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.1111,0.1111,0.1111,0.0000,0.0000,0.0000,0.0833,0.0833,0.0833,0.1364,0.1364,0.1364,0.0000,0.0000,0.0000,0.0312,0.0312,0.0312,0.3000,0.3000,0.3000";

    /// `text` read as records and written again.
    fn rewritten(name: &str, first: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!(
            "skillcal-analysis-row-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, output) = (dir.join("in.csv"), dir.join("out.csv"));
        std::fs::write(&input, text).unwrap();
        let rows: Vec<AnalysisRow> = read_csv(&input).unwrap();
        write_analysis_csv(&output, first, &rows).unwrap();
        let written = std::fs::read_to_string(&output).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        written
    }

    #[test]
    fn a_written_file_reads_back_to_the_same_bytes() {
        let players = format!("player,{COLUMNS}\n{PLAYER}\n");
        assert_eq!(rewritten("player", "player", &players), players);
        let bands = format!("band,{COLUMNS}\n{BAND}\n{PLAYER}\n");
        assert_eq!(rewritten("band", "band", &bands), bands);
    }

    #[test]
    fn no_rows_still_writes_the_header() {
        let header = format!("band,{COLUMNS}\n");
        assert_eq!(rewritten("empty", "band", &header), header);
    }

    #[test]
    fn a_figure_is_read_as_written() {
        let rows: Vec<AnalysisRow> =
            csv::Reader::from_reader(format!("band,{COLUMNS}\n{BAND}\n").as_bytes())
                .deserialize()
                .collect::<Result<_, _>>()
                .unwrap();
        let band = &rows[0];
        assert_eq!(
            (band.player.as_str(), band.settings.as_str()),
            ("800-899", "")
        );
        assert_eq!((band.games, band.moves, band.top1_matches), (1, 60, 18));
        assert_eq!((band.acpl, band.top1_upper), (Some(87.0833), Some(0.3)));
        assert_eq!(band.blunder_rate_winning, None);
    }
}
