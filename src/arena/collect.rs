//! What the match driver does with each finished game, in order: the record and its PGN stored
//! (the CSV row last), the tallies and the SPRT fed, the progress shown, an engine that keeps
//! failing to start stopping the match, and a summary printed every `summary_every` games.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use indicatif::ProgressBar;
use tokio::time::Instant;

use super::config::MatchConfig;
use super::error::{ArenaError, Result};
use super::game::GameJob;
use super::game_files::GameFiles;
use super::outcome::{FinishedGame, Termination};
use super::pgn::{format_pgn, hostname, today, PgnGame};
use super::players::Player;
use super::run_options::RunOptions;
use super::sprt::SprtTracker;
use super::stats::MatchTally;
use super::summary::MatchSummary;
use super::sweep::SweepTracker;
use crate::results::GameRow;

/// The match's state while games come in.
pub(super) struct Collector<'a> {
    config: &'a MatchConfig,
    opts: &'a RunOptions,
    store: GameFiles,
    tally: MatchTally,
    sprt: Option<SprtTracker>,
    sweep: Option<SweepTracker>,
    summary: MatchSummary,
    pb: ProgressBar,
    date: String,
    site: String,
    start_failures: HashMap<usize, u32>,
    overhead_ns: u128,
    overhead_write_ns: u128,
}

impl<'a> Collector<'a> {
    pub fn new(
        config: &'a MatchConfig,
        opts: &'a RunOptions,
        store: GameFiles,
        (tally, sprt, sweep): (MatchTally, Option<SprtTracker>, Option<SweepTracker>),
        summary: MatchSummary,
        pb: ProgressBar,
    ) -> Collector<'a> {
        Collector {
            config,
            opts,
            store,
            tally,
            sprt,
            sweep,
            summary,
            pb,
            date: today(),
            site: hostname(),
            start_failures: HashMap::new(),
            overhead_ns: 0,
            overhead_write_ns: 0,
        }
    }

    /// Stores and counts one finished game; an error stops the match (the game is kept if
    /// its row was written).
    pub fn add(
        &mut self,
        players: &[Player],
        queue: &Mutex<VecDeque<GameJob>>,
        job: &GameJob,
        finished: &FinishedGame,
    ) -> Result<()> {
        let config = self.config;
        let record = make_record(config, players, job, finished);
        let pgn = format_pgn(&PgnGame {
            event: &config.event,
            site: &self.site,
            date: &self.date,
            record: &record,
            root_fen: &job.opening.root_fen,
            time_control: &time_control_tag(players, job),
            draft: finished,
        });
        self.store.append(&pgn, &record)?;
        self.tally.add(&record);
        let mut progress = self.tally.progress_message();
        if let Some(t) = self.sprt.as_mut() {
            t.add(&record);
            if t.decided() {
                // no new games; the ones under way finish and are kept
                queue.lock().expect("queue lock").clear();
            }
            progress.push_str(&format!(", LLR {:.2}", t.result().llr));
        }
        if let Some(t) = self.sweep.as_mut() {
            t.add(&record);
            if t.swept(&record.white, &record.black) {
                // the pairing's games not yet started are dropped; one under way finishes
                let (a, b) = (job.white.min(job.black), job.white.max(job.black));
                queue
                    .lock()
                    .expect("queue lock")
                    .retain(|j| (j.white.min(j.black), j.white.max(j.black)) != (a, b));
            }
        }
        let summary = &mut self.summary;
        summary.played += 1;
        summary.done += 1;
        self.overhead_ns += finished.overhead_ns;
        self.overhead_write_ns += finished.overhead_write_ns;
        summary.overhead_moves += finished.overhead_count;
        self.pb.inc(1);
        self.pb.set_message(progress);

        count_start_failures(&mut self.start_failures, players, job, finished)?;
        if self.opts.summaries
            && config.summary_every > 0
            && summary.done.is_multiple_of(config.summary_every as usize)
        {
            let text = format!(
                "after {} games:\n  {}",
                summary.done,
                self.tally.summary_lines().join("\n  ")
            );
            if self.pb.is_hidden() {
                eprintln!("{text}");
            } else {
                self.pb.println(text);
            }
        }
        Ok(())
    }

    /// The summary, its tallies and timings filled in.
    pub fn finish(mut self, started: Instant) -> MatchSummary {
        self.pb.finish_and_clear();
        finish_summary(
            &mut self.summary,
            &self.tally,
            self.sprt.as_ref(),
            started,
            self.overhead_ns,
            self.overhead_write_ns,
        );
        self.summary
    }
}

pub(super) fn finish_summary(
    summary: &mut MatchSummary,
    tally: &MatchTally,
    sprt: Option<&SprtTracker>,
    started: Instant,
    overhead_ns: u128,
    overhead_write_ns: u128,
) {
    summary.pairs = tally.pairs.clone();
    summary.terminations = tally.terminations.clone();
    summary.sprt = sprt.map(SprtTracker::status);
    summary.seconds = started.elapsed().as_secs_f64();
    if summary.overhead_moves > 0 {
        let per_move_us = |ns: u128| ns as f64 / summary.overhead_moves as f64 / 1000.0;
        summary.overhead_us = Some(per_move_us(overhead_ns));
        summary.overhead_write_us = Some(per_move_us(overhead_write_ns));
    }
}

/// An engine that fails to start or crashes in three games in a row stops the match (a
/// misconfigured engine would otherwise lose every game, and a calibration would fit its
/// losses). cutechess-cli stops at the first crash unless told to `-recover`; three lets an
/// engine that crashes now and then play on.
fn count_start_failures(
    counts: &mut HashMap<usize, u32>,
    players: &[Player],
    job: &GameJob,
    finished: &FinishedGame,
) -> Result<()> {
    let crashed = finished.termination == Termination::Crash && finished.faulty.is_some();
    if finished.failed_at_start || crashed {
        let who = match finished.faulty {
            Some(shakmaty::Color::White) => job.white,
            _ => job.black,
        };
        let n = counts.entry(who).or_default();
        *n += 1;
        if *n >= 3 {
            return Err(ArenaError::Engine(format!(
                "engine {} failed to start or crashed in 3 games in a row (last: {}); stopping \
                 (the games are kept: a rerun replays nothing finished)",
                players[who].spec.name, finished.detail
            )));
        }
    } else {
        counts.remove(&job.white);
        counts.remove(&job.black);
    }
    Ok(())
}

/// The PGN `TimeControl` tag: one value, or `white:black` when they differ.
pub(super) fn time_control_tag(players: &[Player], job: &GameJob) -> String {
    let tc = players[job.white].limits.limits.pgn_time_control();
    let tcb = players[job.black].limits.limits.pgn_time_control();
    if tc == tcb {
        tc
    } else {
        format!("{tc}:{tcb}")
    }
}

pub(super) fn make_record(
    cfg: &MatchConfig,
    players: &[Player],
    job: &GameJob,
    d: &FinishedGame,
) -> GameRow {
    let settings = |i: usize| cfg.engines[i].settings_string().unwrap_or_default();
    GameRow {
        game_id: job.game_id,
        pair_id: job.pair_id,
        round: job.round,
        white: players[job.white].spec.name.clone(),
        black: players[job.black].spec.name.clone(),
        white_settings: settings(job.white),
        black_settings: settings(job.black),
        opening_id: job.opening.id,
        opening_fen: d.start_fen.clone(),
        result: Some(d.result),
        termination: d.termination,
        plies: d.moves.len() as u32,
        seconds: (d.seconds * 1000.0).round() / 1000.0,
        seed: job.seed,
        white_depth: d.pace[0].depth(),
        black_depth: d.pace[1].depth(),
        white_nodes: d.pace[0].nodes(),
        black_nodes: d.pace[1].nodes(),
    }
}
