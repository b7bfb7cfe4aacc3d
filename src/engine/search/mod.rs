//! The search: iterative deepening over a root move list (ScoreInaccuracy or MultiPV root,
//! `root.rs`), principal variation search with quiescence below it (`node.rs`).
//!
//! # Running a search
//! ```no_run
//! use skillcal::engine::{Control, Engine, Game, SearchParams};
//! let mut engine = Engine::new(16);
//! let game = Game::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
//! let mut params = SearchParams::default();
//! params.limits.depth = Some(8);
//! let result = engine.search(&game, &params, &Control::default(), &mut |_info| {});
//! println!("{:?} {}", result.best, result.score);
//! ```

mod node;
mod root;
mod searcher;
mod types;

use searcher::Searcher;
pub use types::{Candidate, Control, Info, SearchParams, SearchResult};

use super::movepick::Heuristics;
use super::position::Game;
use super::tt::Tt;

/// Engine state kept between searches: transposition table and move-ordering history.
pub struct Engine {
    tt: Tt,
    heur: Heuristics,
}

impl Engine {
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Tt::new(hash_mb),
            heur: Heuristics::default(),
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Tt::new(mb);
    }

    /// Forgets everything learned (UCI `ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heur.clear();
    }

    /// Searches `game.root` until a limit in `params` or `control.stop` ends it.
    /// `on_info` receives one report per completed iteration and MultiPV line.
    pub fn search(
        &mut self,
        game: &Game,
        params: &SearchParams,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        self.heur.new_search();
        let mut keys = game.history.clone();
        keys.push(game.root_key);
        let mut s = Searcher::new(&mut self.tt, &mut self.heur, keys, params, control);
        s.iterate(&game.root, params, on_info)
    }
}
