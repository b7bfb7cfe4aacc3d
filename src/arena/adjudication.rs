//! Adjudication: resign and draw by both engines' reported scores, and the ply cap.

use shakmaty::Color;

use super::config::AdjudicationConfig;
use super::outcome::{win_for, GameResult, Termination};
use super::uci_engine::SearchInfo;

/// How a game ends early: result, termination and the sentence for the PGN.
pub type Ending = (GameResult, Termination, String);

/// 0 for White, 1 for Black.
pub fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The adjudication rules of a match and the streaks of one game, one entry per mover.
pub struct Adjudicator<'a> {
    cfg: &'a AdjudicationConfig,
    /// `resign[loser][mover]`: consecutive moves of `mover` reporting `loser` lost.
    resign: [[u32; 2]; 2],
    draw: [u32; 2],
}

impl<'a> Adjudicator<'a> {
    pub fn new(cfg: &'a AdjudicationConfig) -> Adjudicator<'a> {
        Adjudicator {
            cfg,
            resign: [[0; 2]; 2],
            draw: [0; 2],
        }
    }

    /// Resign / draw / max-plies adjudication after `mover` played with `info`, in a position
    /// at move number `fullmoves` after `plies` plies (book moves included).
    pub fn after_move(
        &mut self,
        mover: Color,
        info: &SearchInfo,
        fullmoves: u32,
        plies: usize,
    ) -> Option<Ending> {
        let (cfg, s) = (self.cfg, &mut *self);
        let m = side_index(mover);
        let score = info.score_cp();
        if let Some(r) = &cfg.resign {
            for loser in [Color::White, Color::Black] {
                let l = side_index(loser);
                // The mover's score, seen from the loser's side.
                let against = score.map(|sc| if mover == loser { sc } else { -sc });
                if against.is_some_and(|a| a <= -r.score_cp) {
                    s.resign[l][m] += 1;
                } else {
                    s.resign[l][m] = 0;
                }
                if s.resign[l][0] >= r.moves && s.resign[l][1] >= r.moves {
                    let who = if loser == Color::White {
                        "White"
                    } else {
                        "Black"
                    };
                    return Some((
                        win_for(!loser),
                        Termination::AdjudicationResign,
                        format!("{who} resigns (both engines agree)"),
                    ));
                }
            }
        }
        if let Some(d) = &cfg.draw {
            if fullmoves >= d.after_move && score.is_some_and(|sc| sc.abs() <= d.score_cp) {
                s.draw[m] += 1;
            } else {
                s.draw[m] = 0;
            }
            if s.draw[0] >= d.moves && s.draw[1] >= d.moves {
                return Some((
                    GameResult::Draw,
                    Termination::AdjudicationDraw,
                    "Draw by adjudication".into(),
                ));
            }
        }
        if let Some(max) = cfg.max_plies {
            if plies as u32 >= max {
                return Some((
                    GameResult::Draw,
                    Termination::MaxPlies,
                    format!("Drawn at {max} plies"),
                ));
            }
        }
        None
    }
}
