//! Move-matching on human games at any scale: how often an engine setting, given the position a
//! human moved from, plays the human's move, per 100-point band of the mover's rating.
//!
//! The games are streamed ([`crate::analysis::input::stream`]) and measured in chunks, each recorded when done
//! ([`super::work`]): every game (`all`: chunks of `chunk_games` consecutive games of a
//! file), or a seeded sample of positions per band (`sample`: the positions with the smallest
//! draws, [`super::items::draw`], in chunks of [`SAMPLE_CHUNK`] by draw, so a larger
//! sample with the same seed keeps the smaller one's chunks). A killed run loses at most the
//! chunk it was measuring.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::items::{chosen_items, items, Item, Sampler};
use super::policy::{self, maia_setting, net_name};
use super::uci::{band_engine, match_items};
use super::work::{figures, pin_filters, MatchRow, SettingKey, Tally, Work};
use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::input::{stream, Counts, HumanFilter, HumanGame};
use crate::analysis::reference::AnalysisEngine;

/// Sampled positions are measured in chunks of this many per band (and a sample is rounded up
/// to a multiple of it).
pub const SAMPLE_CHUNK: usize = 100;

/// What a matching run is asked (the CLI's `analyse --human` options).
#[derive(Clone, Debug)]
pub struct MatchingOptions {
    pub human: Vec<PathBuf>,
    pub out: PathBuf,
    pub filter: HumanFilter,
    pub match_engines: Vec<AnalysisEngine>,
    /// Engines play as their options say, no per-band `UCI_Elo` (a knob's fixed setting).
    pub as_given: bool,
    pub sample_positions: Option<usize>,
    pub sample_seed: u64,
    pub chunk_games: usize,
    pub concurrency: usize,
    pub bootstrap: usize,
    pub seed: u64,
    pub quiet: bool,
}

/// What a matching run measured.
#[derive(Clone, Debug, Default)]
pub struct Matching {
    /// Every setting measured in the folder so far, per band.
    pub rows: Vec<MatchRow>,
    /// What the reading kept and skipped (the last pass over the files).
    pub counts: Counts,
    /// Positions evaluated by this run.
    pub evaluations: usize,
    pub warnings: Vec<String>,
}

/// How a group of settings is evaluated.
enum Evaluator {
    /// A UCI engine, per band at `UCI_Elo` = the band's middle when `per_band_elo`.
    Uci {
        base: AnalysisEngine,
        per_band_elo: bool,
    },
    /// A Maia net in-process: each setting's temperature (0: the top move).
    Policy { net: u32, temperatures: Vec<f64> },
}

/// One evaluation and the settings it measures at once.
struct Group {
    eval: Evaluator,
    /// Each setting's key and build.
    settings: Vec<(SettingKey, String)>,
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn groups(opts: &MatchingOptions, selection: &str) -> Result<Vec<Group>> {
    let mut out: Vec<Group> = Vec::new();
    for base in &opts.match_engines {
        let spec = base.label();
        let builtin = base.args.first().is_some_and(|a| a == "uci");
        let maia = if builtin {
            maia_setting(&spec, &base.options)?
        } else {
            None
        };
        let mut key = SettingKey {
            engine: format!("{} {}", file_name(&base.program), base.args.join(" "))
                .trim()
                .to_string(),
            setting: base
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";"),
            limit: base.limit.to_string(),
            per_band_elo: maia.is_none() && !opts.as_given,
            selection: selection.to_string(),
        };
        let Some(m) = maia else {
            let size = std::fs::metadata(&base.program).map_or(0, |m| m.len());
            out.push(Group {
                eval: Evaluator::Uci {
                    base: base.clone(),
                    per_band_elo: !opts.as_given,
                },
                settings: vec![(key, format!("{}#{size}", base.program.display()))],
            });
            continue;
        };
        // as the engine plays it: one node, whatever the limit
        key.engine = "skillcal policy (in-process)".into();
        key.limit = "nodes=1".into();
        let build = net_name(m.net)?;
        let same_net = out
            .iter_mut()
            .find(|g| matches!(&g.eval, Evaluator::Policy { net, .. } if *net == m.net));
        match same_net {
            Some(g) => {
                if let Evaluator::Policy { temperatures, .. } = &mut g.eval {
                    temperatures.push(m.temperature);
                }
                g.settings.push((key, build));
            }
            None => out.push(Group {
                eval: Evaluator::Policy {
                    net: m.net,
                    temperatures: vec![m.temperature],
                },
                settings: vec![(key, build)],
            }),
        }
    }
    Ok(out)
}

/// Each setting's score per item (1 or 0 for a played move, a probability for an expectation).
fn evaluate(
    g: &Group,
    band: u32,
    items: &[&Item],
    opts: &MatchingOptions,
    bar: &ProgressBar,
) -> Result<Vec<Vec<f64>>> {
    match &g.eval {
        Evaluator::Uci { base, per_band_elo } => {
            let elo = per_band_elo.then_some(band + opts.filter.band / 2);
            let cfg = band_engine(base, elo);
            Ok(vec![match_items(&cfg, items, opts.concurrency, bar)?])
        }
        Evaluator::Policy { net, temperatures } => {
            policy::match_items(*net, temperatures, items, opts.concurrency, bar)
        }
    }
}

/// Per (game, band): positions and matches.
type GameTallies = BTreeMap<((usize, u64), u32), (u32, f64)>;

/// Measures one chunk's items with every setting not yet done on it; returns the evaluations.
fn measure_chunk(
    opts: &MatchingOptions,
    groups: &[Group],
    work: &mut Work,
    chunk: &str,
    items: &[Item],
    bar: &ProgressBar,
) -> Result<usize> {
    let mut by_band: BTreeMap<u32, Vec<&Item>> = BTreeMap::new();
    for it in items {
        by_band.entry(it.band).or_default().push(it);
    }
    let mut evaluations = 0;
    for g in groups {
        let pending: Vec<usize> = (0..g.settings.len())
            .filter(|&s| !work.is_done(&g.settings[s].0, chunk))
            .collect();
        if pending.is_empty() {
            continue;
        }
        let mut tallies: Vec<GameTallies> = vec![BTreeMap::new(); g.settings.len()];
        for (&band, its) in &by_band {
            let scores = evaluate(g, band, its, opts, bar)?;
            evaluations += its.len();
            for &s in &pending {
                for (it, score) in its.iter().zip(&scores[s]) {
                    let t = tallies[s].entry((it.game, band)).or_default();
                    t.0 += 1;
                    t.1 += score;
                }
            }
        }
        for s in pending {
            let list: Vec<Tally> = tallies[s]
                .iter()
                .map(|(&(game, band), &(positions, matches))| Tally {
                    game,
                    band,
                    positions,
                    matches,
                })
                .collect();
            let (key, build) = &g.settings[s];
            work.append(key, chunk, build, &list)?;
        }
    }
    Ok(evaluations)
}

fn bars(quiet: bool) -> MultiProgress {
    if quiet {
        MultiProgress::with_draw_target(ProgressDrawTarget::hidden())
    } else {
        MultiProgress::new()
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("template")
        .progress_chars("=> ")
}

/// Every game, in chunks of `chunk_games` consecutive games of a file; a chunk every setting
/// has done is passed over unread.
fn measure_all(
    opts: &MatchingOptions,
    groups: &[Group],
    work: &mut Work,
    names: &[String],
) -> Result<(Counts, usize)> {
    let size = opts.chunk_games as u64;
    let chunk_of = |file: usize, number: u64| {
        let first = (number - 1) / size * size + 1;
        format!("{}#{}-{}", names[file], first, first + size - 1)
    };
    let total: u64 = opts
        .human
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    let multi = bars(opts.quiet);
    let files_bar = multi.add(ProgressBar::new(total));
    files_bar.set_style(style(
        "{msg} [{bar:30}] {bytes}/{total_bytes} of the files, ETA {eta}",
    ));
    files_bar.set_message("human games");
    let chunk_bar = multi.add(ProgressBar::new(0));
    chunk_bar.set_style(style("  chunk [{bar:30}] {pos}/{len} positions"));
    let read = Arc::new(AtomicU64::new(0));
    let work = RefCell::new(work);
    let mut evaluations = 0;
    let mut buffer: Vec<HumanGame> = Vec::new();
    let mut current: Option<String> = None;
    let mut flush = |chunk: &str, games: Vec<HumanGame>| -> Result<()> {
        let its: Vec<Item> = games.iter().flat_map(items).collect();
        chunk_bar.reset();
        chunk_bar.set_length((its.len() * groups.len()) as u64);
        evaluations += measure_chunk(
            opts,
            groups,
            &mut work.borrow_mut(),
            chunk,
            &its,
            &chunk_bar,
        )?;
        Ok(())
    };
    let wanted = |file: usize, number: u64| {
        let chunk = chunk_of(file, number);
        let w = work.borrow();
        groups
            .iter()
            .any(|g| g.settings.iter().any(|(k, _)| !w.is_done(k, &chunk)))
    };
    let counts = stream(&opts.human, &opts.filter, &read, wanted, |game| {
        files_bar.set_position(read.load(Ordering::Relaxed));
        let chunk = chunk_of(game.file, game.number);
        if current.as_ref() != Some(&chunk) {
            if let Some(prev) = current.replace(chunk) {
                flush(&prev, std::mem::take(&mut buffer))?;
            }
        }
        buffer.push(game);
        Ok(())
    })?;
    if let Some(last) = current {
        flush(&last, buffer)?;
    }
    files_bar.finish_and_clear();
    chunk_bar.finish_and_clear();
    Ok((counts, evaluations))
}

/// A seeded sample of `n` positions per band (rounded up to a multiple of [`SAMPLE_CHUNK`]):
/// one pass draws, a second gathers the chosen positions.
fn measure_sample(
    opts: &MatchingOptions,
    groups: &[Group],
    work: &mut Work,
    names: &[String],
    n: usize,
) -> Result<(Counts, usize)> {
    let n = n.div_ceil(SAMPLE_CHUNK) * SAMPLE_CHUNK;
    let multi = bars(opts.quiet);
    let total: u64 = opts
        .human
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    let files_bar = multi.add(ProgressBar::new(2 * total));
    files_bar.set_style(style(
        "{msg} [{bar:30}] {bytes}/{total_bytes} (two passes), ETA {eta}",
    ));
    files_bar.set_message("drawing the sample");
    let read = Arc::new(AtomicU64::new(0));
    let mut sampler = Sampler::new(n, opts.sample_seed);
    let counts = stream(
        &opts.human,
        &opts.filter,
        &read,
        |_, _| true,
        |g| {
            files_bar.set_position(read.load(Ordering::Relaxed));
            sampler.offer(&names[g.file], &g);
            Ok(())
        },
    )?;
    let chosen = sampler.chosen();
    let mut by_band: BTreeMap<u32, Vec<(u64, Item)>> = BTreeMap::new();
    stream(
        &opts.human,
        &opts.filter,
        &read,
        |f, n| chosen.contains_key(&(f, n)),
        |g| {
            files_bar.set_position(read.load(Ordering::Relaxed));
            for (d, it) in chosen_items(&g, &chosen[&(g.file, g.number)]) {
                by_band.entry(it.band).or_default().push((d, it));
            }
            Ok(())
        },
    )?;
    let mut chunks: Vec<(String, Vec<Item>)> = Vec::new();
    for (band, mut list) in by_band {
        list.sort_by_key(|(d, it)| (*d, it.game, it.ply));
        let mut list: Vec<Item> = list.into_iter().map(|(_, it)| it).collect();
        let mut k = 0;
        while !list.is_empty() {
            let rest = list.split_off(SAMPLE_CHUNK.min(list.len()));
            chunks.push((format!("{band}#{k}"), std::mem::replace(&mut list, rest)));
            k += 1;
        }
    }
    let pending = |chunk: &str| {
        groups
            .iter()
            .filter(|g| g.settings.iter().any(|(k, _)| !work.is_done(k, chunk)))
            .count()
    };
    files_bar.finish_and_clear();
    let total: usize = chunks.iter().map(|(c, its)| pending(c) * its.len()).sum();
    let bar = multi.add(ProgressBar::new(total as u64));
    bar.set_style(style(
        "sampled positions [{bar:30}] {pos}/{len} evaluations, ETA {eta}",
    ));
    let mut evaluations = 0;
    for (chunk, its) in &chunks {
        evaluations += measure_chunk(opts, groups, work, chunk, its, &bar)?;
    }
    bar.finish_and_clear();
    Ok((counts, evaluations))
}

/// Measures every `--match-engine` setting on the human games into `opts.out` (resuming what
/// the folder holds), and returns the figures of everything measured there.
pub fn run(opts: &MatchingOptions) -> Result<Matching> {
    let names: Vec<String> = opts.human.iter().map(|p| file_name(p)).collect();
    let mut pins: Vec<(String, String)> = Vec::new();
    for (p, name) in opts.human.iter().zip(&names) {
        let size = std::fs::metadata(p)
            .map_err(|e| AnalysisError::io("read", p, e))?
            .len();
        pins.push(("input".into(), format!("{name} ({size} bytes)")));
    }
    pins.extend(
        opts.filter
            .describe()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v)),
    );
    pins.push(("chunk_games".into(), opts.chunk_games.to_string()));
    pins.push(("sample_chunk".into(), SAMPLE_CHUNK.to_string()));
    pin_filters(&opts.out, &pins)?;
    let selection = match opts.sample_positions {
        None => "all".to_string(),
        Some(_) => format!("sample, seed {}", opts.sample_seed),
    };
    let groups = groups(opts, &selection)?;
    let mut work = Work::open(&opts.out)?;
    let (counts, evaluations) = match opts.sample_positions {
        None => measure_all(opts, &groups, &mut work, &names)?,
        Some(n) => measure_sample(opts, &groups, &mut work, &names, n)?,
    };
    let (rows, warnings) = figures(&opts.out, opts.filter.band, opts.bootstrap, opts.seed)?;
    Ok(Matching {
        rows,
        counts,
        evaluations,
        warnings,
    })
}
