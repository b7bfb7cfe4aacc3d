//! One game between two engine processes: the loop (position, `go`, `bestmove`), the rules
//! via shakmaty, and engine failures (the offender loses). Clocks live in
//! [`super::time_control`], adjudication in [`super::adjudication`].

use std::collections::HashMap;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use tokio::time::Instant;

use super::adjudication::{side_index, Adjudicator, Ending};
use super::config::{AdjudicationConfig, Timeouts};
use super::openings::Opening;
use super::outcome::{win_for, FinishedGame, GameResult, PlayedMove, SidePace, Termination};
use super::players::Player;
use super::time_control::{Budget, Clocks, Overrun};
use super::uci_engine::{BestMove, EngineFault, SearchInfo, UciEngine};

/// One scheduled game.
#[derive(Clone, Debug)]
pub struct GameJob {
    pub game_id: u64,
    pub pair_id: u64,
    pub round: u32,
    /// Engine indices in the config.
    pub white: usize,
    pub black: usize,
    pub opening: Opening,
    pub seed: u64,
}

fn fault_termination(f: &EngineFault) -> Termination {
    match f {
        EngineFault::Crash(_) => Termination::Crash,
        EngineFault::Timeout(_) => Termination::Stall,
    }
}

/// Plays one game. `slots[0]` is White's process, `slots[1]` Black's; a missing one is
/// started, and a faulty one is dropped (killed) so the next game starts it afresh.
pub async fn play(
    job: &GameJob,
    players: [&Player; 2],
    slots: [&mut Option<UciEngine>; 2],
    adjudication: &AdjudicationConfig,
    timeouts: &Timeouts,
) -> FinishedGame {
    let started = Instant::now();
    let [ws, bs] = slots;
    let slots = [ws, bs];
    let handshake = Duration::from_millis(timeouts.handshake_ms);
    let mut game = GameState::new(job);

    // Start (or reuse) both engines and announce the new game; the first to fail loses.
    for c in [Color::White, Color::Black] {
        let i = side_index(c);
        if slots[i].is_none() {
            match UciEngine::start(&players[i].spec, handshake).await {
                Ok(e) => *slots[i] = Some(e),
                Err(f) => {
                    let mut d = game.finish_fault(c, fault_termination(&f), f.to_string(), started);
                    d.failed_at_start = true;
                    return d;
                }
            }
        }
        let eng = slots[i].as_mut().expect("started above");
        if let Err(f) = eng.new_game(job.seed, handshake).await {
            *slots[i] = None;
            let mut d = game.finish_fault(c, fault_termination(&f), f.to_string(), started);
            d.failed_at_start = true;
            return d;
        }
    }

    let mut clocks = Clocks::new([&players[0].limits, &players[1].limits]);
    let mut last_received: Option<Instant> = None;
    let mut adjudicator = Adjudicator::new(adjudication);
    let mut cmd = String::with_capacity(4096);
    let stall = Duration::from_millis(timeouts.stall_ms);

    loop {
        let c = game.pos.turn();
        let i = side_index(c);
        let p = players[i];
        game.go_command(&mut cmd, &clocks);
        let (deadline, timeout_kind) = match clocks.budget(i, stall) {
            Budget::Time(t) => (Instant::now() + t, Termination::TimeForfeit),
            Budget::Stall(t) => (Instant::now() + t, Termination::Stall),
        };
        let eng = slots[i].as_mut().expect("engines live during the game");
        let bm: BestMove = match eng.go(&cmd, deadline).await {
            Ok(bm) => bm,
            Err(f) => {
                *slots[i] = None;
                let term = match f {
                    EngineFault::Timeout(_) => timeout_kind,
                    EngineFault::Crash(_) => Termination::Crash,
                };
                let mut said = f.to_string();
                // UCI makes `go nodes` optional: Fruit's descendants (Toga II, GNU Chess) search
                // on until `stop`, so a stall there is mostly that, not a hang
                if term == Termination::Stall && p.limits.limits.nodes.is_some() {
                    said.push_str(
                        " (it was given `go nodes` alone: an engine that ignores the node limit \
                         never answers; `skillcal init` tests an engine for it)",
                    );
                } else if term == Termination::Stall && p.limits.limits.depth.is_some() {
                    // Toga II on one core can spend minutes on some positions at depth 12
                    said.push_str(
                        " (it was given `go depth` alone: a deep search can outlast the stall \
                         limit, `timeouts.stall_ms`; a lower depth answers sooner)",
                    );
                }
                return game.finish_fault(c, term, said, started);
            }
        };
        if let Some(r) = last_received {
            game.overhead_ns += bm.sent.saturating_duration_since(r).as_nanos();
            game.overhead_write_ns += bm.sent.saturating_duration_since(bm.issued).as_nanos();
            game.overhead_count += 1;
        }
        last_received = Some(bm.received);
        let elapsed = bm.received.saturating_duration_since(bm.sent);

        if let Err(over) = clocks.charge(i, elapsed) {
            *slots[i] = None;
            let d = match over {
                Overrun::Clock { left } => format!(
                    "engine {}: answered after {:.3}s with {:.3}s left",
                    p.spec.name,
                    elapsed.as_secs_f64(),
                    left.as_secs_f64()
                ),
                Overrun::Movetime { movetime_ms } => format!(
                    "engine {}: took {:.3}s for movetime {movetime_ms} ms",
                    p.spec.name,
                    elapsed.as_secs_f64()
                ),
            };
            return game.finish_fault(c, Termination::TimeForfeit, d, started);
        }

        let mv = match bm
            .token
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&game.pos).ok())
        {
            Some(m) => m,
            None => {
                *slots[i] = None;
                let d = format!(
                    "engine {}: illegal move '{}' in {}",
                    p.spec.name,
                    bm.token,
                    Fen::from_position(&game.pos, EnPassantMode::Legal)
                );
                return game.finish_fault(c, Termination::IllegalMove, d, started);
            }
        };
        let comment = move_comment(&bm.info, elapsed);
        game.push(mv, comment);
        game.pace[i].record(&bm.info);

        if let Some(end) = game.rules_end(c) {
            return game.finish(end.0, end.1, end.2, None, started);
        }
        let fullmoves = game.pos.fullmoves().get();
        if let Some(end) = adjudicator.after_move(c, &bm.info, fullmoves, game.moves.len()) {
            return game.finish(end.0, end.1, end.2, None, started);
        }
    }
}

struct GameState {
    root_fen: String,
    pos: Chess,
    uci_moves: Vec<String>,
    moves: Vec<PlayedMove>,
    pace: [SidePace; 2],
    start_fen: String,
    seen: HashMap<u64, u8>,
    overhead_ns: u128,
    overhead_count: u64,
    overhead_write_ns: u128,
}

impl GameState {
    fn new(job: &GameJob) -> GameState {
        let mut pos = job.opening.root();
        let mut seen = HashMap::new();
        let mut moves = Vec::new();
        *seen.entry(hash(&pos)).or_insert(0) += 1;
        for m in &job.opening.moves {
            let mv = m
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .expect("book validated at load");
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
            *seen.entry(hash(&pos)).or_insert(0) += 1;
            moves.push(PlayedMove {
                san: san.to_string(),
                comment: "book".into(),
            });
        }
        GameState {
            root_fen: job.opening.root_fen.clone(),
            start_fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            pos,
            uci_moves: job.opening.moves.clone(),
            moves,
            pace: [SidePace::default(); 2],
            seen,
            overhead_ns: 0,
            overhead_count: 0,
            overhead_write_ns: 0,
        }
    }

    fn push(&mut self, mv: shakmaty::Move, comment: String) {
        self.uci_moves.push(UciMove::from_standard(mv).to_string());
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, mv);
        *self.seen.entry(hash(&self.pos)).or_insert(0) += 1;
        self.moves.push(PlayedMove {
            san: san.to_string(),
            comment,
        });
    }

    /// `position ... moves ...` and `go ...` for the side to move, into `out`.
    fn go_command(&self, out: &mut String, clocks: &Clocks<'_>) {
        out.clear();
        out.push_str("position fen ");
        out.push_str(&self.root_fen);
        if !self.uci_moves.is_empty() {
            out.push_str(" moves");
            for m in &self.uci_moves {
                out.push(' ');
                out.push_str(m);
            }
        }
        out.push_str("\ngo");
        clocks.write_go_args(out, side_index(self.pos.turn()));
        out.push('\n');
    }

    /// Game over by the rules after `mover` moved?
    fn rules_end(&self, mover: Color) -> Option<Ending> {
        let pos = &self.pos;
        if pos.is_checkmate() {
            let who = if mover == Color::White {
                "White"
            } else {
                "Black"
            };
            return Some((
                win_for(mover),
                Termination::Checkmate,
                format!("{who} mates"),
            ));
        }
        if pos.is_stalemate() {
            return Some((GameResult::Draw, Termination::Stalemate, "Stalemate".into()));
        }
        if pos.is_insufficient_material() {
            return Some((
                GameResult::Draw,
                Termination::InsufficientMaterial,
                "Insufficient material".into(),
            ));
        }
        if pos.halfmoves() >= 100 {
            return Some((
                GameResult::Draw,
                Termination::FiftyMoves,
                "Fifty-move rule".into(),
            ));
        }
        if self.seen.get(&hash(pos)).copied().unwrap_or(0) >= 3 {
            return Some((
                GameResult::Draw,
                Termination::Threefold,
                "Threefold repetition".into(),
            ));
        }
        None
    }

    fn finish_fault(
        &mut self,
        offender: Color,
        term: Termination,
        detail: String,
        started: Instant,
    ) -> FinishedGame {
        self.finish(win_for(!offender), term, detail, Some(offender), started)
    }

    fn finish(
        &mut self,
        result: GameResult,
        termination: Termination,
        detail: String,
        faulty: Option<Color>,
        started: Instant,
    ) -> FinishedGame {
        FinishedGame {
            result,
            termination,
            detail,
            moves: std::mem::take(&mut self.moves),
            pace: self.pace,
            start_fen: self.start_fen.clone(),
            seconds: started.elapsed().as_secs_f64(),
            faulty,
            overhead_ns: self.overhead_ns,
            overhead_count: self.overhead_count,
            overhead_write_ns: self.overhead_write_ns,
            failed_at_start: false,
        }
    }
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// `+0.35/12 0.105s` (score from the mover's side), `+M3/20 0.010s`, or `0.105s` without info.
fn move_comment(info: &SearchInfo, elapsed: Duration) -> String {
    let t = format!("{:.3}s", elapsed.as_secs_f64());
    let score = match (info.mate, info.cp) {
        (Some(m), _) if m > 0 => format!("+M{m}"),
        (Some(m), _) => format!("-M{}", -m),
        (None, Some(cp)) => format!("{:+.2}", cp as f64 / 100.0),
        (None, None) => return t,
    };
    match info.depth {
        Some(d) => format!("{score}/{d} {t}"),
        None => format!("{score} {t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments() {
        let i = SearchInfo {
            cp: Some(35),
            mate: None,
            depth: Some(12),
            nodes: None,
        };
        assert_eq!(
            move_comment(&i, Duration::from_millis(105)),
            "+0.35/12 0.105s"
        );
        let m = SearchInfo {
            cp: None,
            mate: Some(-2),
            depth: Some(3),
            nodes: None,
        };
        assert_eq!(move_comment(&m, Duration::from_millis(10)), "-M2/3 0.010s");
        assert_eq!(
            move_comment(&SearchInfo::default(), Duration::ZERO),
            "0.000s"
        );
    }
}
