//! The match's players: each config engine resolved to a program to start (the built-in
//! engine's binary, PATH search) with its limits, and the preflight that starts every engine
//! once and checks every option it will be sent before the first game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::config::MatchConfig;
use super::error::{ArenaError, Result};
use super::run_options::RunOptions;
use super::substitute;
use super::time_control::SideLimits;
use super::uci_engine::{LaunchSpec, UciEngine};
use super::uci_option::{OptionDecl, OptionKind};
use crate::strength::{OptionError, Settings};

/// An engine as a game needs it: how to start it and its limits.
#[derive(Clone, Debug)]
pub struct Player {
    pub spec: LaunchSpec,
    pub limits: SideLimits,
    /// The built-in engine (its options are also checked in-process).
    pub builtin: bool,
    /// The `id name` it must answer `uci` with, if the config names one.
    pub id_name: Option<String>,
}

/// Turns the config's engines into start specs and limits.
pub fn resolve_players(cfg: &MatchConfig, opts: &RunOptions) -> Result<Vec<Player>> {
    (0..cfg.engines.len())
        .map(|i| resolve_player(cfg, i, &format!("engines[{i}]"), opts))
        .collect()
}

/// Engine `i` of the config as a start spec and limits; errors name it as `key`.
fn resolve_player(cfg: &MatchConfig, i: usize, key: &str, opts: &RunOptions) -> Result<Player> {
    let e = &cfg.engines[i];
    let name = e.display_name()?;
    let limits = cfg.engine_limits(i);
    let (program, mut args) = if e.is_builtin() {
        (skillcal_bin(cfg, opts)?, vec!["uci".to_string()])
    } else {
        let timed = limits.tc.is_some() || limits.movetime_ms.is_some();
        (
            find_program(&e.command)
                .and_then(|p| substitute::apply(&p, timed.then_some(name.as_str())))
                .map_err(|m| ArenaError::config(format!("{key}.command ({name})"), m))?,
            vec![],
        )
    };
    args.extend(e.args.iter().cloned());
    if let Some(d) = &e.dir {
        if !d.is_dir() {
            return Err(ArenaError::config(
                format!("{key}.dir ({name})"),
                format!("{} is not a directory", d.display()),
            ));
        }
    }
    let spec = LaunchSpec {
        name,
        program,
        args,
        dir: e.dir.clone(),
        options: e.all_options()?,
        seed_option: e.seed_option.clone(),
    };
    let limits = SideLimits::new(limits).map_err(|e| e.context(format!("{key}.limits")))?;
    Ok(Player {
        spec,
        limits,
        builtin: e.is_builtin(),
        id_name: e.id_name.clone(),
    })
}

/// A match's preflight without the match, for a caller that plays these engines later (a
/// calibration checks its subject and pool before it writes a folder): each engine resolved
/// and started once, every option it will be sent checked. `keys[i]` names engine i in errors
/// (the caller's own config key, in place of `engines[i]`). Blocking: not inside a runtime.
pub fn check_engines(cfg: &MatchConfig, keys: &[String], opts: &RunOptions) -> Result<()> {
    let mut players = Vec::new();
    for (i, key) in keys.iter().enumerate().take(cfg.engines.len()) {
        // the checks `MatchConfig::validate` makes of each engine's limits
        let limits = cfg.engine_limits(i);
        limits.check(&format!("{key}.limits"))?;
        if limits.is_empty() {
            return Err(ArenaError::config(
                format!("{key}.limits"),
                "no limit at all (set tc, movetime_ms, nodes or depth)",
            ));
        }
        players.push(resolve_player(cfg, i, key, opts)?);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ArenaError::Other(format!("cannot start the tokio runtime: {e}")))?;
    rt.block_on(preflight_keyed(cfg, &players, keys))
}

/// The skillcal binary: RunOptions, config key `skillcal_bin`, else [`this_skillcal`].
pub fn skillcal_bin(cfg: &MatchConfig, opts: &RunOptions) -> Result<PathBuf> {
    if let Some(p) = opts
        .skillcal_bin
        .clone()
        .or_else(|| cfg.skillcal_bin.clone())
    {
        return Ok(p);
    }
    this_skillcal().map_err(ArenaError::Other)
}

/// The skillcal binary when no config names one, for every command that plays `builtin`:
/// $SKILLCAL_BIN, else this executable (from a test harness in `target/*/deps`, the `skillcal`
/// beside `deps`).
pub fn this_skillcal() -> std::result::Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("SKILLCAL_BIN") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot locate the skillcal executable ({e}); set SKILLCAL_BIN"))?;
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
pub fn find_program(cmd: &str) -> std::result::Result<PathBuf, String> {
    let p = Path::new(cmd);
    if cmd.contains('/') {
        return runnable(p).map(|()| p.to_path_buf());
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    dirs.push("/usr/games".into());
    dirs.push("/usr/local/games".into());
    // as a shell does, a match that cannot run is passed over, and named if nothing else runs
    let mut unrunnable = None;
    for d in dirs {
        let c = d.join(cmd);
        match runnable(&c) {
            Ok(()) => return Ok(c),
            Err(why) if c.exists() && unrunnable.is_none() => unrunnable = Some(why),
            Err(_) => {}
        }
    }
    Err(match unrunnable {
        Some(why) => format!("'{cmd}' not found on PATH or in /usr/games as a program: {why}"),
        None => format!("'{cmd}' not found on PATH or in /usr/games"),
    })
}

/// Ok for an executable file; else why not, naming the path.
fn runnable(p: &Path) -> std::result::Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let shown = p.display();
    match std::fs::metadata(p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(format!("'{shown}' does not exist"))
        }
        Err(e) => Err(format!("'{shown}' cannot be read: {e}")),
        Ok(m) if m.is_dir() => Err(format!("'{shown}' is a directory, not a program")),
        Ok(m) if !m.is_file() => Err(format!("'{shown}' is not a regular file")),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => Err(format!(
            "'{shown}' is not executable (no execute permission)"
        )),
        Ok(_) => Ok(()),
    }
}

/// Starts every engine once before the run: a wrong path, a dead engine, an unknown option
/// or a value the engine does not accept is a config error, not a string of forfeits or
/// games silently played at the engine's default.
pub async fn preflight(cfg: &MatchConfig, players: &[Player]) -> Result<()> {
    let keys: Vec<String> = (0..players.len())
        .map(|i| format!("engines[{i}]"))
        .collect();
    preflight_keyed(cfg, players, &keys).await
}

async fn preflight_keyed(cfg: &MatchConfig, players: &[Player], keys: &[String]) -> Result<()> {
    let handshake = Duration::from_millis(cfg.timeouts.handshake_ms);
    let fault = |key: &str, f| ArenaError::Engine(format!("{key}: {f}"));
    for (p, key) in players.iter().zip(keys) {
        let mut eng = UciEngine::launch(&p.spec, handshake)
            .await
            .map_err(|f| fault(key, f))?;
        if let Err(e) = check_id_name(key, p, eng.id_name.as_deref()) {
            eng.quit().await;
            return Err(e);
        }
        // checked before any is sent: an engine may die on a value it refuses (Stockfish 15.1
        // aborts on `Hash` = `abc`), and its crash would not name the option
        if let Err(e) = check_options(key, p, &eng.declared) {
            eng.quit().await;
            return Err(e);
        }
        // then sent, as a game sends them: an engine may die on a value it declares valid
        eng.configure(handshake).await.map_err(|f| fault(key, f))?;
        eng.try_seed_option(handshake)
            .await
            .map_err(|f| fault(&format!("{key}.seed_option"), f))?;
        eng.quit().await;
    }
    Ok(())
}

/// Checks that the engine is the one `p` names by its `id name`: ratings measured with one
/// build do not hold for another (a newer Stockfish plays hundreds of Elo stronger at the same
/// Skill Level and node count).
fn check_id_name(key: &str, p: &Player, answered: Option<&str>) -> Result<()> {
    let Some(want) = p.id_name.as_deref() else {
        return Ok(());
    };
    if answered == Some(want) {
        return Ok(());
    }
    Err(ArenaError::Engine(format!(
        "{key} ({}): {} answers `uci` with {}, but its results were measured with \"{want}\": \
         another build plays at another strength, so its rating does not hold for this one \
         (install that engine, name it with `command`, or measure a pool with this one)",
        p.spec.name,
        p.spec.program.display(),
        match answered {
            Some(name) => format!("\"id name {name}\""),
            None => "no `id name`".to_string(),
        }
    )))
}

/// Checks the options `p` will be sent against the engine's declarations (and, for the
/// built-in engine, against its own settings, loading a `StrengthTable` file).
pub fn check_options(key: &str, p: &Player, declared: &[OptionDecl]) -> Result<()> {
    let name = &p.spec.name;
    let unknown: Vec<&str> = p
        .spec
        .options
        .iter()
        .filter(|(k, _)| OptionDecl::find(declared, k).is_none())
        .map(|(k, _)| k.as_str())
        .collect();
    if !unknown.is_empty() {
        return Err(ArenaError::Engine(format!(
            "{key} ({name}): unknown UCI option(s) {}; the engine offers: {}",
            unknown.join(", "),
            OptionDecl::offered(declared)
        )));
    }
    let mut settings = p.builtin.then(Settings::default);
    for (k, v) in &p.spec.options {
        let bad = |allowed: &dyn std::fmt::Display| {
            ArenaError::Engine(format!(
                "{key} ({name}): option {k} = '{v}' is not accepted: {allowed}"
            ))
        };
        if let Some(s) = settings.as_mut() {
            match s.set_option(k, v) {
                Ok(()) => continue,
                Err(OptionError::Unknown { .. }) => {} // an engine option (Hash, ...)
                Err(e) => return Err(bad(&e)),
            }
        }
        let decl = OptionDecl::find(declared, k).expect("checked above");
        decl.check(v)
            .map_err(|allowed| bad(&format!("allowed: {allowed}")))?;
    }
    if let Some(opt) = p.spec.seed_option.as_deref().filter(|o| !o.is_empty()) {
        check_seed_option(key, name, opt, declared)?;
    }
    if let Some(s) = &settings {
        // `UCI_Elo` beyond the table's range would be clamped: the games would not be
        // played at the level their label says.
        let limited = p
            .spec
            .options
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case(crate::strength::UCI_ELO));
        if let Some(out) = s.elo_outside().filter(|_| limited) {
            let (lo, hi) = out.bounds;
            return Err(ArenaError::Engine(format!(
                "{key} ({name}): option UCI_Elo = '{}' is not accepted: allowed: an integer from {lo} to {hi} (the range of the table {})",
                s.elo,
                s.table().source()
            )));
        }
    }
    Ok(())
}

/// A named `seed_option` must be an option the engine declares, of a type that takes a number
/// (spin or string): else every game would send it something it does not have or cannot take.
fn check_seed_option(key: &str, name: &str, opt: &str, declared: &[OptionDecl]) -> Result<()> {
    let Some(decl) = OptionDecl::find(declared, opt) else {
        return Err(ArenaError::Engine(format!(
            "{key}.seed_option ({name}): unknown UCI option '{opt}'; the engine offers: {}",
            OptionDecl::offered(declared)
        )));
    };
    match decl.kind {
        OptionKind::Spin { .. } | OptionKind::String { .. } => Ok(()),
        ref kind => Err(ArenaError::Engine(format!(
            "{key}.seed_option ({name}): option '{}' is of type {}; a seed option must be of \
             type spin or string (\"\" for none)",
            decl.name,
            kind.type_name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A directory or a file without execute permission is named as such: both were said
    /// not to exist, or failed only at the start with "Permission denied".
    #[test]
    fn a_program_that_cannot_run_says_why() {
        let dir = std::env::temp_dir().join(format!("skillcal-find-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let d = dir.to_string_lossy().into_owned();
        assert_eq!(
            find_program(&d).unwrap_err(),
            format!("'{d}' is a directory, not a program")
        );
        let file = dir.join("engine");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let f = file.to_string_lossy().into_owned();
        assert_eq!(
            find_program(&f).unwrap_err(),
            format!("'{f}' is not executable (no execute permission)")
        );
        let gone = dir.join("gone").to_string_lossy().into_owned();
        assert_eq!(
            find_program(&gone).unwrap_err(),
            format!("'{gone}' does not exist")
        );
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(find_program(&f).unwrap(), file);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
