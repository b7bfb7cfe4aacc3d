//! Evaluates positions with N engine processes in parallel. Work comes in jobs: a job is one
//! `ucinewgame` followed by its positions searched in order by one process (a single position
//! when positions are searched on their own, a game's positions otherwise). Cached answers are
//! not asked again; each worker thread owns one process and takes the next job from a shared
//! queue; the main thread appends every answer to the cache as it arrives and shows progress
//! with an ETA.

use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use fnv::FnvHasher;
use indicatif::{ProgressBar, ProgressStyle};

use super::cache::EvalCache;
use super::engine::{AnalysisEngine, EngineProcess, Eval};
use crate::analysis::error::{AnalysisError, Result};

/// One position of a job: its key, the FEN sent, and its line (the cache's name for what the
/// process searched before it in the same job; empty for a job of one position).
#[derive(Clone)]
struct Item {
    key: String,
    fen: String,
    line: String,
}

/// The line of each position of a sequence searched in order after one `ucinewgame`: an FNV-1a
/// digest (stable across builds and platforms) of the keys before it, so equal game prefixes
/// share their answers and nothing else does. Never empty, unlike a position searched alone.
pub fn line_digest<'a>(keys: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut h = FnvHasher::default();
    let mut out = Vec::new();
    for key in keys {
        out.push(format!("{:016x}", h.finish()));
        h.write(key.as_bytes());
        h.write_u8(b'\n');
    }
    out
}

/// Evaluates each game's positions (key, full FEN; in the order played) in order in one
/// process after one `ucinewgame`, the way a person's analysis board does it: the hash table
/// carries from a position to the next, and the clearing, which costs about a quarter of a
/// 20,000-node search here (docs/analysis.md), happens once a game. A position repeated within
/// a game is searched once, the first time. An answer depends on the game's positions up to
/// it, so it replays whichever process gets the game, and a game is taken from the cache only
/// when all its answers are there. Returns each game's answers by key, and how many searches
/// the engine did.
pub fn evaluate_games(
    cfg: &AnalysisEngine,
    games: &[Vec<(String, String)>],
    concurrency: usize,
    cache: &mut EvalCache,
    label: &str,
    quiet: bool,
) -> Result<(Vec<HashMap<String, Eval>>, usize)> {
    let jobs: Vec<Vec<Item>> = games
        .iter()
        .map(|positions| {
            let mut seen = std::collections::HashSet::new();
            let distinct: Vec<&(String, String)> =
                positions.iter().filter(|(k, _)| seen.insert(k)).collect();
            let lines = line_digest(distinct.iter().map(|(k, _)| k.as_str()));
            distinct
                .into_iter()
                .zip(lines)
                .map(|((key, fen), line)| Item {
                    key: key.clone(),
                    fen: fen.clone(),
                    line,
                })
                .collect()
        })
        .collect();
    run_jobs(
        cfg,
        jobs,
        concurrency,
        Some(cache),
        Progress::Own { label, quiet },
    )
}

/// Searches each of `positions` (key, full FEN) on its own (after `ucinewgame`) with `cfg`,
/// without a cache, `concurrency` processes at most; `bar` advances by one a search. Answers
/// by key.
pub fn search_each(
    cfg: &AnalysisEngine,
    positions: &[(String, String)],
    concurrency: usize,
    bar: &ProgressBar,
) -> Result<HashMap<String, Eval>> {
    let jobs: Vec<Vec<Item>> = positions
        .iter()
        .map(|(key, fen)| {
            vec![Item {
                key: key.clone(),
                fen: fen.clone(),
                line: String::new(),
            }]
        })
        .collect();
    let (answers, _) = run_jobs(cfg, jobs, concurrency, None, Progress::Shared(bar))?;
    Ok(answers.into_iter().flatten().collect())
}

/// Where a run of jobs shows its progress.
enum Progress<'a> {
    /// A bar of its own (none when quiet).
    Own { label: &'a str, quiet: bool },
    /// The caller's bar.
    Shared(&'a ProgressBar),
}

/// A bar of its own over `total` positions (hidden when quiet).
fn positions_bar(label: &str, quiet: bool, total: usize) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} positions, ETA {eta}")
            .expect("template")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    bar
}

/// Runs the jobs not wholly in the cache (every job without one); every job's answers by key,
/// and the searches done.
fn run_jobs(
    cfg: &AnalysisEngine,
    jobs: Vec<Vec<Item>>,
    concurrency: usize,
    mut cache: Option<&mut EvalCache>,
    progress: Progress,
) -> Result<(Vec<HashMap<String, Eval>>, usize)> {
    let identity = cfg.identity();
    let limit = cfg.limit.to_string();
    let mut answers: Vec<HashMap<String, Eval>> = vec![HashMap::new(); jobs.len()];
    let mut todo: Vec<(usize, Vec<Item>)> = Vec::new();
    for (j, items) in jobs.into_iter().enumerate() {
        let cached: Option<HashMap<String, Eval>> = items
            .iter()
            .map(|it| {
                cache
                    .as_ref()?
                    .get_in_line(&it.key, &it.line, &identity, &limit)
                    .map(|e| (it.key.clone(), e.clone()))
            })
            .collect();
        match cached {
            Some(found) => answers[j] = found,
            None => todo.push((j, items)),
        }
    }
    let total: usize = todo.iter().map(|(_, items)| items.len()).sum();
    if total == 0 {
        return Ok((answers, 0));
    }
    let shared = matches!(progress, Progress::Shared(_));
    let own;
    let bar = match progress {
        Progress::Shared(bar) => bar,
        Progress::Own { label, quiet } => {
            own = positions_bar(label, quiet, total);
            &own
        }
    };
    let workers = concurrency.max(1).min(todo.len());
    todo.reverse();
    let queue = Arc::new(Mutex::new(todo));
    let (tx, rx) = mpsc::channel::<Result<(usize, Item, Eval)>>();
    let mut handles = Vec::new();
    for _ in 0..workers {
        let queue = Arc::clone(&queue);
        let tx = tx.clone();
        let cfg = cfg.clone();
        handles.push(std::thread::spawn(move || {
            let mut engine = match EngineProcess::start(&cfg) {
                Ok(e) => e,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            loop {
                let job = queue.lock().expect("queue").pop();
                let Some((j, items)) = job else { break };
                if let Err(e) = engine.new_game() {
                    let _ = tx.send(Err(e));
                    break;
                }
                for it in items {
                    let res = engine.search(&it.fen).map(|e| (j, it, e));
                    let failed = res.is_err();
                    if tx.send(res).is_err() || failed {
                        return;
                    }
                }
            }
        }));
    }
    drop(tx);
    let mut done = 0usize;
    let mut error = None;
    for msg in rx {
        match msg {
            Ok((j, it, eval)) => {
                if let Some(cache) = cache.as_mut() {
                    if cache
                        .get_in_line(&it.key, &it.line, &identity, &limit)
                        .is_none()
                    {
                        cache.insert_in_line(&it.key, &it.line, &identity, &limit, eval.clone())?;
                    }
                }
                answers[j].insert(it.key, eval);
                done += 1;
                bar.inc(1);
            }
            Err(e) => {
                // Stop handing out work; finished answers are already in the cache.
                queue.lock().expect("queue").clear();
                error.get_or_insert(e);
            }
        }
    }
    for h in handles {
        h.join()
            .map_err(|_| AnalysisError::Other("an engine worker panicked".into()))?;
    }
    if !shared {
        bar.finish_and_clear();
    }
    if let Some(e) = error {
        return Err(e.context(format!(
            "evaluation stopped after {done} of {total} positions (kept in the cache)"
        )));
    }
    Ok((answers, done))
}
