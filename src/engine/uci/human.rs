//! `Style=human`: the move a Maia net's policy and, in the schedule's upper half, a search of the
//! policy's candidates choose at `HumanStrength` (schedule and rule: `strength::human`). No
//! choice is random and every search is node-bounded on one thread, so a game replays (with the
//! same hash size: the searches share the engine's table across moves).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::maia::centipawns;
use super::{info_line, Uci};
use crate::engine::position::{uci_string, Game};
use crate::engine::search::{Control, Engine, SearchParams};
use crate::policy::Evaluator;
use crate::strength::{
    human_candidates, human_mistake, human_pick, human_plan, human_plausible, HumanPlan, SearchPlan,
};

/// What the answering thread says: a line per report, then the move.
type Say = Arc<dyn Fn(&str) + Send + Sync>;

impl Uci {
    /// `go` under `Style=human` at HumanStrength `h`; `params` holds `go`'s limits (a clock or
    /// `go nodes` may end the search before the schedule's nodes do).
    pub(super) fn go_human(&mut self, game: Game, params: SearchParams, h: u32, ponder: bool) {
        let plan = human_plan(h);
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
        let positions = self.maia.history(&game.root);
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.opts.hash_mb));
        let wait = params.limits.infinite || ponder;
        self.control = Control::default();
        self.control.ponder.store(wait, Ordering::SeqCst);
        let control = self.control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = answered.clone();
        let out = self.out.clone();
        let say: Say = Arc::new(move |line: &str| out.say(line));
        let handle = std::thread::Builder::new()
            .name("human".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let played = play(
                    &mut engine,
                    &game,
                    &positions,
                    &evaluator,
                    &plan,
                    params,
                    &control,
                    &say,
                );
                while control.ponder.load(Ordering::SeqCst) && !control.stop.load(Ordering::SeqCst)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                say(&match played {
                    Some(m) => format!("bestmove {}", uci_string(m)),
                    None => "bestmove 0000".to_string(),
                });
                answered.store(true, Ordering::SeqCst);
                engine
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => self.say(&format!("info string cannot start the human thread: {e}")),
        }
    }
}

/// The move played (None: the game is over), its reports said on the way.
#[allow(clippy::too_many_arguments)]
fn play(
    engine: &mut Engine,
    game: &Game,
    positions: &[Chess],
    evaluator: &Mutex<Evaluator>,
    plan: &HumanPlan,
    params: SearchParams,
    control: &Control,
    say: &Say,
) -> Option<Move> {
    let e = match evaluator.lock() {
        Ok(mut ev) => ev.evaluate(positions),
        Err(poisoned) => poisoned.into_inner().evaluate(positions),
    };
    if e.moves.is_empty() {
        say(if game.root.is_check() {
            "info depth 0 score mate 0"
        } else {
            "info depth 0 score cp 0"
        });
        return None;
    }
    // the searches below answer `stop` but not `ponderhit`: the thread waits for those itself
    let inner = Control {
        stop: control.stop.clone(),
        ..Control::default()
    };
    let probs = e.probabilities(1.0);
    let Some(search) = &plan.search else {
        let top = e.best()?;
        say(&format!(
            "info depth 1 seldepth 1 multipv 1 score cp {} nodes 1 pv {}",
            centipawns(e.q()),
            uci_string(top)
        ));
        let Some(mistakes) = &plan.mistakes else {
            return Some(top);
        };
        let alternatives: Vec<(Move, f32)> = human_plausible(&probs)
            .into_iter()
            .map(|i| (e.moves[i], probs[i]))
            .collect();
        if alternatives.is_empty() {
            return Some(top);
        }
        let p_top = e
            .moves
            .iter()
            .position(|m| *m == top)
            .map_or(0.0, |i| probs[i]);
        let limited = bounded(params, mistakes.nodes);
        return Some(
            mistake(
                engine,
                game,
                limited,
                &inner,
                (top, p_top),
                &alternatives,
                mistakes.weight,
                say,
            )
            .unwrap_or(top),
        );
    };
    let mut moves: Vec<(Move, f32)> = human_candidates(&probs)
        .into_iter()
        .map(|i| (e.moves[i], probs[i]))
        .collect();
    let limited = bounded(params, search.nodes);
    if search.engine_best {
        let own = engine.search(game, &limited, &inner, &mut |_| {});
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
    let chosen = choose_searched(engine, game, limited, &inner, &moves, search, say);
    Some(chosen.unwrap_or(fallback))
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

/// The mistake, if one replaces `top`: the top move and its plausible `alternatives` searched
/// together, the choice [`human_mistake`]'s at `weight`; None when none qualifies or the search
/// was stopped before scoring the top move.
#[allow(clippy::too_many_arguments)]
fn mistake(
    engine: &mut Engine,
    game: &Game,
    params: SearchParams,
    control: &Control,
    top: (Move, f32),
    alternatives: &[(Move, f32)],
    weight: f64,
    say: &Say,
) -> Option<Move> {
    let mut moves = vec![top];
    moves.extend_from_slice(alternatives);
    let (scored, nodes) = search_together(engine, game, params, control, &moves, None);
    let top_score = scored.iter().find(|c| c.0 == top.0)?.2;
    let others: Vec<&(Move, f32, i32)> = scored.iter().filter(|c| c.0 != top.0).collect();
    let pairs: Vec<(f32, i32)> = others.iter().map(|&&(_, p, s)| (p, s)).collect();
    let &&(m, p, s) = others.get(human_mistake((top.1, top_score), &pairs, weight)?)?;
    say(&format!(
        "info string human: a mistake, {} (policy {:.1}%, {s} cp) for {} (policy {:.1}%, {top_score} cp), {} plausible moves at {nodes} nodes, weight {weight}",
        uci_string(m),
        p * 100.0,
        uci_string(top.0),
        top.1 * 100.0,
        others.len(),
    ));
    Some(m)
}

/// Searches `moves` together and picks by [`human_pick`]; None when the search was stopped
/// before scoring any.
fn choose_searched(
    engine: &mut Engine,
    game: &Game,
    params: SearchParams,
    control: &Control,
    moves: &[(Move, f32)],
    search: &SearchPlan,
    say: &Say,
) -> Option<Move> {
    let (scored, nodes) = search_together(engine, game, params, control, moves, Some(say));
    let pairs: Vec<(f32, i32)> = scored.iter().map(|&(_, p, s)| (p, s)).collect();
    let (m, p, s) = scored[human_pick(&pairs, search.margin)?];
    say(&format!(
        "info string human: {} (policy {:.0}%, {s} cp) among {} candidates within {} cp, {nodes} nodes",
        uci_string(m),
        p * 100.0,
        scored.len(),
        search.margin,
    ));
    Some(m)
}
