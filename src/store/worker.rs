//! `skillcal worker`: a stateless pull worker. Each of its slots claims a unit, plays it with
//! this machine's engines through the arena's game loop, and stores the unit's games and its
//! completion in one transaction; a heartbeat keeps its leases alive. A unit it cannot play
//! (an engine missing here) is refused with the reason and left to other workers. It exits
//! after `idle_exit` without work, or on SIGTERM / Ctrl-C (its units go back to the queue).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::signal::unix::{signal, SignalKind};
use tokio::time::Instant;

use super::db::Db;
use super::error::{Result, StoreError};
use super::queue::{self, Claimed};
use super::schema;
use crate::arena::{RunOptions, UnitPlayer};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    pub url: String,
    /// Units played at once.
    pub slots: usize,
    /// Exit after this long without a unit to play (None: wait for work forever).
    pub idle_exit: Option<Duration>,
    /// A unit's lease; the heartbeat renews it every third of it.
    pub lease: Duration,
    /// How long to keep trying to reach a lost server.
    pub reconnect: Duration,
    /// The `skillcal` binary for built-in engines (default: this one).
    pub skillcal_bin: Option<PathBuf>,
}

/// What a worker did.
#[derive(Clone, Debug, Default)]
pub struct WorkerSummary {
    pub id: String,
    pub units: usize,
    pub games: usize,
    pub refused: usize,
}

struct Shared {
    id: String,
    opts: WorkerOptions,
    /// Units this worker holds now (the heartbeat renews their leases).
    held: Mutex<HashSet<i64>>,
    /// Units this worker refused: never claimed again by it.
    refused: Mutex<Vec<i64>>,
    summary: Mutex<WorkerSummary>,
}

/// Runs a worker until it is idle for `idle_exit` or stopped by a signal (blocking).
pub fn run_worker(opts: &WorkerOptions) -> Result<WorkerSummary> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| StoreError::Other(format!("cannot start the tokio runtime: {e}")))?;
    rt.block_on(worker(opts.clone()))
}

async fn worker(opts: WorkerOptions) -> Result<WorkerSummary> {
    let host = crate::arena::hostname();
    let id = format!("{host}:{}", std::process::id());
    let mut db = Db::connect(&opts.url).await?;
    db.set_reconnect(opts.reconnect);
    schema::check(&mut db).await?;
    let slots = opts.slots.max(1);
    queue::heartbeat(&mut db, &id, &host, slots as i32, &[], opts.lease).await?;
    let shared = Arc::new(Shared {
        id: id.clone(),
        opts,
        held: Mutex::new(HashSet::new()),
        refused: Mutex::new(Vec::new()),
        summary: Mutex::new(WorkerSummary {
            id: id.clone(),
            ..Default::default()
        }),
    });
    let beat = tokio::spawn(heartbeats(shared.clone(), db, host));
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..slots {
        set.spawn(slot(shared.clone()));
    }
    let mut term = signal(SignalKind::terminate())
        .map_err(|e| StoreError::Other(format!("cannot install the SIGTERM handler: {e}")))?;
    let mut int = signal(SignalKind::interrupt())
        .map_err(|e| StoreError::Other(format!("cannot install the Ctrl-C handler: {e}")))?;
    let mut outcome: Result<()> = Ok(());
    loop {
        tokio::select! {
            joined = set.join_next() => match joined {
                None => break,
                Some(Ok(Err(e))) => { outcome = Err(e); set.abort_all(); }
                Some(_) => {}
            },
            _ = term.recv() => { outcome = Err(StoreError::Other("terminated".into())); set.abort_all(); }
            _ = int.recv() => { outcome = Err(StoreError::Other("interrupted".into())); set.abort_all(); }
        }
    }
    beat.abort();
    // the aborted slots' engines are gone (killed on drop); their units go back at once
    // rather than when their leases expire
    let mut db = Db::connect(&shared.opts.url).await?;
    db.set_reconnect(shared.opts.reconnect);
    queue::release(&mut db, &id).await?;
    outcome?;
    let summary = shared.summary.lock().expect("summary lock").clone();
    Ok(summary)
}

/// Renews the leases of the units held, every third of a lease.
async fn heartbeats(shared: Arc<Shared>, mut db: Db, host: String) -> Result<()> {
    let every = shared.opts.lease / 3;
    loop {
        tokio::time::sleep(every).await;
        let held: Vec<i64> = shared
            .held
            .lock()
            .expect("held lock")
            .iter()
            .copied()
            .collect();
        let slots = shared.opts.slots as i32;
        if let Err(e) =
            queue::heartbeat(&mut db, &shared.id, &host, slots, &held, shared.opts.lease).await
        {
            // a missed beat is retried at the next; a lease lost meanwhile only costs a replay
            eprintln!("worker {}: heartbeat failed: {e}", shared.id);
        }
    }
}

/// One slot: claims and plays units until idle for `idle_exit`. Keeps the engine processes
/// of the last engine pair between units.
async fn slot(shared: Arc<Shared>) -> Result<()> {
    let mut db = Db::connect(&shared.opts.url).await?;
    db.set_reconnect(shared.opts.reconnect);
    let mut player: Option<(String, UnitPlayer)> = None;
    let mut idle_since = Instant::now();
    let run_opts = RunOptions {
        skillcal_bin: shared.opts.skillcal_bin.clone(),
        handle_signals: false,
        ..Default::default()
    };
    loop {
        let skip = shared.refused.lock().expect("refused lock").clone();
        let Some(claimed) = queue::claim(&mut db, &shared.id, shared.opts.lease, &skip).await?
        else {
            if shared
                .opts
                .idle_exit
                .is_some_and(|d| idle_since.elapsed() >= d)
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        shared.held.lock().expect("held lock").insert(claimed.id);
        let played = play(&claimed, &mut player, &run_opts).await;
        let stored = match played {
            Ok(games) => queue::complete(&mut db, &shared.id, &claimed, &games)
                .await
                .map(|ok| ok.then_some(games.len())),
            Err(reason) => {
                let reason = format!("worker {}: {reason}", shared.id);
                eprintln!("{reason}");
                shared
                    .refused
                    .lock()
                    .expect("refused lock")
                    .push(claimed.id);
                shared.summary.lock().expect("summary lock").refused += 1;
                queue::refuse(&mut db, &shared.id, claimed.id, &reason)
                    .await
                    .map(|_| None)
            }
        };
        shared.held.lock().expect("held lock").remove(&claimed.id);
        if let Some(n) = stored? {
            let mut s = shared.summary.lock().expect("summary lock");
            s.units += 1;
            s.games += n;
        }
        idle_since = Instant::now();
    }
    if let Some((_, p)) = player {
        p.quit().await;
    }
    Ok(())
}

/// Plays a claimed unit, reusing the engine processes when its pair is the last one's.
async fn play(
    claimed: &Claimed,
    player: &mut Option<(String, UnitPlayer)>,
    run_opts: &RunOptions,
) -> std::result::Result<Vec<crate::arena::PlayedGame>, String> {
    if player
        .as_ref()
        .is_none_or(|(spec, _)| *spec != claimed.spec_text)
    {
        if let Some((_, old)) = player.take() {
            old.quit().await;
        }
        let p = UnitPlayer::new(&claimed.unit.spec, run_opts)
            .await
            .map_err(|e| e.to_string())?;
        *player = Some((claimed.spec_text.clone(), p));
    }
    let (_, p) = player.as_mut().expect("set above");
    let games = p.play(&claimed.unit).await;
    if games.is_err() {
        // an engine that would not start: the next unit starts afresh
        *player = None;
    }
    games
}
