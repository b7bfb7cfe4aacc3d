//! Weakening families: each is a strength path (one parameter moving one or more knobs) with its
//! own UCI_Elo table, embedded at build time and chosen by the UCI combo `Style`. The calibration
//! configs behind the tables are `configs/families/<name>.toml`.

use std::fmt;
use std::sync::OnceLock;

use super::table::EloTable;

/// A weakening family (UCI combo `Style`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Family {
    /// `LimitNodes` alone.
    Nodes,
    /// `ScoreInaccuracy` at a fixed node budget.
    Inaccuracy,
    /// MultiPV 4 with Gaussian choice noise.
    Gaussian,
    /// MultiPV 4 with geometric-Brownian-motion choice noise.
    Gbm,
    /// `EvalNoise`: per-position noise on the static evaluation at a fixed node budget.
    EvalNoise,
    /// `LimitNodes` and `ScoreInaccuracy` together: the path of the first full calibration.
    Blend,
    /// `HumanStrength`: Maia's moves at a scheduled strength (strength/human.rs). The default:
    /// verified as accurate as blend and far more human (README, "Why Style human").
    #[default]
    Human,
}

impl Family {
    pub const ALL: [Family; 7] = [
        Family::Nodes,
        Family::Inaccuracy,
        Family::Gaussian,
        Family::Gbm,
        Family::EvalNoise,
        Family::Blend,
        Family::Human,
    ];

    /// The `Style` combo value (also the config's and the table's file stem).
    pub fn name(self) -> &'static str {
        match self {
            Family::Nodes => "nodes",
            Family::Inaccuracy => "inaccuracy",
            Family::Gaussian => "gaussian",
            Family::Gbm => "gbm",
            Family::EvalNoise => "evalnoise",
            Family::Blend => "blend",
            Family::Human => super::human::HUMAN_STYLE,
        }
    }

    /// Parses a `Style` value, case-insensitively.
    pub fn parse(text: &str) -> Option<Family> {
        let t = text.trim();
        Family::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(t))
    }

    /// Whether `Style=human`'s schedule chooses the move at this HumanStrength: under that style
    /// below the knob's top (a table row's, every one, or set by hand). At the top, the knob's
    /// default, the engine's own search plays with the other knobs, as under every style at its
    /// defaults: the schedule's top is the engine's choice anyway (margin 0, its best move a
    /// candidate), so the default engine, and a row of another family's table, search as ever.
    pub fn plays_human(self, human_strength: u32) -> bool {
        self == Family::Human && human_strength < super::human::HUMAN_MAX
    }

    /// The table's CSV text as embedded. `blend` is the table `calibrate --install` writes.
    pub fn table_csv(self) -> &'static str {
        match self {
            Family::Nodes => include_str!("../../configs/families/nodes.csv"),
            Family::Inaccuracy => include_str!("../../configs/families/inaccuracy.csv"),
            Family::Gaussian => include_str!("../../configs/families/gaussian.csv"),
            Family::Gbm => include_str!("../../configs/families/gbm.csv"),
            Family::EvalNoise => include_str!("../../configs/families/evalnoise.csv"),
            Family::Blend => super::table::EMBEDDED_CSV,
            Family::Human => include_str!("../../configs/families/human.csv"),
        }
    }

    /// The family's embedded table, parsed once.
    pub fn table(self) -> &'static EloTable {
        static TABLES: [OnceLock<EloTable>; 7] = [const { OnceLock::new() }; 7];
        let i = Family::ALL.iter().position(|&f| f == self).unwrap_or(0);
        TABLES[i].get_or_init(|| {
            EloTable::parse(self.table_csv(), super::table::EMBEDDED_NAME)
                .expect("every embedded family table is checked by the tests")
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
