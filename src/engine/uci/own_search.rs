//! The engine's own search as the move choice: the search itself, its closing reports, and the
//! weakening's choice among its candidates (`Weakening`), answered by the one search thread.

use super::thread::{Answer, Wait};
use super::{info_line, Uci};
use crate::engine::position::Game;
use crate::engine::search::SearchParams;
use crate::engine::weaken::Weakening;

impl Uci {
    /// Starts the engine's own search of `game` under `choice`'s weakening.
    pub(super) fn start_search(
        &mut self,
        game: Game,
        params: SearchParams,
        choice: Weakening,
        ponder: bool,
    ) {
        let wait = Wait {
            infinite: params.limits.infinite,
            ponder,
        };
        self.spawn_search("search", wait, move |engine, control, say| {
            let mut result =
                engine.search(&game, &params, control, &mut |info| say(&info_line(info)));
            // A root without a move: the game is over, and its score says how (Stockfish
            // prints the same line), so a GUI reading scores sees the result.
            if result.best.is_none() {
                say(if result.score < 0 {
                    "info depth 0 score mate 0"
                } else {
                    "info depth 0 score cp 0"
                });
            }
            // Totals at the end of the search (the iterations report only completed depths).
            let ms = result.time.as_millis() as u64;
            say(&format!(
                "info nodes {} nps {} time {ms}",
                result.nodes,
                result.nodes * 1000 / ms.max(1)
            ));
            let best = result.candidates.first().map(|c| c.score);
            if let (Some(c), Some(best)) = (choice.apply(&mut result), best) {
                if c.index != 0 {
                    say(&format!(
                        "info string noise: multipv {} played ({} cp, perceived {:.0}) over {best} cp",
                        c.index + 1,
                        result.score,
                        c.perceived[c.index]
                    ));
                }
            }
            Answer {
                best: result.best,
                ponder: result.ponder,
                think: None,
            }
        });
    }
}
