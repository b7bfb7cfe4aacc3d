//! `HumanTime`: with a clock, `Style human` answers after the time a person of its level would
//! take over the move (a draw from `strength::ThinkModel`, times `HumanTimeScale` / 100), never
//! more than the clock can spare (`think_safe_limit`), and with under [`TROUBLE`] seconds left
//! it plays as people in time trouble do: from the net's intuition, without the search half.
//! `go movetime / nodes / depth / infinite` and a `go` without our clock are answered as before.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shakmaty::{Chess, Color, Position};

use super::Uci;
use crate::engine::command::Go;
use crate::engine::position::Game;
use crate::strength::{
    move_seed, scale_maps, think_rng, think_safe_limit, MoveContext, Settings, ThinkModel,
    HUMAN_EMBEDDED_MODEL, THINK_PREVIOUS, THINK_SENSIBLE,
};

/// Under this many seconds on its clock the level plays as people short of time do.
pub const TROUBLE: f64 = 30.0;
/// The Lichess scale a level's rating is read on for the model.
const RATING_SCALE: &str = "lichess-blitz";

/// What `HumanTime` keeps across a game's moves.
#[derive(Default)]
pub(super) struct HumanClock {
    /// The model loaded, and the `HumanTimeModel` value it came from.
    model: Option<(String, Arc<ThinkModel>)>,
    /// Our largest clock this game, in seconds: the start clock as the model reads it.
    start: f64,
    /// Our think times this game, the latest first.
    times: Arc<Mutex<Vec<f64>>>,
    /// The opponent's clock at our last `go`: its last think time is that less its clock now,
    /// plus the increment.
    opp_before: Option<f64>,
}

impl HumanClock {
    /// A new game: no clock seen, no times taken.
    pub fn new_game(&mut self) {
        self.start = 0.0;
        self.opp_before = None;
        if let Ok(mut t) = self.times.lock() {
            t.clear();
        }
    }

    fn model(&mut self, name: &str) -> Result<Arc<ThinkModel>, String> {
        if let Some((n, m)) = &self.model {
            if n == name {
                return Ok(m.clone());
            }
        }
        let m = Arc::new(if name == HUMAN_EMBEDDED_MODEL {
            ThinkModel::embedded()
        } else {
            ThinkModel::load(Path::new(name))?
        });
        self.model = Some((name.to_string(), m.clone()));
        Ok(m)
    }
}

/// One timed move: what the protocol knows before the net is asked.
pub(super) struct TimedMove {
    model: Arc<ThinkModel>,
    /// The context without the net's certainty (filled by [`TimedMove::think`]).
    ctx: MoveContext,
    /// HumanTimeScale as a factor.
    scale: f64,
    /// The longest the clock can spare, in seconds.
    limit: f64,
    times: Arc<Mutex<Vec<f64>>>,
    seed: u64,
}

impl TimedMove {
    /// Under [`TROUBLE`] seconds: the level plays without its search half.
    pub fn in_trouble(&self) -> bool {
        self.ctx.own_clock < TROUBLE
    }

    /// The think time at the net's policy `probs` (over the legal moves), the chosen move's
    /// probability `played`, the net's `wdl` and the position `pos`: drawn, scaled, bounded by
    /// the clock, and remembered as our last time. Also its `info string`.
    pub fn think(
        &self,
        probs: &[f32],
        played: f32,
        wdl: [f32; 3],
        pos: &Chess,
    ) -> (Duration, String) {
        let mut ctx = self.ctx.clone();
        ctx.played_prob = f64::from(played);
        ctx.q = f64::from(wdl[0] - wdl[2]);
        ctx.draw = f64::from(wdl[1]);
        ctx.captures = pos.legal_moves().iter().filter(|m| m.is_capture()).count() as u32;
        ctx.pieces = pos.board().occupied().count() as u32;
        let top = probs.iter().copied().fold(0.0f32, f32::max);
        ctx.top_prob = f64::from(top);
        ctx.entropy = probs
            .iter()
            .filter(|&&p| p > 0.0)
            .map(|&p| -f64::from(p) * f64::from(p).ln())
            .sum();
        ctx.sensible = probs
            .iter()
            .filter(|&&p| f64::from(p) >= THINK_SENSIBLE)
            .count() as u32;
        let mut rng = think_rng(self.seed);
        let person = self.model.draw(&ctx, &mut rng);
        let expected = self.model.expected(&ctx);
        let scaled = person * self.scale;
        let taken = scaled.min(self.limit);
        if let Ok(mut t) = self.times.lock() {
            // the model's rhythm is the person's, not the scaled time
            t.insert(0, person.min(self.limit / self.scale.max(1e-9)));
            t.truncate(THINK_PREVIOUS);
        }
        let report = format!(
            "info string HumanTime: {taken:.3} s (a person's {person:.3} s drawn, {expected:.3} s expected, HumanTimeScale {:.0}%, at most {:.2} s of {:.1} s left{})",
            self.scale * 100.0,
            self.limit,
            ctx.own_clock,
            if self.in_trouble() { "; short of time: no search" } else { "" }
        );
        (Duration::from_secs_f64(taken), report)
    }
}

/// The opponent's last move captured on a square we can capture on.
fn recapture(positions: &[Chess]) -> bool {
    let [.., before, now] = positions else {
        return false;
    };
    if now.board().occupied().count() >= before.board().occupied().count() {
        return false;
    }
    // the square the capturing piece stands on: theirs now, ours before
    let ours = now.turn();
    let theirs = now.board().by_color(!ours);
    let landed = theirs & before.board().by_color(ours);
    let Some(sq) = landed.first() else {
        return false;
    };
    now.legal_moves()
        .iter()
        .any(|m| m.is_capture() && m.to() == sq)
}

impl Uci {
    /// The timed move of this `go` under `HumanTime`, or None when it answers at once: the
    /// option off, no clock for us, or a limit (`movetime`, `nodes`, `depth`, `mate`,
    /// `infinite`) that says how long to take. A model that cannot be read is said and the move
    /// answered at once.
    pub(super) fn timed_move(&mut self, go: &Go, game: &Game, eff: &Settings) -> Option<TimedMove> {
        if !eff.human.time
            || go.infinite
            || go.movetime.is_some()
            || go.nodes.is_some()
            || go.depth.is_some()
            || go.mate.is_some()
        {
            return None;
        }
        let white = game.root.turn() == Color::White;
        let (own, opp, inc, opp_inc) = if white {
            (go.wtime?, go.btime, go.winc, go.binc)
        } else {
            (go.btime?, go.wtime, go.binc, go.winc)
        };
        let model = match self.human_clock.model(&eff.human.time_model) {
            Ok(m) => m,
            Err(e) => {
                self.say(&format!("info string HumanTime: {e}; answering at once"));
                return None;
            }
        };
        let secs = |ms: u64| ms as f64 / 1000.0;
        let own_clock = secs(own);
        let increment = secs(inc.unwrap_or(0));
        let opp_clock = opp.map_or(own_clock, secs);
        let opp_last = self
            .human_clock
            .opp_before
            .map(|before| (before - opp_clock + secs(opp_inc.unwrap_or(0))).max(0.0));
        self.human_clock.opp_before = Some(opp_clock);
        self.human_clock.start = self.human_clock.start.max(own_clock);
        let positions = self.maia.history(&game.root);
        let fullmoves = u32::from(game.root.fullmoves());
        let previous = self
            .human_clock
            .times
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        let ctx = MoveContext {
            own_clock,
            opp_clock,
            opp_last,
            increment,
            start_clock: self.human_clock.start,
            ply: (fullmoves - 1) * 2 + u32::from(!white),
            rating: self.level_rating(eff),
            legal: game.root.legal_moves().len() as u32,
            in_check: game.root.is_check(),
            recapture: recapture(&positions),
            previous,
            ..MoveContext::default()
        };
        // the clock a message takes and the moves still to come
        let reserve = self.opts.move_overhead_ms as f64 / 1000.0 + 0.05;
        Some(TimedMove {
            model,
            ctx,
            scale: f64::from(eff.human.time_scale) / 100.0,
            limit: think_safe_limit(own_clock, increment, reserve),
            times: self.human_clock.times.clone(),
            seed: move_seed(self.seed, game.root_key, game.history.len() as u32),
        })
    }

    /// The level's rating on Lichess blitz: `UCI_Elo` read there under `UCI_LimitStrength`,
    /// else its Maia net's band.
    fn level_rating(&self, eff: &Settings) -> f64 {
        let blitz = scale_maps().iter().find(|m| m.name == RATING_SCALE);
        match (self.settings.limit_strength, blitz) {
            (true, Some(map)) => map.from_pool(self.settings.pool_elo()),
            _ => f64::from(crate::strength::human_plan(eff.human_strength).net),
        }
    }
}
