//! Shared by the arena tests: temp dirs, the mock engine, and an independent PGN checker
//! (pgn-reader parse + shakmaty replay; it does not use the arena's own code).

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

pub const MOCK: &str = env!("CARGO_BIN_EXE_skillcal-mock-engine");
pub const SKILLCAL: &str = env!("CARGO_BIN_EXE_skillcal");
pub const STOCKFISH: &str = "/usr/games/stockfish";

/// The `skillcal` binary the CLI tests run: this build's, or `SKILLCAL_UNDER_TEST` (to show
/// that a test fails on another build, e.g. main's).
pub fn skillcal_under_test() -> PathBuf {
    std::env::var_os("SKILLCAL_UNDER_TEST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(SKILLCAL))
}

/// `skillcal ARGS` (the build under test, stdin closed): (success, stderr).
pub fn skillcal_stderr(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(skillcal_under_test())
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `skillcal ARGS` run in `cwd`, with itself as `SKILLCAL_BIN`: (success, stderr).
pub fn skillcal_in(cwd: &Path, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(SKILLCAL)
        .args(args)
        .current_dir(cwd)
        .env("SKILLCAL_BIN", SKILLCAL)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Copies the tree `from` into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// A fresh empty directory under the system temp dir.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One game as read back from the PGN.
#[derive(Debug, Default, Clone)]
pub struct PgnGame {
    pub tags: BTreeMap<String, String>,
    pub sans: Vec<String>,
    /// `{comments}` with the number of moves before each.
    pub comments: Vec<(usize, String)>,
    pub outcome: Option<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = BTreeMap<String, String>;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(BTreeMap::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.insert(
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        );
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(PgnGame {
            tags,
            ..Default::default()
        })
    }

    fn san(&mut self, g: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        g.sans.push(san.to_string());
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        g: &mut Self::Movetext,
        c: pgn_reader::RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = String::from_utf8_lossy(c.as_bytes()).trim().to_string();
        g.comments.push((g.sans.len(), text));
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        g: &mut Self::Movetext,
        o: pgn_reader::Outcome,
    ) -> ControlFlow<Self::Output> {
        g.outcome = Some(o.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: Self::Movetext) -> Self::Output {
        g
    }
}

pub fn read_pgn(path: &Path) -> Vec<PgnGame> {
    let text = std::fs::read(path).unwrap();
    let mut r = Reader::new(&text[..]);
    let mut out = Vec::new();
    while let Some(g) = r.read_game(&mut Collect).unwrap() {
        out.push(g);
    }
    out
}

/// Checks every game of `dir/games.pgn`: tags present, moves legal from the FEN tag, the
/// result and termination agree with the final position, and games.csv says the same.
/// Returns the number of games and the terminations seen.
pub fn check_run_dir(dir: &Path) -> (usize, BTreeMap<String, usize>) {
    let games = read_pgn(&dir.join("games.pgn"));
    let rows = skillcal::arena::read_games_csv(&dir.join("games.csv")).unwrap();
    assert_eq!(
        games.len(),
        rows.len(),
        "PGN and CSV hold different numbers of games"
    );
    let by_id: HashMap<u64, &skillcal::results::GameRow> =
        rows.iter().map(|r| (r.game_id, r)).collect();
    assert_eq!(by_id.len(), rows.len(), "duplicate game ids in games.csv");
    let pgn_ids: std::collections::BTreeSet<&str> =
        games.iter().map(|g| g.tags["GameId"].as_str()).collect();
    assert_eq!(pgn_ids.len(), games.len(), "duplicate GameId in games.pgn");
    let mut terms = BTreeMap::new();
    for g in &games {
        let id: u64 = g.tags["GameId"].parse().unwrap();
        let ctx = format!("game {id}");
        for t in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "FEN",
            "SetUp",
            "TimeControl",
            "Termination",
            "PlyCount",
        ] {
            assert!(g.tags.contains_key(t), "{ctx}: tag {t} missing");
        }
        let row = by_id
            .get(&id)
            .unwrap_or_else(|| panic!("{ctx}: not in games.csv"));
        let result = g.tags["Result"].clone();
        assert_eq!(
            g.outcome.as_deref(),
            Some(result.as_str()),
            "{ctx}: movetext result"
        );
        assert_eq!(
            row.result.map_or("*", |r| r.as_str()),
            result,
            "{ctx}: CSV result"
        );
        assert_eq!(row.white, g.tags["White"], "{ctx}");
        assert_eq!(row.black, g.tags["Black"], "{ctx}");
        let term = g.tags["SkillcalTermination"].clone();
        assert_eq!(row.termination.as_str(), term, "{ctx}: CSV termination");
        assert_eq!(
            g.tags["PlyCount"].parse::<usize>().unwrap(),
            g.sans.len(),
            "{ctx}: PlyCount"
        );
        assert_eq!(row.plies as usize, g.sans.len(), "{ctx}: CSV plies");

        let fen: Fen = g.tags["FEN"].parse().unwrap();
        let mut pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        *seen
            .entry(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0)
            .or_default() += 1;
        for (k, san) in g.sans.iter().enumerate() {
            assert!(
                !pos.is_game_over(),
                "{ctx}: move {k} played after the game was over"
            );
            let m = san
                .parse::<SanPlus>()
                .ok()
                .and_then(|s| s.san.to_move(&pos).ok())
                .unwrap_or_else(|| panic!("{ctx}: illegal move {san} at ply {k}"));
            pos.play_unchecked(m);
            *seen
                .entry(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0)
                .or_default() += 1;
        }
        let reps = seen[&pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0];
        let winner_is_mover_of_last = match pos.turn() {
            Color::White => "0-1",
            Color::Black => "1-0",
        };
        let by_rules = pos.is_checkmate()
            || pos.is_stalemate()
            || pos.is_insufficient_material()
            || pos.halfmoves() >= 100
            || reps >= 3;
        match term.as_str() {
            "checkmate" => {
                assert!(pos.is_checkmate(), "{ctx}: no mate on the board");
                assert_eq!(result, winner_is_mover_of_last, "{ctx}: mate result");
            }
            "stalemate" => assert!(pos.is_stalemate() && result == "1/2-1/2", "{ctx}"),
            "insufficient_material" => {
                assert!(
                    pos.is_insufficient_material() && result == "1/2-1/2",
                    "{ctx}"
                )
            }
            "fifty_moves" => assert!(pos.halfmoves() >= 100 && result == "1/2-1/2", "{ctx}"),
            "threefold" => assert!(
                reps >= 3 && result == "1/2-1/2",
                "{ctx}: {reps} repetitions"
            ),
            "adjudication_draw" | "max_plies" => {
                assert!(!by_rules && result == "1/2-1/2", "{ctx}: {term}")
            }
            "adjudication_resign" => assert!(!by_rules && result != "1/2-1/2", "{ctx}"),
            "time_forfeit" | "illegal_move" | "crash" | "stall" => {
                // The offender is the side to move; it loses.
                assert!(!by_rules, "{ctx}: failure after the game was over");
                let expect = match pos.turn() {
                    Color::White => "0-1",
                    Color::Black => "1-0",
                };
                assert_eq!(
                    result, expect,
                    "{ctx}: the side to move failed and must lose"
                );
            }
            other => panic!("{ctx}: unknown termination {other}"),
        }
        *terms.entry(term).or_default() += 1;
    }
    (games.len(), terms)
}

/// True for an engine move's comment: `+0.35/12 0.105s`, `-M3/20 0.010s` (score from the
/// mover's side, depth, seconds with three decimals).
pub fn is_move_comment(c: &str) -> bool {
    let Some((head, time)) = c.split_once(' ') else {
        return false;
    };
    let Some((score, depth)) = head.split_once('/') else {
        return false;
    };
    let secs_ok = time
        .strip_suffix('s')
        .and_then(|t| t.split_once('.'))
        .is_some_and(|(a, b)| {
            !a.is_empty()
                && a.bytes().all(|x| x.is_ascii_digit())
                && b.len() == 3
                && b.bytes().all(|x| x.is_ascii_digit())
        });
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|x| x.is_ascii_digit());
    let score_ok = match score.strip_prefix(['+', '-']) {
        Some(rest) => match rest.strip_prefix('M') {
            Some(m) => digits(m),
            None => rest
                .split_once('.')
                .is_some_and(|(a, b)| digits(a) && b.len() == 2 && digits(b)),
        },
        None => false,
    };
    secs_ok && score_ok && digits(depth)
}
