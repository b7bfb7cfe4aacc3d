//! The match driver: plans the games, locks and opens the run directory, checks the engines
//! once, plays the pending games on `concurrency` workers, stores each finished game, shows
//! progress and stops cleanly on signals (fastchess's `matchmaking/tournament`).

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::signal::unix::{signal, Signal, SignalKind};
use tokio::sync::{mpsc, Semaphore};
use tokio::time::Instant;

use super::collect::{finish_summary, Collector};
use super::config::{AdjudicationConfig, MatchConfig, Timeouts};
use super::error::{ArenaError, Context, IoContext, Result};
use super::game::{self, GameJob};
use super::game_files::GameFiles;
use super::lock::RunLock;
use super::openings::{self, Book};
use super::outcome::FinishedGame;
use super::players::{preflight, resolve_players, Player};
use super::run_options::RunOptions;
use super::schedule;
use super::snapshot::check_snapshot;
use super::sprt::SprtTracker;
use super::stats::MatchTally;
use super::summary::MatchSummary;
use super::sweep::SweepTracker;
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
    /// Unplayed games of pairings a sweep has stopped.
    stopped: usize,
    pending: VecDeque<GameJob>,
    tally: MatchTally,
    sprt: Option<SprtTracker>,
    sweep: Option<SweepTracker>,
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
    let store = GameFiles::open(out_dir)?;
    let Resumed {
        planned,
        stopped,
        pending,
        tally,
        sprt,
        sweep,
    } = resume(config, &players, &book, &store);
    let already = planned - pending.len() - stopped;
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

    let mut stop = StopSignals::install(opts.handle_signals)?;
    let mut collect = Collector::new(config, opts, store, (tally, sprt, sweep), summary, pb);
    let outcome: Result<()> = loop {
        let msg = tokio::select! {
            m = rx.recv() => m,
            why = stop.wait() => break Err(ArenaError::Other(why.into())),
        };
        let Some((job, finished)) = msg else {
            break Ok(());
        };
        if let Err(e) = collect.add(&ctx.players, &ctx.queue, &job, &finished) {
            break Err(e);
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
    let summary = collect.finish(started);
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

/// The plan, minus the games already stored and those of pairings a sweep has stopped; tallies
/// (and the SPRT and the sweep rule) fed with the stored games.
fn resume(config: &MatchConfig, players: &[Player], book: &Book, store: &GameFiles) -> Resumed {
    let plan = schedule::plan(config, book);
    let names: Vec<String> = players.iter().map(|p| p.spec.name.clone()).collect();
    let pair_names: Vec<(String, String)> = config
        .pairings()
        .into_iter()
        .map(|(a, b)| (names[a].clone(), names[b].clone()))
        .collect();
    let mut tally = MatchTally::new(&names[0], &pair_names);
    let mut sprt = SprtTracker::new(config, &names);
    let mut sweep = SweepTracker::new(config.stop_after_sweep);
    let planned_ids: HashSet<u64> = plan.iter().map(|s| s.game_id).collect();
    for r in &store.records {
        if planned_ids.contains(&r.game_id) {
            tally.add(r);
            if let Some(t) = sprt.as_mut() {
                t.add(r);
            }
            if let Some(t) = sweep.as_mut() {
                t.add(r);
            }
        }
    }
    let stopped = |s: &schedule::Slot| {
        sweep
            .as_ref()
            .is_some_and(|t| t.swept(&names[s.white], &names[s.black]))
    };
    let unplayed = |s: &&schedule::Slot| !store.done.contains(&s.game_id);
    let stopped_games = plan.iter().filter(unplayed).filter(|s| stopped(s)).count();
    let pending = plan
        .iter()
        .filter(unplayed)
        .filter(|s| !stopped(s))
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
        stopped: stopped_games,
        pending,
        tally,
        sprt,
        sweep,
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
