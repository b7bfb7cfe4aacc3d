//! A match cut into work units for another process to play (the PostgreSQL store's workers):
//! a unit is one opening pair, its games planned exactly as the file path plans them (the same
//! ids, colours, openings and seeds), and [`UnitPlayer`] plays a unit with the same game loop.

use super::collect::{make_record, time_control_tag};
use super::config::MatchConfig;
use super::driver::two_mut;
use super::error::{Context, Result};
use super::game::{self, GameJob};
use super::openings::{self, Opening};
use super::pgn::{format_pgn, hostname, today, PgnGame};
use super::players::{preflight, resolve_players, Player};
use super::run_options::RunOptions;
use super::schedule;
use super::uci_engine::UciEngine;
use crate::results::GameRow;

/// One game of a unit; `white` and `black` index the unit's own two engines (0 or 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitGame {
    pub game_id: u64,
    pub white: usize,
    pub black: usize,
    pub seed: u64,
}

/// One opening pair of a match: both colours' games from one opening.
#[derive(Clone, Debug)]
pub struct Unit {
    pub pair_id: u64,
    pub round: u32,
    /// The unit's two engines as a match of their own (engines, limits, adjudication,
    /// timeouts): all a worker needs to start and drive them.
    pub spec: MatchConfig,
    pub opening: Opening,
    pub games: Vec<UnitGame>,
}

/// The match's games grouped by opening pair, in plan order. `book_source` names where the
/// book was given, for its errors.
pub fn plan_units(cfg: &MatchConfig, book_source: Option<&str>) -> Result<Vec<Unit>> {
    let book = match book_source {
        Some(from) => openings::load(&cfg.openings).context(from)?,
        None => openings::load(&cfg.openings)?,
    };
    let mut units: Vec<Unit> = Vec::new();
    for slot in schedule::plan(cfg, &book) {
        let (a, b) = if slot.white < slot.black {
            (slot.white, slot.black)
        } else {
            (slot.black, slot.white)
        };
        let game = UnitGame {
            game_id: slot.game_id,
            white: usize::from(slot.white != a),
            black: usize::from(slot.black != a),
            seed: slot.seed,
        };
        match units.last_mut() {
            Some(u) if u.pair_id == slot.pair_id => u.games.push(game),
            _ => units.push(Unit {
                pair_id: slot.pair_id,
                round: slot.round,
                spec: pair_config(cfg, a, b),
                opening: book.openings[slot.opening].clone(),
                games: vec![game],
            }),
        }
    }
    Ok(units)
}

/// Engines `a` and `b` of the match as a two-engine match; the `skillcal` binary is the
/// worker's own, and what says nothing about a game is left out.
fn pair_config(cfg: &MatchConfig, a: usize, b: usize) -> MatchConfig {
    MatchConfig {
        event: cfg.event.clone(),
        engines: vec![cfg.engines[a].clone(), cfg.engines[b].clone()],
        limits: cfg.limits.clone(),
        adjudication: cfg.adjudication.clone(),
        timeouts: cfg.timeouts.clone(),
        rounds: 1,
        ..Default::default()
    }
}

/// The file path's preflight of the match's engines, when this machine has them all (a
/// coordinator with the engines catches a bad option before anything is enqueued); `Ok(false)`
/// when an engine is not here, for the workers to check.
pub async fn preflight_if_local(cfg: &MatchConfig, opts: &RunOptions) -> Result<bool> {
    let Ok(players) = resolve_players(cfg, opts) else {
        return Ok(false);
    };
    preflight(cfg, &players).await?;
    Ok(true)
}

/// A unit's engines as text for the store: the TOML of `spec`, after a first line naming the
/// engines whose options were written as a list, not read from a TOML table (TOML keeps their
/// order but not that fact, and it decides how the engine is named and its settings written).
pub fn spec_to_text(spec: &MatchConfig) -> std::result::Result<String, String> {
    let listed: Vec<String> = (spec.engines.iter().enumerate())
        .filter(|(_, e)| !e.options.1)
        .map(|(i, _)| i.to_string())
        .collect();
    let toml = toml::to_string(spec).map_err(|e| e.to_string())?;
    Ok(format!("# listed options: {}\n{toml}", listed.join(",")))
}

/// The unit's engines back from [`spec_to_text`].
pub fn spec_from_text(text: &str) -> std::result::Result<MatchConfig, String> {
    let mut spec: MatchConfig = toml::from_str(text).map_err(|e| e.to_string())?;
    let first = text.lines().next().unwrap_or("");
    if let Some(list) = first.strip_prefix("# listed options: ") {
        for i in list
            .split(',')
            .filter_map(|v| v.trim().parse::<usize>().ok())
        {
            if let Some(e) = spec.engines.get_mut(i) {
                e.options.1 = false;
            }
        }
    }
    Ok(spec)
}

/// A finished game of a unit: its games.csv row and its PGN text.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub record: GameRow,
    pub pgn: String,
}

/// Plays units of one engine pair; keeps the engine processes between units.
pub struct UnitPlayer {
    spec: MatchConfig,
    players: Vec<Player>,
    engines: Vec<Option<UciEngine>>,
}

impl UnitPlayer {
    /// Resolves the pair's engines on this machine and starts each once to check every option
    /// it will be sent (the file path's preflight); an error (a program not found, an option
    /// this build lacks) is the reason to refuse the unit.
    pub async fn new(spec: &MatchConfig, opts: &RunOptions) -> Result<UnitPlayer> {
        let players = resolve_players(spec, opts)?;
        preflight(spec, &players).await?;
        Ok(UnitPlayer {
            spec: spec.clone(),
            engines: players.iter().map(|_| None).collect(),
            players,
        })
    }

    /// Plays the unit's games in order. An engine that cannot start (or fails `ucinewgame`)
    /// refuses the unit (`Err` with the reason): its loss would be a fault of this machine,
    /// not a game.
    pub async fn play(&mut self, unit: &Unit) -> std::result::Result<Vec<PlayedGame>, String> {
        let (date, site) = (today(), hostname());
        let mut out = Vec::with_capacity(unit.games.len());
        for g in &unit.games {
            let job = GameJob {
                game_id: g.game_id,
                pair_id: unit.pair_id,
                round: unit.round,
                white: g.white,
                black: g.black,
                opening: unit.opening.clone(),
                seed: g.seed,
            };
            let (w, b) = two_mut(&mut self.engines, job.white, job.black);
            let finished = game::play(
                &job,
                [&self.players[job.white], &self.players[job.black]],
                [w, b],
                &self.spec.adjudication,
                &self.spec.timeouts,
            )
            .await;
            if finished.failed_at_start {
                return Err(finished.detail);
            }
            let record = make_record(&self.spec, &self.players, &job, &finished);
            let pgn = format_pgn(&PgnGame {
                event: &self.spec.event,
                site: &site,
                date: &date,
                record: &record,
                root_fen: &job.opening.root_fen,
                time_control: &time_control_tag(&self.players, &job),
                draft: &finished,
            });
            out.push(PlayedGame { record, pgn });
        }
        Ok(out)
    }

    /// Ends the engine processes.
    pub async fn quit(self) {
        for e in self.engines.into_iter().flatten() {
            e.quit().await;
        }
    }
}
