//! A move-matching folder's record of finished work, so a killed run keeps what it measured and
//! a rerun skips it: `matching-chunks.csv` holds one line per (setting, selection, chunk),
//! appended when the chunk is done, with each game's tally (positions, matches) per band; a
//! torn last line is dropped on opening. `matching-filters.csv` pins the inputs and filters the
//! folder was measured with. The figures (`matching.csv`) are recomputed from all the lines:
//! per band, the matched share with a 95% interval by bootstrap over games (the positions of one
//! game are not independent: a player's style and the game's course tie them together).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::figures::{bootstrap, Estimate};
use crate::fsutil::AppendLog;

/// Move-matching of one engine setting on one band.
#[derive(Clone, Debug)]
pub struct MatchRow {
    pub band: String,
    pub engine: String,
    pub setting: String,
    pub limit: String,
    /// `all`, or `sample, seed S`.
    pub selection: String,
    pub games: usize,
    pub positions: usize,
    /// Matches, or expected matches (a policy's probability of the human's move, summed).
    pub matches: f64,
    pub rate: Estimate,
}

pub const CHUNKS: &str = "matching-chunks.csv";
pub const FILTERS: &str = "matching-filters.csv";

/// What a line measured: the engine setting and how its positions were chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SettingKey {
    /// The program's file name and arguments (`skillcal uci`), or the in-process evaluator.
    pub engine: String,
    /// Options as `K=V;K=V`, without the band's `UCI_Elo`.
    pub setting: String,
    pub limit: String,
    /// The engine gets `UCI_LimitStrength=true` and `UCI_Elo` = the band's middle.
    pub per_band_elo: bool,
    /// `all`, or `sample N per band, seed S`.
    pub selection: String,
}

#[derive(Serialize, Deserialize)]
struct ChunkRow {
    engine: String,
    setting: String,
    limit: String,
    per_band_elo: bool,
    selection: String,
    chunk: String,
    /// The program's identity (path and size) or the network's: a line measured with another
    /// build is flagged when the figures are computed.
    build: String,
    /// `FILE.GAME/BAND:POSITIONS:MATCHES` per game and band, space-separated.
    entries: String,
}

/// One game's tally in one band.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    pub game: (usize, u64),
    pub band: u32,
    pub positions: u32,
    /// Matches, or the expected number of matches (a sum of probabilities).
    pub matches: f64,
}

fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x}")
    } else {
        let s = format!("{x:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn encode(tallies: &[Tally]) -> String {
    tallies
        .iter()
        .map(|t| {
            format!(
                "{}.{}/{}:{}:{}",
                t.game.0,
                t.game.1,
                t.band,
                t.positions,
                number(t.matches)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn decode(entry: &str) -> Option<Tally> {
    let (game, rest) = entry.split_once('/')?;
    let (f, n) = game.split_once('.')?;
    let mut parts = rest.split(':');
    let t = Tally {
        game: (f.parse().ok()?, n.parse().ok()?),
        band: parts.next()?.parse().ok()?,
        positions: parts.next()?.parse().ok()?,
        matches: parts.next()?.parse().ok()?,
    };
    (parts.next().is_none() && t.matches >= 0.0 && t.matches <= f64::from(t.positions)).then_some(t)
}

/// The rows of the file's complete lines.
fn parse(path: &Path, complete: &str) -> Result<Vec<ChunkRow>> {
    let mut rows = Vec::new();
    let mut rdr = csv::Reader::from_reader(complete.as_bytes());
    for (i, row) in rdr.deserialize::<ChunkRow>().enumerate() {
        rows.push(row.map_err(|e| AnalysisError::file(path, format!("line {}: {e}", i + 2)))?);
    }
    Ok(rows)
}

/// The open record: what is done, and the file new lines go to.
pub struct Work {
    log: AppendLog,
    done: HashSet<(SettingKey, String)>,
}

impl Work {
    /// Opens (or creates) `dir/matching-chunks.csv`.
    pub fn open(dir: &Path) -> Result<Work> {
        let path = dir.join(CHUNKS);
        let (mut log, complete) =
            AppendLog::open(&path).map_err(|e| AnalysisError::io("open", &path, e))?;
        let rows = parse(&path, &complete)?;
        if complete.is_empty() {
            log.append("engine,setting,limit,per_band_elo,selection,chunk,build,entries\n")
                .map_err(|e| AnalysisError::io("write", &path, e))?;
        }
        let done = rows.into_iter().map(|r| (key_of(&r), r.chunk)).collect();
        Ok(Work { log, done })
    }

    pub fn is_done(&self, key: &SettingKey, chunk: &str) -> bool {
        self.done.contains(&(key.clone(), chunk.to_string()))
    }

    /// Records a finished chunk (one line, written at once).
    pub fn append(
        &mut self,
        key: &SettingKey,
        chunk: &str,
        build: &str,
        tallies: &[Tally],
    ) -> Result<()> {
        let row = ChunkRow {
            engine: key.engine.clone(),
            setting: key.setting.clone(),
            limit: key.limit.clone(),
            per_band_elo: key.per_band_elo,
            selection: key.selection.clone(),
            chunk: chunk.to_string(),
            build: build.to_string(),
            entries: encode(tallies),
        };
        let line =
            crate::results::csv_line(&row).map_err(|e| AnalysisError::file(self.log.path(), e))?;
        self.log
            .append(&line)
            .map_err(|e| AnalysisError::io("write", self.log.path(), e))?;
        self.done.insert((key.clone(), chunk.to_string()));
        Ok(())
    }
}

fn key_of(r: &ChunkRow) -> SettingKey {
    SettingKey {
        engine: r.engine.clone(),
        setting: r.setting.clone(),
        limit: r.limit.clone(),
        per_band_elo: r.per_band_elo,
        selection: r.selection.clone(),
    }
}

/// Per setting (in the order first met): per band, per game, (positions, matches); and the
/// builds seen.
type Gathered = Vec<(
    SettingKey,
    BTreeMap<u32, HashMap<(usize, u64), (u32, f64)>>,
    BTreeSet<String>,
)>;

fn gather(path: &Path) -> Result<Gathered> {
    let text = std::fs::read_to_string(path).map_err(|e| AnalysisError::io("read", path, e))?;
    let rows = parse(path, &text[..crate::fsutil::complete_len(text.as_bytes())])?;
    let mut out: Gathered = Vec::new();
    let mut index: HashMap<SettingKey, usize> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        let key = key_of(r);
        let at = *index.entry(key.clone()).or_insert_with(|| {
            out.push((key, BTreeMap::new(), BTreeSet::new()));
            out.len() - 1
        });
        out[at].2.insert(r.build.clone());
        for e in r.entries.split(' ').filter(|e| !e.is_empty()) {
            let t = decode(e).ok_or_else(|| {
                AnalysisError::file(
                    path,
                    format!(
                        "line {}: entry `{e}` is not FILE.GAME/BAND:POSITIONS:MATCHES",
                        i + 2
                    ),
                )
            })?;
            let cell = out[at]
                .1
                .entry(t.band)
                .or_default()
                .entry(t.game)
                .or_default();
            cell.0 += t.positions;
            cell.1 += t.matches;
        }
    }
    Ok(out)
}

/// Every setting's figures per band from `dir/matching-chunks.csv`, bands in order and the
/// settings in the order first measured, with warnings (a setting measured with more than one
/// build).
pub fn figures(
    dir: &Path,
    band_width: u32,
    resamples: usize,
    seed: u64,
) -> Result<(Vec<MatchRow>, Vec<String>)> {
    let gathered = gather(&dir.join(CHUNKS))?;
    let mut warnings = Vec::new();
    let mut rows: Vec<(u32, usize, MatchRow)> = Vec::new();
    for (order, (key, bands, builds)) in gathered.iter().enumerate() {
        if builds.len() > 1 {
            warnings.push(format!(
                "{} {} ({}): measured with {} different builds ({}): rerun into a new folder to \
                 measure one",
                key.engine,
                key.setting,
                key.selection,
                builds.len(),
                builds.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        for (&band, games) in bands {
            let tallies: Vec<(u32, f64)> = games.values().copied().collect();
            let [rate] = bootstrap(&tallies, resamples, seed, |g| {
                let n: u32 = g.iter().map(|t| t.0).sum();
                let m: f64 = g.iter().map(|t| t.1).sum();
                [(n > 0).then(|| m / f64::from(n))]
            });
            let mid = band + band_width / 2;
            let setting = if key.per_band_elo {
                let sep = if key.setting.is_empty() { "" } else { ";" };
                format!("{}{sep}UCI_LimitStrength=true;UCI_Elo={mid}", key.setting)
            } else {
                key.setting.clone()
            };
            rows.push((
                band,
                order,
                MatchRow {
                    band: format!("{}-{}", band, band + band_width - 1),
                    engine: key.engine.clone(),
                    setting,
                    limit: key.limit.clone(),
                    selection: key.selection.clone(),
                    games: tallies.len(),
                    positions: tallies.iter().map(|t| t.0 as usize).sum(),
                    matches: tallies.iter().map(|t| t.1).sum(),
                    rate,
                },
            ));
        }
    }
    rows.sort_by_key(|r| (r.0, r.1));
    Ok((rows.into_iter().map(|r| r.2).collect(), warnings))
}

/// Records the folder's inputs and filters (`key,value` lines) on its first run; a later run
/// must ask the same, or its figures would mix two measurements.
pub fn pin_filters(dir: &Path, pairs: &[(String, String)]) -> Result<()> {
    let path = dir.join(FILTERS);
    let mut text = String::from("key,value\n");
    for (k, v) in pairs {
        text.push_str(&format!("{k},{v}\n"));
    }
    match std::fs::read_to_string(&path) {
        Ok(old) if old == text => Ok(()),
        Ok(old) => {
            let old_pairs: Vec<&str> = old.lines().skip(1).collect();
            let new_pairs: Vec<&str> = text.lines().skip(1).collect();
            let differ = new_pairs
                .iter()
                .find(|l| !old_pairs.contains(l))
                .or_else(|| old_pairs.iter().find(|l| !new_pairs.contains(l)))
                .copied()
                .unwrap_or("the order of the inputs");
            Err(AnalysisError::file(
                &path,
                format!(
                    "this folder was measured with other inputs or filters (`{differ}` differs): \
                     give the same ones, or another --out"
                ),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(&path, text).map_err(|e| AnalysisError::io("write", &path, e))
        }
        Err(e) => Err(AnalysisError::io("read", &path, e)),
    }
}
