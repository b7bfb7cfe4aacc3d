//! Per-move judgements: the reference engine's evaluations before and after each move, turned
//! into centipawn loss, winning-chances drop, Lichess accuracy and judgement, the position's
//! state and phase, and agreement with the engine's best move.

use std::collections::HashMap;

use shakmaty::{Chess, Color, Position};

use super::lichess::{accuracy_percent, game_accuracy, winning_chances, Judgement};
use crate::analysis::input::{position_key, GameMoves};
use crate::analysis::reference::{Eval, Score, CP_CEILING};

/// Mover's winning chances above this: "winning".
pub const WINNING: f64 = 0.5;
/// Mover's winning chances within +-this: "about equal".
pub const EQUAL: f64 = 0.2;
/// Mover's winning chances below minus this: "losing".
pub const LOSING: f64 = 0.5;
/// At most this many queens, rooks, bishops and knights (both sides): endgame.
pub const ENDGAME_PIECES: usize = 6;
/// Before this ply (counted from the standard start position): opening.
pub const OPENING_PLIES: usize = 20;
/// A centipawn loss of at least this much is a material drop: about a minor piece (three
/// pawns). Unlike Lichess's judgement (a drop of 0.3 in winning chances), which cannot happen
/// once the mover's winning chances are below about -0.65 (wc(-1000) = -0.95 is the floor), this
/// can happen in any position down to -700 cp, as both evaluations are capped at +-1000 as for
/// ACPL; so it shows whether a level throws pieces away when it is losing.
pub const DROP_CP: i32 = 300;

/// The position's state before the move, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Winning,
    Equal,
    Losing,
    /// Between "about equal" and clearly winning or losing.
    Other,
}

impl State {
    pub fn of(wc: f64) -> State {
        if wc > WINNING {
            State::Winning
        } else if wc < -LOSING {
            State::Losing
        } else if wc.abs() <= EQUAL {
            State::Equal
        } else {
            State::Other
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            State::Winning => "winning",
            State::Equal => "equal",
            State::Losing => "losing",
            State::Other => "other",
        }
    }
}

/// Game phase of the position before the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Opening,
    Middlegame,
    Endgame,
}

impl Phase {
    /// Endgame when at most 6 queens, rooks, bishops and knights remain; else opening before
    /// ply 20; else middlegame.
    pub fn of(pos: &Chess, ply: usize) -> Phase {
        let b = pos.board();
        let pieces = (b.queens() | b.rooks() | b.bishops() | b.knights()).count();
        if pieces <= ENDGAME_PIECES {
            Phase::Endgame
        } else if ply < OPENING_PLIES {
            Phase::Opening
        } else {
            Phase::Middlegame
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }
}

/// One analysed move.
#[derive(Clone, Debug)]
pub struct MoveEval {
    pub game: String,
    pub player: String,
    pub color: Color,
    /// Ply from the standard start (0 = White's first move).
    pub ply: usize,
    pub fen: String,
    pub played: String,
    pub san: String,
    pub best: String,
    /// Mover's evaluation before and after the move, capped at +-1000.
    pub cp_before: i32,
    pub cp_after: i32,
    /// `max(0, cp_before - cp_after)`.
    pub loss: i32,
    pub wc_before: f64,
    pub wc_after: f64,
    /// `wc_before - wc_after` (negative when the move gained).
    pub drop: f64,
    pub accuracy: f64,
    pub judgement: Judgement,
    pub state: State,
    pub phase: Phase,
    pub top1: bool,
    pub clock: Option<f64>,
}

impl MoveEval {
    /// A material drop: the move loses at least [`DROP_CP`] centipawns.
    pub fn is_material_drop(&self) -> bool {
        self.loss >= DROP_CP
    }
}

/// The side to move's score at `pos`: from the engine, or the rules when the game is over
/// (checkmated: the cap, -1000, so the mating side's view is +1000; stalemate or
/// insufficient material: 0).
pub fn score_at(pos: &Chess, evals: &HashMap<String, Eval>) -> Option<Score> {
    if pos.is_checkmate() {
        return Some(Score::Cp(-CP_CEILING));
    }
    if pos.is_game_over() {
        return Some(Score::Cp(0));
    }
    evals.get(&position_key(pos)).map(|e| e.score)
}

/// True when the position needs an engine (not decided by the rules).
pub fn needs_engine(pos: &Chess) -> bool {
    !pos.is_game_over()
}

/// Every analysed move of a game (None when an evaluation is missing) and each side's game
/// accuracy by lila's formula (White's, Black's).
pub fn judge_game(
    g: &GameMoves,
    evals: &HashMap<String, Eval>,
) -> Option<(Vec<MoveEval>, Option<f64>, Option<f64>)> {
    let scores: Vec<Score> = g
        .positions
        .iter()
        .map(|p| score_at(p, evals))
        .collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(g.moves.len());
    for (k, mv) in g.moves.iter().enumerate() {
        let pos = &g.positions[k];
        let (color, player) = g.mover(k);
        let cp_before = scores[k].capped_cp();
        let cp_after = scores[k + 1].negate().capped_cp();
        let wc_before = winning_chances(cp_before);
        let wc_after = winning_chances(cp_after);
        let drop = wc_before - wc_after;
        let best = evals
            .get(&position_key(pos))
            .map(|e| e.best.clone())
            .unwrap_or_default();
        let ply = g.ply_offset + k;
        out.push(MoveEval {
            game: g.id.clone(),
            player: player.to_string(),
            color,
            ply,
            fen: position_key(pos),
            played: mv.uci.clone(),
            san: mv.san.clone(),
            top1: best == mv.uci,
            best,
            cp_before,
            cp_after,
            loss: (cp_before - cp_after).max(0),
            wc_before,
            wc_after,
            drop,
            accuracy: accuracy_percent(50.0 + 50.0 * wc_before, 50.0 + 50.0 * wc_after),
            judgement: Judgement::from_drop(drop),
            state: State::of(wc_before),
            phase: Phase::of(pos, ply),
            clock: mv.clock,
        });
    }
    // Game accuracy from White's evaluations, lila's way (start position's evaluation first).
    let white_cp = |k: usize| {
        let s = scores[k];
        let s = if g.positions[k].turn() == Color::White {
            s
        } else {
            s.negate()
        };
        s.capped_cp()
    };
    let cps: Vec<i32> = (1..g.positions.len()).map(white_cp).collect();
    let (wa, ba) = if g.moves.is_empty() {
        (None, None)
    } else {
        game_accuracy(white_cp(0), &cps, g.positions[0].turn() == Color::White)
    };
    Some((out, wa, ba))
}
