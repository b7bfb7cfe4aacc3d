//! Running a match: resolve engines, check them once, schedule the pending games on
//! `concurrency` workers, store each finished game, show progress, stop cleanly on signals.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::config::MatchConfig;
use super::engine::{EngineProcess, EngineSpec};
use super::game::{self, GameJob, GameRecordDraft, Player};
use super::openings;
use super::schedule;
use super::stats::{PairingStats, Tally};
use super::store::{format_pgn, GameRecord, PgnGame, Store};
use crate::rating::{Pentanomial, Sprt, SprtResult, SprtState};

/// How a run behaves (what the config does not say).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Show an indicatif progress bar (on stderr, only when it is a terminal).
    pub progress: bool,
    /// Print the W-D-L / Elo summary every `summary_every` games (to the bar or stderr).
    pub summaries: bool,
    /// Stop on Ctrl-C / SIGTERM: end all engines, keep finished games, return an error.
    pub handle_signals: bool,
    /// The `skillcal` binary for `builtin` engines (overrides config and $SKILLCAL_BIN).
    pub skillcal_bin: Option<PathBuf>,
    /// Where the opening book was named (a config file or a flag), for errors about the book.
    pub book_source: Option<String>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            progress: false,
            summaries: false,
            handle_signals: true,
            skillcal_bin: None,
            book_source: None,
        }
    }
}

/// What a run leaves: counts, per-pairing W-D-L with Elo, terminations, arena overhead.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MatchSummary {
    pub out_dir: PathBuf,
    /// Games in the plan.
    pub planned: usize,
    /// Planned games now in games.csv (== planned when the match is complete).
    pub done: usize,
    /// Games played by this call.
    pub played: usize,
    pub pairs: Vec<PairingStats>,
    pub terminations: BTreeMap<String, u32>,
    /// Mean time from receiving `bestmove` to having sent the next `go`, microseconds, over
    /// the moves of this call.
    pub overhead_us: Option<f64>,
    /// The part of `overhead_us` spent inside the pipe write of `position` + `go` (on a busy
    /// machine mostly the arena waiting for a CPU after waking the engine).
    pub overhead_write_us: Option<f64>,
    pub overhead_moves: u64,
    pub seconds: f64,
    /// The sequential test, when the match has `[sprt]`.
    pub sprt: Option<SprtStatus>,
}

/// Where the match's SPRT stands.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SprtStatus {
    pub elo0: f64,
    pub elo1: f64,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// `H1 accepted`, `H0 accepted` or `continuing`.
    pub decision: String,
    /// Pentanomial counts of the complete opening pairs, the first engine's points 0..2.
    pub pentanomial: [u64; 5],
}

/// The running SPRT of a match with `[sprt]`: the first engine's points in each opening pair.
struct SprtTracker {
    test: Sprt,
    first: String,
    second: String,
    /// The first game of each pair whose second game has not finished yet.
    halves: HashMap<u64, f64>,
    penta: Pentanomial,
}

impl SprtTracker {
    fn new(cfg: &MatchConfig, names: &[String]) -> Option<SprtTracker> {
        let t = cfg.sprt.as_ref()?;
        Some(SprtTracker {
            test: Sprt::new(t.elo0, t.elo1, t.alpha, t.beta, t.model),
            first: names[0].clone(),
            second: names[1].clone(),
            halves: HashMap::new(),
            penta: Pentanomial::default(),
        })
    }

    fn add(&mut self, r: &GameRecord) {
        let (Some(p), Some(_)) = (r.score_for(&self.first), r.score_for(&self.second)) else {
            return;
        };
        match self.halves.remove(&r.pair_id) {
            Some(q) => self.penta.add_pair(q, p),
            None => {
                self.halves.insert(r.pair_id, p);
            }
        }
    }

    fn result(&self) -> SprtResult {
        self.test.test(&self.penta.counts)
    }

    fn status(&self) -> SprtStatus {
        let r = self.result();
        SprtStatus {
            elo0: self.test.elo0,
            elo1: self.test.elo1,
            llr: r.llr,
            lower_bound: r.lower_bound,
            upper_bound: r.upper_bound,
            decision: match r.state {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "continuing",
            }
            .into(),
            pentanomial: self.penta.counts,
        }
    }
}

impl MatchSummary {
    pub fn lines(&self) -> Vec<String> {
        let mut v = vec![format!(
            "{}: {}/{} games done ({} played now, {:.1}s)",
            self.out_dir.display(),
            self.done,
            self.planned,
            self.played,
            self.seconds
        )];
        v.extend(
            self.pairs
                .iter()
                .filter(|p| p.games() > 0)
                .map(|p| p.describe()),
        );
        let t: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        v.push(format!("terminations: {}", t.join(", ")));
        if let Some(t) = &self.sprt {
            v.push(format!(
                "SPRT elo0 {} elo1 {}: LLR {:.2} ({:.2}, {:.2}), {} after {} pairs, pentanomial {:?}",
                t.elo0,
                t.elo1,
                t.llr,
                t.lower_bound,
                t.upper_bound,
                t.decision,
                t.pentanomial.iter().sum::<u64>(),
                t.pentanomial
            ));
        }
        if let Some(us) = self.overhead_us {
            v.push(format!(
                "arena overhead: {us:.1} us per move (bestmove received -> next go sent, mean of {} moves; {:.1} us of it inside the pipe write)",
                self.overhead_moves,
                self.overhead_write_us.unwrap_or(0.0)
            ));
        }
        v
    }
}

/// Blocking entry point: builds its own tokio runtime. Do not call from inside a runtime.
pub fn run_match(
    config: &MatchConfig,
    out_dir: &Path,
    opts: &RunOptions,
) -> anyhow::Result<MatchSummary> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    rt.block_on(run_match_async(config, out_dir, opts))
}

/// Runs (or resumes) the match into `out_dir`.
pub async fn run_match_async(
    config: &MatchConfig,
    out_dir: &Path,
    opts: &RunOptions,
) -> anyhow::Result<MatchSummary> {
    let started = Instant::now();
    config.validate()?;
    let players = resolve_players(config, opts)?;
    let book = match &opts.book_source {
        Some(from) => openings::load(&config.openings).with_context(|| from.clone())?,
        None => openings::load(&config.openings)?,
    };
    let plan = schedule::plan(config, &book);
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create output directory {}", out_dir.display()))?;
    check_snapshot(out_dir, config)?;
    let mut store = Store::open(out_dir)?;

    let names: Vec<String> = players.iter().map(|p| p.spec.name.clone()).collect();
    let pair_names: Vec<(String, String)> = schedule::pairings(config)
        .into_iter()
        .map(|(a, b)| (names[a].clone(), names[b].clone()))
        .collect();
    let mut tally = Tally::new(&names[0], &pair_names);
    let mut sprt = SprtTracker::new(config, &names);
    let planned_ids: std::collections::HashSet<u64> = plan.iter().map(|s| s.game_id).collect();
    for r in &store.records {
        if planned_ids.contains(&r.game_id) {
            tally.add(r);
            if let Some(t) = sprt.as_mut() {
                t.add(r);
            }
        }
    }
    // a match the test has already decided plays nothing more
    let decided = sprt
        .as_ref()
        .is_some_and(|t| t.result().state != SprtState::Continue);
    let pending: VecDeque<GameJob> = plan
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
    let already = plan.len() - pending.len();

    let mut summary = MatchSummary {
        out_dir: out_dir.to_path_buf(),
        planned: plan.len(),
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
    if pending.is_empty() || decided {
        summary.pairs = tally.pairs.clone();
        summary.terminations = tally.terminations.clone();
        summary.sprt = sprt.as_ref().map(SprtTracker::status);
        summary.seconds = started.elapsed().as_secs_f64();
        return Ok(summary);
    }
    preflight(config, &players).await?;

    let pb = if opts.progress {
        let pb =
            ProgressBar::with_draw_target(Some(plan.len() as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:25}] {pos}/{len} games, {msg}, ETA {eta}",
            )
            .expect("static template")
            .progress_chars("=> "),
        );
        pb
    } else {
        ProgressBar::hidden()
    };
    pb.set_position(already as u64);
    pb.reset_eta();
    pb.set_message(tally.progress_message());

    let ctx = Arc::new(WorkerContext {
        players,
        adjudication: config.adjudication.clone(),
        timeouts: config.timeouts.clone(),
        queue: Mutex::new(pending),
    });
    let (tx, mut rx) = mpsc::unbounded_channel::<(GameJob, GameRecordDraft)>();
    let workers: Vec<_> = (0..config.concurrency)
        .map(|_| tokio::spawn(worker(ctx.clone(), tx.clone())))
        .collect();
    drop(tx);

    let date = today();
    let site = hostname();
    let mut start_failures: HashMap<usize, u32> = HashMap::new();
    let mut overhead_ns: u128 = 0;
    let mut overhead_write_ns: u128 = 0;
    let mut sigterm = if opts.handle_signals {
        Some(
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .context("cannot install the SIGTERM handler")?,
        )
    } else {
        None
    };
    let ctrl_c = async {
        if opts.handle_signals {
            let _ = tokio::signal::ctrl_c().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::pin!(ctrl_c);

    let outcome: anyhow::Result<()> = loop {
        let term = async {
            match sigterm.as_mut() {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        let msg = tokio::select! {
            m = rx.recv() => m,
            _ = &mut ctrl_c => break Err(anyhow::anyhow!("interrupted")),
            _ = term => break Err(anyhow::anyhow!("terminated")),
        };
        let Some((job, draft)) = msg else {
            break Ok(());
        };
        let record = make_record(config, &ctx.players, &job, &draft);
        let root_fen = job.opening.root_fen.clone();
        let tc = ctx.players[job.white].limits.pgn_time_control();
        let tcb = ctx.players[job.black].limits.pgn_time_control();
        let tc = if tc == tcb { tc } else { format!("{tc}:{tcb}") };
        let pgn = format_pgn(&PgnGame {
            event: &config.event,
            site: &site,
            date: &date,
            record: &record,
            root_fen: &root_fen,
            time_control: &tc,
            draft: &draft,
        });
        if let Err(e) = store.append(&pgn, &record) {
            break Err(e);
        }
        tally.add(&record);
        let mut progress = tally.progress_message();
        if let Some(t) = sprt.as_mut() {
            t.add(&record);
            let r = t.result();
            if r.state != SprtState::Continue {
                // no new games; the ones under way finish and are kept
                ctx.queue.lock().expect("queue lock").clear();
            }
            progress.push_str(&format!(", LLR {:.2}", r.llr));
        }
        summary.played += 1;
        summary.done += 1;
        overhead_ns += draft.overhead_ns;
        overhead_write_ns += draft.overhead_write_ns;
        summary.overhead_moves += draft.overhead_count;
        pb.inc(1);
        pb.set_message(progress);

        if draft.failed_at_start {
            let who = match draft.faulty {
                Some(shakmaty::Color::White) => job.white,
                _ => job.black,
            };
            let n = start_failures.entry(who).or_default();
            *n += 1;
            if *n >= 3 {
                break Err(anyhow::anyhow!(
                    "engine {} failed to start 3 times in a row (last: {}); stopping",
                    ctx.players[who].spec.name,
                    draft.detail
                ));
            }
        } else {
            start_failures.remove(&job.white);
            start_failures.remove(&job.black);
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
    summary.pairs = tally.pairs.clone();
    summary.terminations = tally.terminations.clone();
    summary.sprt = sprt.as_ref().map(SprtTracker::status);
    summary.seconds = started.elapsed().as_secs_f64();
    if summary.overhead_moves > 0 {
        let per_move_us = |ns: u128| ns as f64 / summary.overhead_moves as f64 / 1000.0;
        summary.overhead_us = Some(per_move_us(overhead_ns));
        summary.overhead_write_us = Some(per_move_us(overhead_write_ns));
    }
    match outcome {
        Ok(()) => Ok(summary),
        Err(e) => Err(e.context(format!(
            "match stopped with {}/{} games in {}; run the same command again to resume",
            summary.done,
            summary.planned,
            out_dir.display()
        ))),
    }
}

struct WorkerContext {
    players: Vec<Player>,
    adjudication: super::config::AdjudicationConfig,
    timeouts: super::config::Timeouts,
    queue: Mutex<VecDeque<GameJob>>,
}

/// Takes games from the queue until it is empty; keeps one process per engine it has met.
async fn worker(ctx: Arc<WorkerContext>, tx: mpsc::UnboundedSender<(GameJob, GameRecordDraft)>) {
    let mut engines: Vec<Option<EngineProcess>> = (0..ctx.players.len()).map(|_| None).collect();
    loop {
        let Some(job) = ctx.queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let (w, b) = two_mut(&mut engines, job.white, job.black);
        let draft = game::play(
            &job,
            [&ctx.players[job.white], &ctx.players[job.black]],
            [w, b],
            &ctx.adjudication,
            &ctx.timeouts,
        )
        .await;
        if tx.send((job, draft)).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit().await;
    }
}

fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine cannot play itself");
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}

fn make_record(
    cfg: &MatchConfig,
    players: &[Player],
    job: &GameJob,
    d: &GameRecordDraft,
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
    }
}

/// Turns the config's engines into start specs and limits.
fn resolve_players(cfg: &MatchConfig, opts: &RunOptions) -> anyhow::Result<Vec<Player>> {
    let mut out = Vec::new();
    for (i, e) in cfg.engines.iter().enumerate() {
        let key = format!("engines[{i}]");
        let name = e.display_name()?;
        let (program, mut args) = if e.is_builtin() {
            (skillcal_bin(cfg, opts)?, vec!["uci".to_string()])
        } else {
            (
                find_program(&e.command).with_context(|| format!("{key}.command ({name})"))?,
                vec![],
            )
        };
        args.extend(e.args.iter().cloned());
        if let Some(d) = &e.dir {
            if !d.is_dir() {
                bail!("{key}.dir ({name}): {} is not a directory", d.display());
            }
        }
        let spec = EngineSpec {
            name,
            program,
            args,
            dir: e.dir.clone(),
            options: e.all_options()?,
            seed_option: e.seed_option.clone(),
        };
        out.push(Player::new(spec, cfg.engine_limits(i)).with_context(|| format!("{key}.limits"))?);
    }
    Ok(out)
}

/// The skillcal binary: RunOptions, config key `skillcal_bin`, $SKILLCAL_BIN, this executable
/// (from a test harness in `target/*/deps`, the `skillcal` beside `deps`).
pub fn skillcal_bin(cfg: &MatchConfig, opts: &RunOptions) -> anyhow::Result<PathBuf> {
    if let Some(p) = opts
        .skillcal_bin
        .clone()
        .or_else(|| cfg.skillcal_bin.clone())
    {
        return Ok(p);
    }
    if let Some(p) = std::env::var_os("SKILLCAL_BIN") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe()
        .context("cannot locate the skillcal executable; set SKILLCAL_BIN")?;
    let is_skillcal = exe
        .file_stem()
        .is_some_and(|s| s.to_string_lossy() == "skillcal");
    if !is_skillcal {
        if let Some(dir) = exe.parent().filter(|d| d.ends_with("deps")) {
            let cand = dir.parent().expect("deps has a parent").join("skillcal");
            if cand.exists() {
                return Ok(cand);
            }
        }
    }
    Ok(exe)
}

/// A command with a slash is a path; a bare name is looked up on PATH, then /usr/games.
fn find_program(cmd: &str) -> anyhow::Result<PathBuf> {
    let p = Path::new(cmd);
    if cmd.contains('/') {
        if p.is_file() {
            return Ok(p.to_path_buf());
        }
        bail!("'{cmd}' does not exist");
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    dirs.push("/usr/games".into());
    dirs.push("/usr/local/games".into());
    for d in dirs {
        let c = d.join(cmd);
        if c.is_file() {
            return Ok(c);
        }
    }
    bail!("'{cmd}' not found on PATH or in /usr/games")
}

/// Starts every engine once before the run: a wrong path, a dead engine or an unknown
/// option is a config error, not a string of forfeits.
async fn preflight(cfg: &MatchConfig, players: &[Player]) -> anyhow::Result<()> {
    let handshake = Duration::from_millis(cfg.timeouts.handshake_ms);
    for (i, p) in players.iter().enumerate() {
        let eng = EngineProcess::start(&p.spec, handshake)
            .await
            .map_err(|f| anyhow::anyhow!("engines[{i}]: {f}"))?;
        let unknown = eng.unknown_options();
        let offered = eng.offered.join(", ");
        eng.quit().await;
        if !unknown.is_empty() {
            bail!(
                "engines[{i}] ({}): unknown UCI option(s) {}; the engine offers: {offered}",
                p.spec.name,
                unknown.join(", ")
            );
        }
    }
    Ok(())
}

/// Keeps `match.toml` in the run directory; a rerun must describe the same games (more
/// rounds, other concurrency or timeouts are fine).
fn check_snapshot(dir: &Path, cfg: &MatchConfig) -> anyhow::Result<()> {
    let path = dir.join("match.toml");
    let canon = |c: &MatchConfig| {
        let mut c = c.clone();
        c.rounds = 1;
        c.games = None;
        c.concurrency = 1;
        c.summary_every = 0;
        c.timeouts = Default::default();
        c.skillcal_bin = None;
        c.event = String::new();
        // the stopping rule may change between runs: it says nothing about the games
        c.sprt = None;
        // match.toml stores options as a sorted table: compare them as sets, not in send order
        for e in &mut c.engines {
            e.options.0.sort();
        }
        c
    };
    if let Ok(text) = std::fs::read_to_string(&path) {
        let old: MatchConfig =
            toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let (a, b) = (canon(&old), canon(cfg));
        if a != b {
            let mut keys = Vec::new();
            if a.engines != b.engines {
                keys.push("engines");
            }
            if a.limits != b.limits {
                keys.push("limits");
            }
            if a.openings != b.openings {
                keys.push("openings");
            }
            if a.adjudication != b.adjudication {
                keys.push("adjudication");
            }
            if a.seed != b.seed {
                keys.push("seed");
            }
            if a.pairing != b.pairing || a.games_per_opening != b.games_per_opening {
                keys.push("pairing/games_per_opening");
            }
            bail!(
                "{} holds a match with a different config ({} differ; see {}); use a new --out directory",
                dir.display(),
                keys.join(", "),
                path.display()
            );
        }
    }
    let text = toml::to_string(cfg).context("cannot serialize the match config")?;
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn today() -> String {
    // Civil date from the Unix clock (no date crate needed for a PGN tag).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "?".into())
}
