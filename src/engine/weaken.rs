//! The weakening around one search: turns the effective [`Settings`] into search parameters
//! (limits, MultiPV, the ScoreInaccuracy Errors, the win guard) and, after the search, picks the
//! move among the MultiPV candidates with the noise model. The UCI loop, `bench` and the tests
//! all go through here, so what is measured is what is played.

use shakmaty::Position;

use super::position::Game;
use super::recognizer::recognize;
use super::score::Bound;
use super::search::{SearchParams, SearchResult};
use crate::strength::{
    choose, eval_noise_seed, move_seed, noise_rng, root_errors, Choice, Noise, Settings,
};

/// The move choice of one search, prepared before it starts.
#[derive(Clone, Debug)]
pub struct Weakening {
    pub noise: Noise,
    pub win_guard: i32,
    /// Candidates with exact scores (MultiPV).
    pub lines: usize,
    /// Seed of this search's Errors and noise: engine seed, position and ply.
    pub move_seed: u64,
}

impl Weakening {
    /// Fills `params` from the effective settings `eff` (already resolved for
    /// `UCI_LimitStrength`): node / depth / NPS limits combined with those of `go`, MultiPV, the
    /// Errors drawn for `game`'s legal root moves from `seed`, the evaluation noise and the win
    /// guard.
    pub fn prepare(eff: &Settings, seed: u64, game: &Game, params: &mut SearchParams) -> Weakening {
        let l = &mut params.limits;
        l.nodes = eff.node_limit(l.nodes);
        l.depth = eff.depth_limit(l.depth);
        l.nps = eff.nps_limit();
        let ms = move_seed(seed, game.root_key, game.history.len() as u32);
        params.multipv = eff.multipv.max(1) as usize;
        // A recognized win for the side to move (a bare king against mating force) is played at
        // full strength: its scores lie in the heuristic range, possibly below WinGuard, and a
        // weakened engine should still convert it.
        let won = recognize(&game.root).is_some_and(|r| r.bound == Bound::Lower);
        let si = if won { 0 } else { eff.score_inaccuracy };
        params.score_inaccuracy = si.min(i32::MAX as u32) as i32;
        params.errors = root_errors(ms, game.root.legal_moves().len(), si);
        params.win_guard = eff.win_guard;
        params.eval_noise = if won {
            0
        } else {
            eff.eval_noise.min(i32::MAX as u32) as i32
        };
        params.eval_noise_seed = eval_noise_seed(seed);
        Weakening {
            noise: if won { Noise::None } else { eff.noise() },
            win_guard: eff.win_guard,
            lines: params.multipv,
            move_seed: ms,
        }
    }

    /// Whether a search under these settings draws random numbers (so its seed matters).
    pub fn is_random(eff: &Settings) -> bool {
        eff.score_inaccuracy > 0
            || eff.eval_noise > 0
            || (eff.multipv > 1 && eff.noise() != Noise::None)
    }

    /// Replaces the search's best move by the noise model's choice among the exact MultiPV lines.
    /// The guards of [`choose`] keep forced mates and clear wins. Returns the choice when noise
    /// was applied.
    pub fn apply(&self, result: &mut SearchResult) -> Option<Choice> {
        let n = self.lines.min(result.candidates.len());
        if n < 2 || self.noise == Noise::None {
            return None;
        }
        let scores: Vec<i32> = result.candidates[..n].iter().map(|c| c.score).collect();
        let choice = choose(
            &scores,
            &self.noise,
            self.win_guard,
            &mut noise_rng(self.move_seed),
        );
        if !choice.noised {
            return None;
        }
        let c = &result.candidates[choice.index];
        result.best = Some(c.mv);
        result.ponder = c.pv.get(1).copied();
        result.score = c.score;
        Some(choice)
    }
}
