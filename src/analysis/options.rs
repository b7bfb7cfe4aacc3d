//! What an analysis is asked (`AnalyseOptions`, the default reference and matching engines) and
//! what it returns (`AnalyseResult`, each group's figures and their columns).

use std::path::PathBuf;

use super::error::Result;
use super::figures::{bootstrap, counts, figures, Estimate, Sample};
use super::input::{self, HumanFilter};
use super::matching::MatchRow;
use super::reference::{self, AnalysisEngine, Limit};
use crate::results::AnalysisRow;

/// Default reference-engine node limit.
pub const DEFAULT_NODES: u64 = 15_000;
/// Default node limit of a built-in move-matching engine: above every table's LimitNodes (the
/// largest row, blend's 2600, plays about 1.8 million), so each row plays its own limit, as in
/// the games that measured it. A `go nodes` below it would cut the strong rows short.
pub const DEFAULT_MATCH_NODES_BUILTIN: u64 = 10_000_000;
/// Default node limit of any other move-matching engine (it has no table to bound it).
pub const DEFAULT_MATCH_NODES_OTHER: u64 = 50_000;

/// The default move-matching limit for an engine spec (`builtin[:...]` or a program).
pub fn default_match_limit(spec: &str) -> Limit {
    Limit::Nodes(if reference::split_spec(spec).0 == "builtin" {
        DEFAULT_MATCH_NODES_BUILTIN
    } else {
        DEFAULT_MATCH_NODES_OTHER
    })
}

/// Everything `analyse` needs (the CLI fills it; no clap here).
#[derive(Clone, Debug)]
pub struct AnalyseOptions {
    /// PGN files, or folders in which every `games.pgn` below is read.
    pub inputs: Vec<PathBuf>,
    pub out: PathBuf,
    /// The reference engine (default: Stockfish, one thread, 16 MB hash, 15,000 nodes).
    pub engine: AnalysisEngine,
    /// Engine processes in parallel.
    pub concurrency: usize,
    /// Bootstrap resamples for the 95% intervals (0: no intervals).
    pub bootstrap: usize,
    pub seed: u64,
    /// Rated human games (WhiteElo / BlackElo; PGN, `.pgn.zst`, `.pgn.gz`) for the comparison.
    pub human: Vec<PathBuf>,
    /// Engines for move-matching; each is given `UCI_LimitStrength=true` and `UCI_Elo` = the
    /// band's middle (a `Style=maia` setting excepted: a network has no Elo).
    pub match_engines: Vec<AnalysisEngine>,
    /// Move-matching engines play at the strength their options set: no `UCI_LimitStrength`,
    /// no per-band `UCI_Elo` (to measure a knob's settings, as a trade-off against Elo).
    pub match_as_given: bool,
    /// Which human games and moves count, and the band width (Maia's protocol by default).
    pub filter: HumanFilter,
    /// Move-matching on a seeded sample of this many positions per band instead of all.
    pub sample_positions: Option<usize>,
    pub sample_seed: u64,
    /// Move-matching records its work in chunks of this many games of a file.
    pub chunk_games: usize,
    /// Human games for move-matching only: no reference engine, no figures (`human.csv`).
    pub matching_only: bool,
    /// No progress bars.
    pub quiet: bool,
}

impl AnalyseOptions {
    /// Defaults: Stockfish (`stockfish` on PATH or in /usr/games) with Threads=1, Hash=16 at
    /// 15,000 nodes; 2 processes; 1000 resamples, seed 1; bands of 100; Maia's filters (10
    /// plies, 30 s); the built-in engine for move-matching with RandomSeed=1, each row at its
    /// table's own LimitNodes ([`default_match_limit`]).
    pub fn new(inputs: Vec<PathBuf>, out: PathBuf) -> Result<AnalyseOptions> {
        Ok(AnalyseOptions {
            inputs,
            out,
            engine: default_reference(Limit::Nodes(DEFAULT_NODES))?,
            concurrency: 2,
            bootstrap: 1000,
            seed: 1,
            human: Vec::new(),
            match_engines: vec![AnalysisEngine::parse_spec(
                "builtin:RandomSeed=1",
                default_match_limit("builtin"),
            )?],
            match_as_given: false,
            filter: HumanFilter::new(100),
            sample_positions: None,
            sample_seed: 1,
            chunk_games: 500,
            matching_only: false,
            quiet: false,
        })
    }
}

/// Stockfish (`stockfish` on PATH, else /usr/games/stockfish; a missing program is reported when
/// the run starts it), one thread, 16 MB hash.
pub fn default_reference(limit: Limit) -> Result<AnalysisEngine> {
    let program = reference::find_program("stockfish")
        .unwrap_or_else(|_| PathBuf::from("/usr/games/stockfish"));
    Ok(AnalysisEngine {
        program,
        args: Vec::new(),
        options: vec![
            ("Threads".to_string(), "1".to_string()),
            ("Hash".to_string(), "16".to_string()),
        ],
        limit,
    })
}

/// One group's figures (a player, or a human band).
#[derive(Clone, Debug)]
pub struct GroupFigures {
    pub name: String,
    pub settings: String,
    pub games: usize,
    pub counts: [usize; 12],
    pub figures: [Estimate; 22],
}

/// What a run did and found.
#[derive(Clone, Debug, Default)]
pub struct AnalyseResult {
    pub games: usize,
    /// Games read from the human file.
    pub human_games: usize,
    pub moves: usize,
    /// Positions that needed the reference engine (distinct within each game).
    pub positions: usize,
    /// Positions the reference engine actually searched (0 when all were cached).
    pub engine_evaluations: usize,
    /// Positions the move-matching engines actually searched.
    pub match_evaluations: usize,
    /// What the human files held and what the filters kept.
    pub human_counts: input::Counts,
    pub players: Vec<GroupFigures>,
    pub human_bands: Vec<GroupFigures>,
    pub matching: Vec<MatchRow>,
    /// What the reader of results should know (a setting measured with two builds).
    pub warnings: Vec<String>,
}

/// Figures and intervals of one group.
pub fn group_figures(
    name: String,
    settings: String,
    samples: &[Sample],
    opts: &AnalyseOptions,
) -> GroupFigures {
    let all: Vec<&Sample> = samples.iter().collect();
    GroupFigures {
        name,
        settings,
        games: samples.len(),
        counts: counts(&all),
        figures: bootstrap(samples, opts.bootstrap, opts.seed, figures),
    }
}

impl GroupFigures {
    /// The group's row of analysis.csv / human.csv: counts in [`COUNTS`] order, figures in
    /// [`FIGURES`] order.
    ///
    /// [`COUNTS`]: super::figures::COUNTS
    /// [`FIGURES`]: super::figures::FIGURES
    pub fn record(&self) -> AnalysisRow {
        let [moves, inaccuracies, mistakes, blunders, drops, moves_winning, moves_equal, moves_losing, moves_opening, moves_middlegame, moves_endgame, top1_matches] =
            self.counts;
        let [acpl, loss_p50, loss_p75, loss_p90, loss_p95, loss_p99, accuracy, game_accuracy, inaccuracy_rate, mistake_rate, blunder_rate, blunder_rate_winning, blunder_rate_equal, blunder_rate_losing, blunder_rate_opening, blunder_rate_middlegame, blunder_rate_endgame, drop_rate, drop_rate_winning, drop_rate_equal, drop_rate_losing, top1] =
            self.figures;
        AnalysisRow {
            player: self.name.clone(),
            settings: self.settings.clone(),
            games: self.games,
            moves,
            inaccuracies,
            mistakes,
            blunders,
            drops,
            moves_winning,
            moves_equal,
            moves_losing,
            moves_opening,
            moves_middlegame,
            moves_endgame,
            top1_matches,
            acpl: acpl.value,
            acpl_lower: acpl.lower,
            acpl_upper: acpl.upper,
            loss_p50: loss_p50.value,
            loss_p50_lower: loss_p50.lower,
            loss_p50_upper: loss_p50.upper,
            loss_p75: loss_p75.value,
            loss_p75_lower: loss_p75.lower,
            loss_p75_upper: loss_p75.upper,
            loss_p90: loss_p90.value,
            loss_p90_lower: loss_p90.lower,
            loss_p90_upper: loss_p90.upper,
            loss_p95: loss_p95.value,
            loss_p95_lower: loss_p95.lower,
            loss_p95_upper: loss_p95.upper,
            loss_p99: loss_p99.value,
            loss_p99_lower: loss_p99.lower,
            loss_p99_upper: loss_p99.upper,
            accuracy: accuracy.value,
            accuracy_lower: accuracy.lower,
            accuracy_upper: accuracy.upper,
            game_accuracy: game_accuracy.value,
            game_accuracy_lower: game_accuracy.lower,
            game_accuracy_upper: game_accuracy.upper,
            inaccuracy_rate: inaccuracy_rate.value,
            inaccuracy_rate_lower: inaccuracy_rate.lower,
            inaccuracy_rate_upper: inaccuracy_rate.upper,
            mistake_rate: mistake_rate.value,
            mistake_rate_lower: mistake_rate.lower,
            mistake_rate_upper: mistake_rate.upper,
            blunder_rate: blunder_rate.value,
            blunder_rate_lower: blunder_rate.lower,
            blunder_rate_upper: blunder_rate.upper,
            blunder_rate_winning: blunder_rate_winning.value,
            blunder_rate_winning_lower: blunder_rate_winning.lower,
            blunder_rate_winning_upper: blunder_rate_winning.upper,
            blunder_rate_equal: blunder_rate_equal.value,
            blunder_rate_equal_lower: blunder_rate_equal.lower,
            blunder_rate_equal_upper: blunder_rate_equal.upper,
            blunder_rate_losing: blunder_rate_losing.value,
            blunder_rate_losing_lower: blunder_rate_losing.lower,
            blunder_rate_losing_upper: blunder_rate_losing.upper,
            blunder_rate_opening: blunder_rate_opening.value,
            blunder_rate_opening_lower: blunder_rate_opening.lower,
            blunder_rate_opening_upper: blunder_rate_opening.upper,
            blunder_rate_middlegame: blunder_rate_middlegame.value,
            blunder_rate_middlegame_lower: blunder_rate_middlegame.lower,
            blunder_rate_middlegame_upper: blunder_rate_middlegame.upper,
            blunder_rate_endgame: blunder_rate_endgame.value,
            blunder_rate_endgame_lower: blunder_rate_endgame.lower,
            blunder_rate_endgame_upper: blunder_rate_endgame.upper,
            drop_rate: drop_rate.value,
            drop_rate_lower: drop_rate.lower,
            drop_rate_upper: drop_rate.upper,
            drop_rate_winning: drop_rate_winning.value,
            drop_rate_winning_lower: drop_rate_winning.lower,
            drop_rate_winning_upper: drop_rate_winning.upper,
            drop_rate_equal: drop_rate_equal.value,
            drop_rate_equal_lower: drop_rate_equal.lower,
            drop_rate_equal_upper: drop_rate_equal.upper,
            drop_rate_losing: drop_rate_losing.value,
            drop_rate_losing_lower: drop_rate_losing.lower,
            drop_rate_losing_upper: drop_rate_losing.upper,
            top1: top1.value,
            top1_lower: top1.lower,
            top1_upper: top1.upper,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::figures::{COUNTS, FIGURES};

    /// Each count and figure lands in the column that `COUNTS` and `FIGURES` name for its place: the record's fields follow the order the figures are computed in.
    #[test]
    fn a_record_puts_each_figure_under_its_name() {
        let group = GroupFigures {
            name: "p".into(),
            settings: "Skill=1".into(),
            games: 3,
            counts: std::array::from_fn(|i| 100 + i),
            figures: std::array::from_fn(|k| Estimate {
                value: Some(k as f64),
                lower: Some(k as f64 + 0.25),
                upper: None,
            }),
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(group.record()).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let header = r.headers().unwrap().clone();
        let row = r.records().next().unwrap().unwrap();
        let cell = |name: &str| {
            let at = header.iter().position(|h| h == name);
            at.and_then(|i| row.get(i)).unwrap_or("missing").to_string()
        };
        assert_eq!(
            (cell("player"), cell("settings"), cell("games")),
            ("p".into(), "Skill=1".into(), "3".into())
        );
        for (i, name) in COUNTS.iter().enumerate() {
            assert_eq!(cell(name), (100 + i).to_string(), "{name}");
        }
        for (k, name) in FIGURES.iter().enumerate() {
            assert_eq!(cell(name), format!("{k}.0000"), "{name}");
            assert_eq!(
                cell(&format!("{name}_lower")),
                format!("{k}.2500"),
                "{name}"
            );
            assert_eq!(cell(&format!("{name}_upper")), "", "{name}");
        }
        assert_eq!(header.len(), 3 + COUNTS.len() + 3 * FIGURES.len());
    }
}
