//! The match driver: plans the games, locks and opens the run directory, checks the engines
//! once, plays the pending games on `concurrency` workers, stores each finished game, shows
//! progress and stops cleanly on signals (fastchess's `matchmaking/tournament`).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::signal::unix::{signal, Signal, SignalKind};
use tokio::sync::{mpsc, Semaphore};
use tokio::time::Instant;

use super::config::{AdjudicationConfig, MatchConfig, Timeouts};
use super::error::{ArenaError, Context, IoContext, Result};
use super::game::{self, GameJob};
use super::lock::RunLock;
use super::openings::{self, Book};
use super::outcome::{FinishedGame, Termination};
use super::pgn::{format_pgn, hostname, today, PgnGame};
use super::players::{preflight, resolve_players, Player};
use super::run_options::RunOptions;
use super::schedule;
use super::snapshot::check_snapshot;
use super::sprt::SprtTracker;
use super::stats::MatchTally;
use super::store::{GameRecord, Store};
use super::summary::MatchSummary;
use super::uci_engine::UciEngine;

/// Blocking entry point: builds its own tokio runtime. Do not call from inside a runtime.
pub fn run_match(config: &MatchConfig, out_dir: &Path, opts: &RunOptions) -> Result<MatchSummary> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| ArenaError::Other(format!("cannot start the tokio runtime: {e}")))?;
    rt.block_on(run_match_async(config, out_dir, opts))
}

/// Blocking: plays (or resumes) several matches at once, each into its folder, their games
/// sharing `concurrency` slots, so no core idles while one match finishes its last game and
/// another has games waiting. Every match plays the games it would alone (the same seeds,
/// openings and colours); all run to their end or to a signal, and each match's outcome is
/// returned in order (the outer error: no runtime). Progress bars are off: several would fight
/// for the terminal.
pub fn run_matches(
    matches: &[(MatchConfig, PathBuf)],
    concurrency: usize,
    opts: &RunOptions,
) -> Result<Vec<Result<MatchSummary>>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| ArenaError::Other(format!("cannot start the tokio runtime: {e}")))?;
    let opts = RunOptions {
        progress: false,
        slots: Some(Arc::new(Semaphore::new(concurrency.max(1)))),
        ..opts.clone()
    };
    rt.block_on(async {
        let mut set = tokio::task::JoinSet::new();
        for (i, (config, dir)) in matches.iter().enumerate() {
            let (config, dir, opts) = (config.clone(), dir.clone(), opts.clone());
            set.spawn(async move { (i, run_match_async(&config, &dir, &opts).await) });
        }
        let mut out: Vec<Result<MatchSummary>> = matches
            .iter()
            .map(|_| {
                Err(ArenaError::Other(
                    "the match's task ended without a result".into(),
                ))
            })
            .collect();
        while let Some(joined) = set.join_next().await {
            if let Ok((i, r)) = joined {
                out[i] = r;
            }
        }
        Ok(out)
    })
}

/// The games still to play and the tallies of the ones already in the directory.
struct Resumed {
    planned: usize,
    pending: VecDeque<GameJob>,
    tally: MatchTally,
    sprt: Option<SprtTracker>,
}

/// Runs (or resumes) the match into `out_dir`.
pub async fn run_match_async(
    config: &MatchConfig,
    out_dir: &Path,
    opts: &RunOptions,
) -> Result<MatchSummary> {
    let started = Instant::now();
    config.validate()?;
    let players = resolve_players(config, opts)?;
    let book = match &opts.book_source {
        Some(from) => openings::load(&config.openings).context(from)?,
        None => openings::load(&config.openings)?,
    };
    // a new folder is made only for engines that start: a failed preflight left one holding
    // match.toml and the lock file alone
    let fresh = !out_dir.exists();
    if fresh {
        preflight(config, &players).await?;
    }
    std::fs::create_dir_all(out_dir).at("create output directory", out_dir)?;
    // held until this function returns: a second run on the directory fails at once
    let _lock = RunLock::acquire(out_dir)?;
    check_snapshot(out_dir, config)?;
    let mut store = Store::open(out_dir)?;
    let Resumed {
        planned,
        pending,
        mut tally,
        mut sprt,
    } = resume(config, &players, &book, &store);
    let already = planned - pending.len();
    let mut summary = MatchSummary {
        out_dir: out_dir.to_path_buf(),
        planned,
        done: already,
        played: 0,
        pairs: Vec::new(),
        terminations: BTreeMap::new(),
        overhead_us: None,
        overhead_write_us: None,
        overhead_moves: 0,
        seconds: 0.0,
        sprt: None,
    };
    // a match the test has already decided plays nothing more
    let decided = sprt.as_ref().is_some_and(SprtTracker::decided);
    if pending.is_empty() || decided {
        finish_summary(&mut summary, &tally, sprt.as_ref(), started, 0, 0);
        return Ok(summary);
    }
    if !fresh {
        preflight(config, &players).await?;
    }

    let pb = progress_bar(opts.progress, planned);
    pb.set_position(already as u64);
    pb.reset_eta();
    pb.set_message(tally.progress_message());

    let ctx = Arc::new(WorkerContext {
        players,
        adjudication: config.adjudication.clone(),
        timeouts: config.timeouts.clone(),
        queue: Mutex::new(pending),
        slots: opts.slots.clone(),
    });
    let (tx, mut rx) = mpsc::unbounded_channel::<(GameJob, FinishedGame)>();
    let workers: Vec<_> = (0..config.concurrency)
        .map(|_| tokio::spawn(worker(ctx.clone(), tx.clone())))
        .collect();
    drop(tx);

    let (date, site) = (today(), hostname());
    let mut start_failures: HashMap<usize, u32> = HashMap::new();
    let (mut overhead_ns, mut overhead_write_ns) = (0u128, 0u128);
    let mut stop = StopSignals::install(opts.handle_signals)?;

    let outcome: Result<()> = loop {
        let msg = tokio::select! {
            m = rx.recv() => m,
            why = stop.wait() => break Err(ArenaError::Other(why.into())),
        };
        let Some((job, finished)) = msg else {
            break Ok(());
        };
        let record = make_record(config, &ctx.players, &job, &finished);
        let pgn = format_pgn(&PgnGame {
            event: &config.event,
            site: &site,
            date: &date,
            record: &record,
            root_fen: &job.opening.root_fen,
            time_control: &time_control_tag(&ctx.players, &job),
            draft: &finished,
        });
        if let Err(e) = store.append(&pgn, &record) {
            break Err(e);
        }
        tally.add(&record);
        let mut progress = tally.progress_message();
        if let Some(t) = sprt.as_mut() {
            t.add(&record);
            if t.decided() {
                // no new games; the ones under way finish and are kept
                ctx.queue.lock().expect("queue lock").clear();
            }
            progress.push_str(&format!(", LLR {:.2}", t.result().llr));
        }
        summary.played += 1;
        summary.done += 1;
        overhead_ns += finished.overhead_ns;
        overhead_write_ns += finished.overhead_write_ns;
        summary.overhead_moves += finished.overhead_count;
        pb.inc(1);
        pb.set_message(progress);

        if let Err(e) = count_start_failures(&mut start_failures, &ctx.players, &job, &finished) {
            break Err(e);
        }
        if opts.summaries
            && config.summary_every > 0
            && summary.done.is_multiple_of(config.summary_every as usize)
        {
            let text = format!(
                "after {} games:\n  {}",
                summary.done,
                tally.summary_lines().join("\n  ")
            );
            if pb.is_hidden() {
                eprintln!("{text}");
            } else {
                pb.println(text);
            }
        }
    };

    // Ending the workers drops their engine processes (kill_on_drop); on a normal end they
    // have already sent `quit`.
    for w in &workers {
        if outcome.is_err() {
            w.abort();
        }
    }
    for w in workers {
        let _ = w.await;
    }
    pb.finish_and_clear();
    finish_summary(
        &mut summary,
        &tally,
        sprt.as_ref(),
        started,
        overhead_ns,
        overhead_write_ns,
    );
    match outcome {
        Ok(()) => Ok(summary),
        Err(e) => Err(ArenaError::Stopped {
            done: summary.done,
            planned: summary.planned,
            dir: out_dir.to_path_buf(),
            reason: Box::new(e),
        }),
    }
}

/// The plan, minus the games already stored; tallies (and the SPRT) fed with those.
fn resume(config: &MatchConfig, players: &[Player], book: &Book, store: &Store) -> Resumed {
    let plan = schedule::plan(config, book);
    let names: Vec<String> = players.iter().map(|p| p.spec.name.clone()).collect();
    let pair_names: Vec<(String, String)> = config
        .pairings()
        .into_iter()
        .map(|(a, b)| (names[a].clone(), names[b].clone()))
        .collect();
    let mut tally = MatchTally::new(&names[0], &pair_names);
    let mut sprt = SprtTracker::new(config, &names);
    let planned_ids: HashSet<u64> = plan.iter().map(|s| s.game_id).collect();
    for r in &store.records {
        if planned_ids.contains(&r.game_id) {
            tally.add(r);
            if let Some(t) = sprt.as_mut() {
                t.add(r);
            }
        }
    }
    let pending = plan
        .iter()
        .filter(|s| !store.done.contains(&s.game_id))
        .map(|s| GameJob {
            game_id: s.game_id,
            pair_id: s.pair_id,
            round: s.round,
            white: s.white,
            black: s.black,
            opening: book.openings[s.opening].clone(),
            seed: s.seed,
        })
        .collect();
    Resumed {
        planned: plan.len(),
        pending,
        tally,
        sprt,
    }
}

fn finish_summary(
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

fn progress_bar(show: bool, len: usize) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:25}] {pos}/{len} games, {msg}, ETA {eta}",
        )
        .expect("static template")
        .progress_chars("=> "),
    );
    pb
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

/// Ctrl-C (SIGINT) and SIGTERM, when the run handles signals. The listeners live for the
/// whole run, so a signal that arrives while a game is being stored is not lost.
struct StopSignals {
    listeners: Option<(Signal, Signal)>,
}

impl StopSignals {
    fn install(handle: bool) -> Result<StopSignals> {
        if !handle {
            return Ok(StopSignals { listeners: None });
        }
        let listen = |kind: SignalKind, what: &str| {
            signal(kind)
                .map_err(|e| ArenaError::Other(format!("cannot install the {what} handler: {e}")))
        };
        Ok(StopSignals {
            listeners: Some((
                listen(SignalKind::interrupt(), "Ctrl-C")?,
                listen(SignalKind::terminate(), "SIGTERM")?,
            )),
        })
    }

    /// Waits for a signal: `interrupted` (Ctrl-C) or `terminated` (SIGTERM).
    async fn wait(&mut self) -> &'static str {
        let Some((int, term)) = self.listeners.as_mut() else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = int.recv() => "interrupted",
            _ = term.recv() => "terminated",
        }
    }
}

struct WorkerContext {
    players: Vec<Player>,
    adjudication: AdjudicationConfig,
    timeouts: Timeouts,
    queue: Mutex<VecDeque<GameJob>>,
    slots: Option<Arc<Semaphore>>,
}

/// Takes games from the queue until it is empty; keeps one process per engine it has met.
/// With shared slots, each game waits for one and holds it while it plays.
async fn worker(ctx: Arc<WorkerContext>, tx: mpsc::UnboundedSender<(GameJob, FinishedGame)>) {
    let mut engines: Vec<Option<UciEngine>> = (0..ctx.players.len()).map(|_| None).collect();
    loop {
        let _slot = match &ctx.slots {
            Some(s) => match s.clone().acquire_owned().await {
                Ok(p) => Some(p),
                Err(_) => break,
            },
            None => None,
        };
        let Some(job) = ctx.queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let (w, b) = two_mut(&mut engines, job.white, job.black);
        let finished = game::play(
            &job,
            [&ctx.players[job.white], &ctx.players[job.black]],
            [w, b],
            &ctx.adjudication,
            &ctx.timeouts,
        )
        .await;
        if tx.send((job, finished)).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit().await;
    }
}

pub(super) fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine cannot play itself");
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}

pub(super) fn make_record(
    cfg: &MatchConfig,
    players: &[Player],
    job: &GameJob,
    d: &FinishedGame,
) -> GameRecord {
    let settings = |i: usize| cfg.engines[i].settings_string().unwrap_or_default();
    GameRecord {
        game_id: job.game_id,
        pair_id: job.pair_id,
        round: job.round,
        white: players[job.white].spec.name.clone(),
        black: players[job.black].spec.name.clone(),
        white_settings: settings(job.white),
        black_settings: settings(job.black),
        opening_id: job.opening.id,
        opening_fen: d.start_fen.clone(),
        result: d.result.as_str().to_string(),
        termination: d.termination.as_str().to_string(),
        plies: d.moves.len() as u32,
        seconds: (d.seconds * 1000.0).round() / 1000.0,
        seed: job.seed,
        white_depth: d.pace[0].depth(),
        black_depth: d.pace[1].depth(),
        white_nodes: d.pace[0].nodes(),
        black_nodes: d.pace[1].nodes(),
    }
}
