//! Evaluates many positions with N engine processes in parallel: positions are deduplicated by
//! key, cached answers are not asked again, each worker thread owns one process and takes the
//! next position from a shared queue; the main thread appends every answer to the cache as it
//! arrives and shows progress with an ETA.

use std::collections::{BTreeMap, HashMap};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressStyle};

use super::cache::EvalCache;
use super::engine::{EngineConfig, Eval, UciEngine};
use super::error::{AnalysisError, Result};

/// Answers by position key, and how many the engine had to compute.
pub struct Evaluated {
    pub evals: HashMap<String, Eval>,
    pub engine_evaluations: usize,
}

/// Evaluates every position in `positions` (key -> full FEN) with `cfg`, using and filling
/// `cache`; `concurrency` engine processes at most.
pub fn evaluate_all(
    cfg: &EngineConfig,
    positions: &BTreeMap<String, String>,
    concurrency: usize,
    cache: &mut EvalCache,
    label: &str,
    quiet: bool,
) -> Result<Evaluated> {
    let identity = cfg.identity();
    let limit = cfg.limit.to_string();
    let mut evals = HashMap::new();
    let mut todo: Vec<(String, String)> = Vec::new();
    for (key, fen) in positions {
        match cache.get(key, &identity, &limit) {
            Some(e) => {
                evals.insert(key.clone(), e.clone());
            }
            None => todo.push((key.clone(), fen.clone())),
        }
    }
    let total = todo.len();
    if total == 0 {
        return Ok(Evaluated {
            evals,
            engine_evaluations: 0,
        });
    }
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
    todo.reverse();
    let queue = Arc::new(Mutex::new(todo));
    let (tx, rx) = mpsc::channel::<Result<(String, Eval)>>();
    let workers = concurrency.max(1).min(total);
    let mut handles = Vec::new();
    for _ in 0..workers {
        let queue = Arc::clone(&queue);
        let tx = tx.clone();
        let cfg = cfg.clone();
        handles.push(std::thread::spawn(move || {
            let mut engine = match UciEngine::start(&cfg) {
                Ok(e) => e,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            loop {
                let job = queue.lock().expect("queue").pop();
                let Some((key, fen)) = job else { break };
                let res = engine.evaluate(&fen).map(|e| (key, e));
                let failed = res.is_err();
                if tx.send(res).is_err() || failed {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let mut done = 0usize;
    let mut error = None;
    for msg in rx {
        match msg {
            Ok((key, eval)) => {
                cache.insert(&key, &identity, &limit, eval.clone())?;
                evals.insert(key, eval);
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
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(e.context(format!(
            "evaluation stopped after {done} of {total} positions (kept in the cache)"
        )));
    }
    Ok(Evaluated {
        evals,
        engine_evaluations: done,
    })
}
