//! One game between two engine processes: clocks, the rules (via shakmaty), adjudication and
//! the classification of engine failures (the offender loses).

use std::collections::HashMap;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use tokio::time::Instant;

use super::config::{AdjudicationConfig, Limits, TimeControl, Timeouts};
use super::engine::{BestMove, EngineFault, EngineProcess, EngineSpec, SearchInfo};
use super::openings::Opening;

/// How a game ended. `as_str` gives the games.csv `termination` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
    AdjudicationResign,
    AdjudicationDraw,
    MaxPlies,
    TimeForfeit,
    IllegalMove,
    Crash,
    Stall,
}

impl Termination {
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Threefold,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::AdjudicationResign,
        Termination::AdjudicationDraw,
        Termination::MaxPlies,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty_moves",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::AdjudicationResign => "adjudication_resign",
            Termination::AdjudicationDraw => "adjudication_draw",
            Termination::MaxPlies => "max_plies",
            Termination::TimeForfeit => "time_forfeit",
            Termination::IllegalMove => "illegal_move",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
        }
    }

    pub fn parse(s: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The PGN `Termination` tag (the standard's vocabulary).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::AdjudicationResign
            | Termination::AdjudicationDraw
            | Termination::MaxPlies => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash | Termination::Stall => "abandoned",
            _ => "normal",
        }
    }

    /// True when an engine failed (it loses and is restarted).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Crash
                | Termination::Stall
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

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

/// An engine as a game needs it: how to start it and its limits.
#[derive(Clone, Debug)]
pub struct Player {
    pub spec: EngineSpec,
    pub limits: Limits,
    pub tc: Option<TimeControl>,
    pub margin: Duration,
}

impl Player {
    pub fn new(spec: EngineSpec, limits: Limits) -> anyhow::Result<Player> {
        let tc = limits.time_control()?;
        let margin = Duration::from_millis(limits.time_margin_ms.unwrap_or(100));
        Ok(Player {
            spec,
            limits,
            tc,
            margin,
        })
    }
}

pub struct PlayedMove {
    pub san: String,
    /// PGN comment text without braces (`+0.35/12 0.105s`, `book`).
    pub comment: String,
}

/// Everything a finished game leaves behind.
pub struct GameRecordDraft {
    pub result: GameResult,
    pub termination: Termination,
    /// A sentence for the PGN (`White mates`, `engine X: disconnected ...`).
    pub detail: String,
    pub moves: Vec<PlayedMove>,
    pub start_fen: String,
    pub seconds: f64,
    /// The side whose engine failed (it is restarted).
    pub faulty: Option<Color>,
    /// Sum and count of bestmove-received -> next-go-sent gaps, nanoseconds.
    pub overhead_ns: u128,
    pub overhead_count: u64,
    /// The part of `overhead_ns` spent inside the pipe write of `position` + `go`.
    pub overhead_write_ns: u128,
    /// The failure came before the first move (starting the engine or `ucinewgame`).
    pub failed_at_start: bool,
}

/// Streaks for the adjudication rules, one entry per mover.
#[derive(Default)]
struct Streaks {
    /// `resign[loser][mover]`: consecutive moves of `mover` reporting `loser` lost.
    resign: [[u32; 2]; 2],
    draw: [u32; 2],
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
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
    slots: [&mut Option<EngineProcess>; 2],
    adjudication: &AdjudicationConfig,
    timeouts: &Timeouts,
) -> GameRecordDraft {
    let started = Instant::now();
    let [ws, bs] = slots;
    let slots = [ws, bs];
    let handshake = Duration::from_millis(timeouts.handshake_ms);
    let mut game = Game::new(job);

    // Start (or reuse) both engines and announce the new game; the first to fail loses.
    for c in [Color::White, Color::Black] {
        let i = idx(c);
        if slots[i].is_none() {
            match EngineProcess::start(&players[i].spec, handshake).await {
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

    let mut clocks: [Option<Duration>; 2] = [
        players[0].tc.map(|t| Duration::from_millis(t.base_ms)),
        players[1].tc.map(|t| Duration::from_millis(t.base_ms)),
    ];
    let mut moves_made = [0u32; 2];
    let mut last_received: Option<Instant> = None;
    let mut streaks = Streaks::default();
    let mut cmd = String::with_capacity(4096);

    loop {
        let c = game.pos.turn();
        let i = idx(c);
        let p = players[i];
        game.go_command(&mut cmd, p, &clocks, &moves_made, players);
        let (deadline, timeout_kind) = match (clocks[i], p.limits.movetime_ms) {
            (Some(left), _) => (Instant::now() + left + p.margin, Termination::TimeForfeit),
            (None, Some(mt)) => (
                Instant::now() + Duration::from_millis(mt) + p.margin,
                Termination::TimeForfeit,
            ),
            (None, None) => (
                Instant::now() + Duration::from_millis(timeouts.stall_ms),
                Termination::Stall,
            ),
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
                return game.finish_fault(c, term, f.to_string(), started);
            }
        };
        if let Some(r) = last_received {
            game.overhead_ns += bm.sent.saturating_duration_since(r).as_nanos();
            game.overhead_write_ns += bm.sent.saturating_duration_since(bm.issued).as_nanos();
            game.overhead_count += 1;
        }
        last_received = Some(bm.received);
        let elapsed = bm.received.saturating_duration_since(bm.sent);

        // Clock: a reply past time left + margin forfeits; otherwise the overshoot is forgiven.
        if let Some(left) = clocks[i] {
            if elapsed > left + p.margin {
                *slots[i] = None;
                let d = format!(
                    "engine {}: answered after {:.3}s with {:.3}s left",
                    p.spec.name,
                    elapsed.as_secs_f64(),
                    left.as_secs_f64()
                );
                return game.finish_fault(c, Termination::TimeForfeit, d, started);
            }
            let tc = p.tc.expect("clock implies tc");
            let mut next = left.saturating_sub(elapsed) + Duration::from_millis(tc.inc_ms);
            moves_made[i] += 1;
            if tc.moves.is_some_and(|m| moves_made[i].is_multiple_of(m)) {
                next += Duration::from_millis(tc.base_ms);
            }
            clocks[i] = Some(next);
        } else if let Some(mt) = p.limits.movetime_ms {
            if elapsed > Duration::from_millis(mt) + p.margin {
                *slots[i] = None;
                let d = format!(
                    "engine {}: took {:.3}s for movetime {mt} ms",
                    p.spec.name,
                    elapsed.as_secs_f64()
                );
                return game.finish_fault(c, Termination::TimeForfeit, d, started);
            }
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

        if let Some(end) = game.rules_end(c) {
            return game.finish(end.0, end.1, end.2, None, started);
        }
        if let Some(end) = adjudicate(&game, c, &bm.info, adjudication, &mut streaks) {
            return game.finish(end.0, end.1, end.2, None, started);
        }
    }
}

struct Game {
    root_fen: String,
    pos: Chess,
    uci_moves: Vec<String>,
    moves: Vec<PlayedMove>,
    start_fen: String,
    seen: HashMap<u64, u8>,
    overhead_ns: u128,
    overhead_count: u64,
    overhead_write_ns: u128,
}

impl Game {
    fn new(job: &GameJob) -> Game {
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
        Game {
            root_fen: job.opening.root_fen.clone(),
            start_fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            pos,
            uci_moves: job.opening.moves.clone(),
            moves,
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
    fn go_command(
        &self,
        out: &mut String,
        p: &Player,
        clocks: &[Option<Duration>; 2],
        moves_made: &[u32; 2],
        players: [&Player; 2],
    ) {
        use std::fmt::Write;
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
        let i = idx(self.pos.turn());
        if let Some(mine) = clocks[i] {
            // A side without a clock gets the mover's figures, so the engine sees sane numbers.
            let theirs = clocks[1 - i].unwrap_or(mine);
            let (w, b) = if i == 0 {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let inc = |k: usize| players[k].tc.map_or(0, |t| t.inc_ms);
            let (wi, bi) = (inc(0), inc(1));
            let _ = write!(
                out,
                " wtime {} btime {} winc {} binc {}",
                w.as_millis(),
                b.as_millis(),
                if players[0].tc.is_some() { wi } else { bi },
                if players[1].tc.is_some() { bi } else { wi },
            );
            if let Some(m) = p.tc.and_then(|t| t.moves) {
                let _ = write!(out, " movestogo {}", m - moves_made[i] % m);
            }
        }
        if let Some(mt) = p.limits.movetime_ms {
            let _ = write!(out, " movetime {mt}");
        }
        if let Some(n) = p.limits.nodes {
            let _ = write!(out, " nodes {n}");
        }
        if let Some(d) = p.limits.depth {
            let _ = write!(out, " depth {d}");
        }
        out.push('\n');
    }

    /// Game over by the rules after `mover` moved?
    fn rules_end(&self, mover: Color) -> Option<(GameResult, Termination, String)> {
        let pos = &self.pos;
        if pos.is_checkmate() {
            let who = if mover == Color::White {
                "White"
            } else {
                "Black"
            };
            return Some((
                GameResult::win_for(mover),
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
    ) -> GameRecordDraft {
        self.finish(
            GameResult::win_for(!offender),
            term,
            detail,
            Some(offender),
            started,
        )
    }

    fn finish(
        &mut self,
        result: GameResult,
        termination: Termination,
        detail: String,
        faulty: Option<Color>,
        started: Instant,
    ) -> GameRecordDraft {
        GameRecordDraft {
            result,
            termination,
            detail,
            moves: std::mem::take(&mut self.moves),
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

/// Resign / draw / max-plies adjudication after `mover` played with `info`.
fn adjudicate(
    game: &Game,
    mover: Color,
    info: &SearchInfo,
    cfg: &AdjudicationConfig,
    s: &mut Streaks,
) -> Option<(GameResult, Termination, String)> {
    let m = idx(mover);
    let score = info.score_cp();
    if let Some(r) = &cfg.resign {
        for loser in [Color::White, Color::Black] {
            let l = idx(loser);
            // The mover's score, seen from the loser's side.
            let against = score.map(|sc| if mover == loser { sc } else { -sc });
            if against.is_some_and(|a| a <= -r.score_cp) {
                s.resign[l][m] += 1;
            } else {
                s.resign[l][m] = 0;
            }
            if s.resign[l][0] >= r.moves && s.resign[l][1] >= r.moves {
                let who = if loser == Color::White {
                    "White"
                } else {
                    "Black"
                };
                return Some((
                    GameResult::win_for(!loser),
                    Termination::AdjudicationResign,
                    format!("{who} resigns (both engines agree)"),
                ));
            }
        }
    }
    if let Some(d) = &cfg.draw {
        if game.pos.fullmoves().get() >= d.after_move
            && score.is_some_and(|sc| sc.abs() <= d.score_cp)
        {
            s.draw[m] += 1;
        } else {
            s.draw[m] = 0;
        }
        if s.draw[0] >= d.moves && s.draw[1] >= d.moves {
            return Some((
                GameResult::Draw,
                Termination::AdjudicationDraw,
                "Draw by adjudication".into(),
            ));
        }
    }
    if let Some(max) = cfg.max_plies {
        if game.moves.len() as u32 >= max {
            return Some((
                GameResult::Draw,
                Termination::MaxPlies,
                format!("Drawn at {max} plies"),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_names_round_trip() {
        for t in Termination::ALL {
            assert_eq!(Termination::parse(t.as_str()), Some(t));
        }
    }

    #[test]
    fn comments() {
        let i = SearchInfo {
            cp: Some(35),
            mate: None,
            depth: Some(12),
        };
        assert_eq!(
            move_comment(&i, Duration::from_millis(105)),
            "+0.35/12 0.105s"
        );
        let m = SearchInfo {
            cp: None,
            mate: Some(-2),
            depth: Some(3),
        };
        assert_eq!(move_comment(&m, Duration::from_millis(10)), "-M2/3 0.010s");
        assert_eq!(
            move_comment(&SearchInfo::default(), Duration::ZERO),
            "0.000s"
        );
    }
}
