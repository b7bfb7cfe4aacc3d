//! A calibration config that names a measured pool (`[pool] file = DIR`): the pool run's
//! members, games, ratings, covariance and human scales read from its folder, each file's
//! damage named by line.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::calibration::{CalibrationConfig, PoolConfig};
use crate::calibrate::error::{config_err, CalibrateError, Result};

/// A calibration config that names a measured pool (`[pool] file = DIR`).
impl CalibrationConfig {
    /// Replaces the `[pool]` section by the measured pool of `pool.file`: the members as that
    /// run played them (its `pool.toml`) and their games (`pool-pairs.csv`). `origin` names the
    /// calibration config in errors.
    pub fn load_pool_file(&mut self, origin: &str) -> Result<()> {
        #[derive(Deserialize)]
        struct Run {
            pool: PoolConfig,
        }
        let Some(dir) = self.pool.file.clone() else {
            config_err!("{origin}: key `pool.file` is not set");
        };
        let path = dir.join("pool.toml");
        let text =
            crate::fsutil::read_text_capped(&path, crate::fsutil::CONFIG_CAP).map_err(|e| {
                CalibrateError::Config(format!(
                    "{origin}: key `pool.file`: cannot read {} (a `skillcal pool` run folder): {e}",
                    path.display()
                ))
            })?;
        let run: Run = toml::from_str(&text)
            .map_err(|e| CalibrateError::file(&path, format!("not a pool run's config: {e}")))?;
        if run.pool.file.is_some() {
            config_err!(
                "{}: key `pool.file`: a pool run cannot load another pool",
                path.display()
            );
        }
        let pairs = read_pairs(&dir.join("pool-pairs.csv"), &run.pool, &path)?;
        self.pool = PoolConfig {
            file: Some(dir.clone()),
            hold: self.pool.hold,
            ..run.pool
        };
        self.pool_pairs = pairs;
        let ratings = dir.join("pool.csv");
        if ratings.exists() {
            self.pool_measured = read_measured(&ratings, &self.pool, &path)?;
        }
        let cov = dir.join("pool-covariance.csv");
        if cov.exists() {
            self.pool_covariance = Some(read_covariance(&cov, &self.pool)?);
        }
        let scales = dir.join("human-scale.csv");
        if scales.exists() {
            self.pool_human_scales = crate::results::read_csv(&scales)?;
        }
        self.validate_pool(&path.display().to_string())
    }
}

/// An error at `line` of `path` (`path:line: message`, as the results files' readers say it).
fn at_line(path: &Path, line: u64, message: String) -> CalibrateError {
    crate::results::ResultsError::Parse {
        path: path.to_path_buf(),
        line,
        message,
    }
    .into()
}

/// `pool-pairs.csv` of the pool whose members `pool_toml` lists (`pool`): each pair of members
/// once, a second row would count its games twice.
fn read_pairs(
    path: &Path,
    pool: &PoolConfig,
    pool_toml: &Path,
) -> Result<Vec<crate::results::PoolPairRow>> {
    let pairs: Vec<(u64, crate::results::PoolPairRow)> = crate::results::read_csv_lines(path)?;
    // a measured pool without a pair measured nothing: the file was cut or is not one
    if pairs.is_empty() {
        return Err(CalibrateError::file(
            path,
            "holds no rows (empty, or a header only)",
        ));
    }
    let mut seen: HashMap<(&str, &str), u64> = HashMap::new();
    for (line, p) in &pairs {
        for name in [&p.a, &p.b] {
            if !pool.members.iter().any(|m| &m.name == name) {
                return Err(at_line(
                    path,
                    *line,
                    format!(
                        "`{name}` is not a member of the pool in {}",
                        pool_toml.display()
                    ),
                ));
            }
        }
        let key = if p.a < p.b {
            (p.a.as_str(), p.b.as_str())
        } else {
            (p.b.as_str(), p.a.as_str())
        };
        if let Some(first) = seen.insert(key, *line) {
            return Err(at_line(
                path,
                *line,
                format!(
                    "the pair `{}` – `{}` again (first on line {first}): its games would count \
                     twice",
                    p.a, p.b
                ),
            ));
        }
    }
    Ok(pairs.into_iter().map(|(_, p)| p).collect())
}

/// `pool.csv` of the pool whose members `pool_toml` lists (`pool`): one row for each member. A
/// member without its row left the held pool without ratings, refitted from its games instead.
fn read_measured(
    path: &Path,
    pool: &PoolConfig,
    pool_toml: &Path,
) -> Result<Vec<crate::results::PoolMemberRow>> {
    let rows: Vec<(u64, crate::results::PoolMemberRow)> = crate::results::read_csv_lines(path)?;
    let mut lines: HashMap<&str, u64> = HashMap::new();
    for (line, r) in &rows {
        if !pool.members.iter().any(|m| m.name == r.name) {
            return Err(at_line(
                path,
                *line,
                format!(
                    "`{}` is not a member of the pool in {}",
                    r.name,
                    pool_toml.display()
                ),
            ));
        }
        if let Some(first) = lines.insert(&r.name, *line) {
            return Err(at_line(
                path,
                *line,
                format!("member `{}` again (first on line {first})", r.name),
            ));
        }
    }
    if let Some(m) = pool
        .members
        .iter()
        .find(|m| !lines.contains_key(m.name.as_str()))
    {
        return Err(CalibrateError::file(
            path,
            format!("member `{}` of {} has no row", m.name, pool_toml.display()),
        ));
    }
    Ok(rows.into_iter().map(|(_, r)| r).collect())
}

/// `pool-covariance.csv` (a header of names, then a row per member: its name and covariances) as
/// a matrix in the order of `pool`'s members. A covariance matrix is symmetric with positive
/// variances (zero for a hard anchor, a constant): the pool's held ratings carry it into every
/// band of the table, so a cell edited or cut is refused here, naming its line and members.
fn read_covariance(path: &Path, pool: &PoolConfig) -> Result<nalgebra::DMatrix<f64>> {
    let members = &pool.members;
    let bad = |what: String| CalibrateError::file(path, what);
    let at = |line: u64, message: String| at_line(path, line, message);
    let mut reader = csv::Reader::from_path(path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| bad(format!("no header: {e}")))?
        .iter()
        .skip(1)
        .map(str::to_string)
        .collect();
    let columns: Vec<usize> = members
        .iter()
        .map(|m| {
            header
                .iter()
                .position(|h| *h == m.name)
                .ok_or_else(|| bad(format!("no column for member `{}`", m.name)))
        })
        .collect::<Result<_>>()?;
    let n = members.len();
    let mut cov = nalgebra::DMatrix::from_element(n, n, f64::NAN);
    let mut lines: Vec<Option<u64>> = vec![None; n];
    for rec in reader.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            at(line, e.to_string())
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let name = rec.get(0).unwrap_or_default();
        let Some(i) = members.iter().position(|m| m.name == name) else {
            return Err(at(line, format!("`{name}` is not a member of the pool")));
        };
        if let Some(first) = lines[i] {
            return Err(at(
                line,
                format!("member `{name}` again (first on line {first})"),
            ));
        }
        lines[i] = Some(line);
        for (j, m) in members.iter().enumerate() {
            let v = rec.get(columns[j] + 1).unwrap_or_default();
            cov[(i, j)] = v
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| {
                    at(
                        line,
                        format!(
                            "member `{name}`, column `{}`: `{v}` is not a finite number",
                            m.name
                        ),
                    )
                })?;
        }
    }
    for (i, m) in members.iter().enumerate() {
        let Some(line) = lines[i] else {
            return Err(bad(format!("member `{}` has no row", m.name)));
        };
        let v = cov[(i, i)];
        let hard = m.elo.is_some() && m.sd.unwrap_or(pool.anchor_sd) == 0.0;
        if v < 0.0 || (v == 0.0 && !hard) {
            return Err(at(
                line,
                format!(
                    "member `{}`: variance {v} (column `{}`) is not positive (0 only for a \
                     hard anchor)",
                    m.name, m.name
                ),
            ));
        }
    }
    // the file is written to 3 decimals: a cell and its mirror may differ by that rounding,
    // and a computed covariance by a little more relative to the variances
    for i in 0..n {
        for j in 0..i {
            let tol = 1.5e-3 + 1e-4 * (cov[(i, i)] * cov[(j, j)]).sqrt();
            if (cov[(i, j)] - cov[(j, i)]).abs() > tol {
                let (a, b) = (&members[i].name, &members[j].name);
                return Err(at(
                    lines[i].unwrap_or(0),
                    format!(
                        "member `{a}`, column `{b}`: {} where member `{b}`, column `{a}` (line \
                         {}) has {}: a covariance matrix is symmetric",
                        cov[(i, j)],
                        lines[j].unwrap_or(0),
                        cov[(j, i)]
                    ),
                ));
            }
        }
    }
    Ok(cov)
}
