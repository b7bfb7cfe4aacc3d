//! Bad input: an unreachable database, a wrong password, a database without the schema or at
//! another version, a run that does not exist: each a clear error naming what and where, and
//! nothing written.

use crate::support::pg::{skillcal, Pg};

#[test]
fn bad_stores_are_named_and_nothing_is_written() {
    let pg = Pg::start("errors");
    let out = std::env::temp_dir().join(format!("skillcal-store-errors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let out_s = out.to_str().unwrap();
    let at = format!("postgres@{}/sock:", pg.dir.display());
    let match_args = |url: &str| {
        skillcal(&[
            "match",
            "--store",
            url,
            "--engine",
            "builtin",
            "--engine",
            "builtin:ScoreInaccuracy=50",
            "--nodes",
            "50",
            "--games",
            "2",
            "--out",
            out_s,
            "--no-progress",
        ])
    };

    // no schema yet: every command but `store init` refuses, and creates nothing
    let (ok, err) = skillcal(&["worker", "--store", &pg.url, "--idle-exit", "1"]);
    assert!(
        !ok && err.contains(&at) && err.contains("skillcal store init"),
        "{err}"
    );
    let (ok, err) = match_args(&pg.url);
    assert!(!ok && err.contains("no skillcal tables"), "{err}");
    assert!(!out.exists(), "a refused match wrote its folder");
    assert_eq!(
        pg.number("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"),
        0
    );

    // a wrong password: the server's reason, the store named without the password
    let wrong = pg.url.replace(":skillcal@", ":nope@");
    let (ok, err) = skillcal(&["store", "init", "--store", &wrong]);
    assert!(
        !ok && err.contains("password authentication failed"),
        "{err}"
    );
    assert!(err.contains(&at) && !err.contains("nope"), "{err}");

    // nothing listening there
    let port = std::fs::read_to_string(pg.dir.join("port")).unwrap();
    let other = pg.url.replace(&format!(":{}/", port.trim()), ":1/");
    let (ok, err) = skillcal(&["store", "init", "--store", &other]);
    assert!(
        !ok && err.contains("cannot reach the store at") && err.contains("sock:1/"),
        "{err}"
    );
    let (ok, err) = skillcal(&["store", "init", "--store", "mysql://x"]);
    assert!(
        !ok && err.contains("--store / SKILLCAL_STORE: not a PostgreSQL URL"),
        "{err}"
    );

    // init twice is init once
    pg.init();
    let (ok, _) = skillcal(&["store", "init", "--store", &pg.url]);
    assert!(ok);
    assert_eq!(pg.number("SELECT count(*) FROM schema_version"), 1);

    // a run that does not exist: named, with the runs there are, and no folder
    let (ok, err) = skillcal(&["export", "--store", &pg.url, "7", out_s]);
    assert!(
        !ok && err.contains("run 7 does not exist in the store at") && err.contains(&at),
        "{err}"
    );
    assert!(err.contains("holds no run"), "{err}");
    assert!(!out.exists(), "a failed export wrote its folder");

    // a schema a newer skillcal wrote: refused by every command, init included, untouched
    pg.execute("INSERT INTO schema_version (version) VALUES (99)");
    for args in [
        vec!["store", "init", "--store", &pg.url],
        vec!["worker", "--store", &pg.url, "--idle-exit", "1"],
        vec!["export", "--store", &pg.url, "1", out_s],
    ] {
        let (ok, err) = skillcal(&args);
        assert!(
            !ok && err.contains("schema version 99, this skillcal uses version 1"),
            "{args:?}: {err}"
        );
    }
    let (ok, err) = match_args(&pg.url);
    assert!(!ok && err.contains("schema version 99"), "{err}");
    assert_eq!(pg.number("SELECT count(*) FROM runs"), 0);
    assert_eq!(pg.number("SELECT max(version) FROM schema_version"), 99);
    assert!(!out.exists());
}
