//! One connection to the store, reconnected when the server goes away: an operation that
//! meets a dropped connection (a restarted PostgreSQL, a lost network) is tried again on a
//! new one until `reconnect` has passed since the failure.

use std::str::FromStr;
use std::time::Duration;

use tokio::time::Instant;
use tokio_postgres::config::Host;
use tokio_postgres::{Client, Config, NoTls};

use super::error::{Result, StoreError};

/// How long an operation keeps trying to reach the server after losing it, by default.
pub const DEFAULT_RECONNECT: Duration = Duration::from_secs(300);

/// A connection to the store and how to make it again.
pub struct Db {
    config: Config,
    /// Where the store is, for messages: `user@host:port/db` (never the password).
    pub at: String,
    client: Option<Client>,
    reconnect: Duration,
}

/// `user@host:port/database` of a URL, without its password.
fn describe(config: &Config) -> String {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        Some(Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("(default user)");
    let db = config.get_dbname().unwrap_or(user);
    format!("{user}@{host}:{port}/{db}")
}

/// Whether an error is the connection's (worth a new connection) rather than the statement's.
fn transient(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        // connection exception, operator intervention (a server shutting down or starting)
        Some(c) => c.code().starts_with("08") || c.code().starts_with("57"),
        None => std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>()),
    }
}

/// An error's text with its source, as the server or the socket gave it.
fn reason(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => match std::error::Error::source(e) {
            Some(s) => format!("{e}: {s}"),
            None => e.to_string(),
        },
    }
}

impl Db {
    /// Parses the URL and connects once: an unreachable server or a refused user is an error
    /// at once (nothing has started yet that could wait for it).
    pub async fn connect(url: &str) -> Result<Db> {
        let mut config = Config::from_str(url)
            .map_err(|e| StoreError::BadUrl(format!("not a PostgreSQL URL ({e})")))?;
        config.connect_timeout(Duration::from_secs(10));
        let at = describe(&config);
        let mut db = Db {
            config,
            at,
            client: None,
            reconnect: DEFAULT_RECONNECT,
        };
        db.client = Some(db.open().await?);
        Ok(db)
    }

    /// How long operations keep trying after the server is lost.
    pub fn set_reconnect(&mut self, d: Duration) {
        self.reconnect = d;
    }

    async fn open(&self) -> Result<Client> {
        match self.config.connect(NoTls).await {
            Ok((client, connection)) => {
                // the connection's task ends when the server goes away; the next statement
                // then fails as closed and the operation reconnects
                tokio::spawn(connection);
                Ok(client)
            }
            Err(e) => {
                let class = e.code().map(|c| c.code().to_string()).unwrap_or_default();
                // invalid authorization (28xxx), no such database (3D000)
                if class.starts_with("28") || class == "3D000" {
                    Err(StoreError::Refused {
                        at: self.at.clone(),
                        reason: reason(&e),
                    })
                } else {
                    Err(StoreError::Unreachable {
                        at: self.at.clone(),
                        reason: reason(&e),
                    })
                }
            }
        }
    }

    /// The live client, reconnecting (until `reconnect` has passed) when there is none.
    pub(super) async fn client(&mut self, since: &mut Option<Instant>) -> Result<&mut Client> {
        while self.client.is_none() {
            match self.open().await {
                Ok(c) => self.client = Some(c),
                Err(e @ StoreError::Refused { .. }) => return Err(e),
                Err(e) => {
                    let first = *since.get_or_insert_with(Instant::now);
                    if first.elapsed() >= self.reconnect {
                        return Err(e);
                    }
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
        Ok(self.client.as_mut().expect("connected above"))
    }

    /// What to do with an operation's outcome: `Some` to return it, `None` to run it again
    /// on a new connection (the connection was lost, and `reconnect` has not passed).
    pub(super) fn outcome<T>(
        &mut self,
        r: Result<T, tokio_postgres::Error>,
        what: &str,
        since: &mut Option<Instant>,
    ) -> Option<Result<T>> {
        match r {
            Ok(v) => Some(Ok(v)),
            Err(e) if transient(&e) => {
                self.client = None;
                let first = *since.get_or_insert_with(Instant::now);
                (first.elapsed() >= self.reconnect).then(|| {
                    Err(StoreError::Unreachable {
                        at: self.at.clone(),
                        reason: format!("{what}: {}", reason(&e)),
                    })
                })
            }
            Err(e) => Some(Err(StoreError::Query {
                at: self.at.clone(),
                what: what.into(),
                reason: reason(&e),
            })),
        }
    }
}

/// `retry!(db, "what", |c| { ...; Ok(v) })`: runs the block on `db`'s client (`c: &mut
/// Client`), and again on a new connection when the connection was lost; the block must be
/// safe to repeat (a transaction that did not commit, or one whose repeat finds its work
/// done). Evaluates to `Result<T, StoreError>`, `what` naming the operation in errors.
macro_rules! retry {
    ($db:expr, $what:expr, |$c:ident| $body:block) => {{
        let mut since = None;
        loop {
            let $c = match $db.client(&mut since).await {
                Ok(c) => c,
                Err(e) => break Err(e),
            };
            let r: std::result::Result<_, tokio_postgres::Error> = async { $body }.await;
            if let Some(out) = $db.outcome(r, $what, &mut since) {
                break out;
            }
        }
    }};
}
