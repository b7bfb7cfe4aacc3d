//! `Style=human`: the move a Maia net's policy and, in the schedule's upper half, a search of the
//! policy's candidates choose at `HumanStrength` (schedule and rule: `strength::human`). At
//! `HumanTemperature` 0 no choice is random; above 0 each stretch's choice is drawn among the
//! moves it may play (`strength::variety`) with the game's seed. Every search is node-bounded on
//! one thread, so a game replays from its seed (with the same hash size: the searches share the
//! engine's table across moves).

use std::sync::Mutex;

use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};

use super::human_time::TimedMove;
use super::maia::centipawns;
use super::thread::{Answer, Say, Wait};
use super::{info_line, Uci};
use crate::engine::position::{uci_string, Game};
use crate::engine::search::{Control, Engine, SearchParams};
use crate::policy::{Evaluation, Evaluator};
use crate::strength::{
    draw_by_excess, draw_by_probability, human_candidates, human_people_moves, human_pick,
    human_plan, human_plausible, human_qualifying, human_rng, human_within_margin, move_seed,
    HumanPlan, SearchPlan, Settings,
};

impl Uci {
    /// `go` under `Style=human` at the settings' HumanStrength; `params` holds `go`'s limits (a
    /// clock or `go nodes` may end the search before the schedule's nodes do).
    pub(super) fn go_human(
        &mut self,
        game: Game,
        params: SearchParams,
        eff: &Settings,
        ponder: bool,
        timed: Option<TimedMove>,
    ) {
        let mut plan = human_plan(eff.human_strength);
        // short of time people play from intuition: no search half
        if timed.as_ref().is_some_and(TimedMove::in_trouble) {
            plan.search = None;
        }
        let evaluator = match self.maia.evaluator(plan.net) {
            Ok(e) => e,
            Err(e) => {
                self.say(&format!("info string Style human: Maia {}: {e}", plan.net));
                self.say("bestmove 0000");
                return;
            }
        };
        if let Some(text) = self.settings.strength_info() {
            self.say(&format!("info string {text}"));
        }
        let t = eff.human.temperature;
        if t > 0.0 {
            self.tell_seed();
        }
        let mut rng = human_rng(move_seed(
            self.seed,
            game.root_key,
            game.history.len() as u32,
        ));
        let positions = self.maia.history(&game.root);
        let wait = Wait {
            infinite: params.limits.infinite,
            ponder,
        };
        self.spawn_search("human", wait, move |engine, control, say| {
            let mut ask = Ask {
                engine,
                game: &game,
                params,
                control,
                say,
                t,
                rng: &mut rng,
                timed: timed.as_ref(),
                think: None,
            };
            let best = ask.play(&positions, &evaluator, &plan);
            Answer {
                best,
                ponder: None,
                think: ask.think,
            }
        });
    }
}

/// One move's choice: what the searches and the draws need.
struct Ask<'a> {
    engine: &'a mut Engine,
    game: &'a Game,
    params: SearchParams,
    control: &'a Control,
    say: &'a Say,
    /// HumanTemperature.
    t: f64,
    rng: &'a mut ChaCha8Rng,
    /// `HumanTime`'s move, when the clock is on.
    timed: Option<&'a TimedMove>,
    /// The think time drawn once the net has answered.
    think: Option<std::time::Duration>,
}

impl Ask<'_> {
    /// The move played (None: the game is over), its reports said on the way.
    fn play(
        &mut self,
        positions: &[Chess],
        evaluator: &Mutex<Evaluator>,
        plan: &HumanPlan,
    ) -> Option<Move> {
        let e = match evaluator.lock() {
            Ok(mut ev) => ev.evaluate(positions),
            Err(poisoned) => poisoned.into_inner().evaluate(positions),
        };
        if e.moves.is_empty() {
            (self.say)(if self.game.root.is_check() {
                "info depth 0 score mate 0"
            } else {
                "info depth 0 score cp 0"
            });
            return None;
        }
        let probs = e.probabilities(1.0);
        let chosen = self.choose(&e, &probs, plan);
        // the think time is drawn once the move is chosen: how unlikely the net found it is
        // part of how long a person takes over it
        if let (Some(timed), Some(m)) = (self.timed, chosen) {
            let played = e
                .moves
                .iter()
                .position(|x| *x == m)
                .map_or(0.0, |i| probs[i]);
            let (think, report) = timed.think(&probs, played, e.wdl, &self.game.root);
            (self.say)(&report);
            self.think = Some(think);
        }
        chosen
    }

    /// The move of the plan at the net's answer `e` (its probabilities `probs`).
    fn choose(&mut self, e: &Evaluation, probs: &[f32], plan: &HumanPlan) -> Option<Move> {
        match &plan.search {
            None => {
                let top = e.best()?;
                (self.say)(&format!(
                    "info depth 1 seldepth 1 multipv 1 score cp {} nodes 1 pv {}",
                    centipawns(e.q()),
                    uci_string(top)
                ));
                match &plan.mistakes {
                    None => Some(self.people_move(e, probs).unwrap_or(top)),
                    Some(m) => Some(self.mistake(e, probs, top, m.nodes, m.weight)),
                }
            }
            Some(search) => self.searched(e, probs, search),
        }
    }

    /// The searches below answer `stop` but not `ponderhit`: the owner waits for those itself.
    fn inner(&self) -> Control {
        Control {
            stop: self.control.stop.clone(),
            ..Control::default()
        }
    }

    /// The policy half: one of the moves people of the band play, drawn by probability
    /// sharpened by the temperature (the top move at 0).
    fn people_move(&mut self, e: &Evaluation, probs: &[f32]) -> Option<Move> {
        let set = human_people_moves(probs);
        let i = draw_by_probability(probs, &set, self.t, self.rng)?;
        let m = e.moves[i];
        if self.t > 0.0 && i != set[0] {
            (self.say)(&format!(
                "info string human: {} drawn (policy {:.1}%) among {} moves people play, temperature {}",
                uci_string(m),
                probs[i] * 100.0,
                set.len(),
                self.t
            ));
        }
        Some(m)
    }

    /// The mistakes stretch: the top move and its plausible alternatives searched together; a
    /// qualifying mistake replaces the top move (the one exceeding its weight most at
    /// temperature 0, drawn by excess above it); with none, the top move at 0, else one of the
    /// searched moves drawn by probability. The top move when the search was stopped first.
    fn mistake(
        &mut self,
        e: &Evaluation,
        probs: &[f32],
        top: Move,
        nodes: u64,
        weight: f64,
    ) -> Move {
        let alternatives: Vec<(Move, f32)> = human_plausible(probs)
            .into_iter()
            .map(|i| (e.moves[i], probs[i]))
            .collect();
        if alternatives.is_empty() {
            return top;
        }
        let p_top = e
            .moves
            .iter()
            .position(|m| *m == top)
            .map_or(0.0, |i| probs[i]);
        let mut moves = vec![(top, p_top)];
        moves.extend_from_slice(&alternatives);
        let limited = bounded(self.params.clone(), nodes);
        let inner = self.inner();
        let (scored, nodes) =
            search_together(self.engine, self.game, limited, &inner, &moves, None);
        let Some(top_score) = scored.iter().find(|c| c.0 == top).map(|c| c.2) else {
            return top;
        };
        let others: Vec<(Move, f32, i32)> = scored.iter().copied().filter(|c| c.0 != top).collect();
        let pairs: Vec<(f32, i32)> = others.iter().map(|&(_, p, s)| (p, s)).collect();
        let qualifying = human_qualifying((p_top, top_score), &pairs, weight);
        if qualifying.is_empty() {
            if self.t <= 0.0 {
                return top;
            }
            let all: Vec<f32> = scored.iter().map(|c| c.1).collect();
            let set: Vec<usize> = (0..scored.len()).collect();
            let i = draw_by_probability(&all, &set, self.t, self.rng).unwrap_or(0);
            return scored[i].0;
        }
        let excess: Vec<f64> = qualifying.iter().map(|&(_, x)| x).collect();
        let k = draw_by_excess(&excess, self.t, self.rng)
            .map(|k| qualifying[k].0)
            .or_else(|| crate::strength::human_mistake((p_top, top_score), &pairs, weight));
        let Some(k) = k else { return top };
        let (m, p, s) = others[k];
        (self.say)(&format!(
            "info string human: a mistake, {} (policy {:.1}%, {s} cp) for {} (policy {:.1}%, {top_score} cp), {} plausible moves at {nodes} nodes, weight {weight}",
            uci_string(m),
            p * 100.0,
            uci_string(top),
            p_top * 100.0,
            others.len(),
        ));
        m
    }

    /// The search half: the candidates (and the engine's own best when the plan asks) searched
    /// together; among those within the margin of the best score, the likeliest at temperature
    /// 0, else one drawn by probability.
    fn searched(&mut self, e: &Evaluation, probs: &[f32], search: &SearchPlan) -> Option<Move> {
        let mut moves: Vec<(Move, f32)> = human_candidates(probs)
            .into_iter()
            .map(|i| (e.moves[i], probs[i]))
            .collect();
        let limited = bounded(self.params.clone(), search.nodes);
        let inner = self.inner();
        if search.engine_best {
            let own = self.engine.search(self.game, &limited, &inner, &mut |_| {});
            if let Some(best) = own.best.filter(|b| !moves.iter().any(|(m, _)| m == b)) {
                let p = e
                    .moves
                    .iter()
                    .position(|m| *m == best)
                    .map_or(0.0, |i| probs[i]);
                moves.push((best, p));
            }
        }
        let fallback = moves[0].0;
        let (scored, nodes) = search_together(
            self.engine,
            self.game,
            limited,
            &inner,
            &moves,
            Some(self.say),
        );
        let pairs: Vec<(f32, i32)> = scored.iter().map(|&(_, p, s)| (p, s)).collect();
        let i = if self.t <= 0.0 {
            human_pick(&pairs, search.margin)
        } else {
            let all: Vec<f32> = pairs.iter().map(|c| c.0).collect();
            let set = human_within_margin(&pairs, search.margin);
            draw_by_probability(&all, &set, self.t, self.rng)
        };
        let Some(i) = i else {
            return Some(fallback);
        };
        let (m, p, s) = scored[i];
        (self.say)(&format!(
            "info string human: {} (policy {:.0}%, {s} cp) among {} candidates within {} cp, {nodes} nodes",
            uci_string(m),
            p * 100.0,
            scored.len(),
            search.margin,
        ));
        Some(m)
    }
}

/// `go`'s limits with the schedule's `nodes` at most (a clock or `go nodes` may end the search
/// first), never infinite.
fn bounded(mut params: SearchParams, nodes: u64) -> SearchParams {
    params.limits.infinite = false;
    params.limits.nodes = Some(params.limits.nodes.map_or(nodes, |n| n.min(nodes)));
    params
}

/// `moves` searched together (MultiPV over them, `searchmoves` the moves): each scored move with
/// its policy probability, and the nodes searched. `info` lines go to `report` when given.
fn search_together(
    engine: &mut Engine,
    game: &Game,
    mut params: SearchParams,
    control: &Control,
    moves: &[(Move, f32)],
    report: Option<&Say>,
) -> (Vec<(Move, f32, i32)>, u64) {
    params.limits.searchmoves = moves.iter().map(|(m, _)| *m).collect();
    params.multipv = moves.len();
    let result = engine.search(game, &params, control, &mut |info| {
        if let Some(say) = report {
            say(&info_line(info));
        }
    });
    let scored = result
        .candidates
        .iter()
        .filter_map(|c| Some((c.mv, moves.iter().find(|(m, _)| *m == c.mv)?.1, c.score)))
        .collect();
    (scored, result.nodes)
}
