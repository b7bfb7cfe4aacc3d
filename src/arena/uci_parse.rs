//! The one reading of a search's output (`info` and `bestmove` lines), shared by the arena's
//! async client and the analysis's synchronous one.

/// The engine's last reported evaluation before `bestmove`, from the mover's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    pub depth: Option<u32>,
    /// Nodes searched at the last `info` line that gave them (a score line or the closing
    /// `info nodes ...` some engines send before `bestmove`).
    pub nodes: Option<u64>,
}

impl SearchInfo {
    /// Centipawns with mates mapped far outside the heuristic range (for adjudication).
    pub fn score_cp(&self) -> Option<i32> {
        match (self.mate, self.cp) {
            (Some(m), _) if m > 0 => Some(100_000 - m),
            (Some(m), _) => Some(-100_000 - m),
            (None, cp) => cp,
        }
    }
}

/// The move token of a `bestmove` line, exactly as sent (`Some("")` when it names none, `None`
/// for any other line). With [`parse_info`] the one reading of a search's output, shared by the
/// arena's async client and the analysis's synchronous one.
pub fn parse_bestmove(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("bestmove")?;
    Some(rest.split_whitespace().next().unwrap_or(""))
}

/// Reads score/depth from an `info` line with a score into `info`, and nodes from any `info`
/// line (only the first MultiPV line counts). Any text is accepted: numbers out of range or
/// garbled fields are ignored, never a panic.
pub fn parse_info(line: &str, info: &mut SearchInfo) {
    let mut toks = line.split_whitespace();
    if toks.next() != Some("info") {
        return;
    }
    let mut next = *info;
    let mut has_score = false;
    let mut nodes = None;
    while let Some(t) = toks.next() {
        match t {
            "multipv" => {
                let n = toks.next().and_then(|v| v.parse::<u32>().ok());
                if n.unwrap_or(1) > 1 {
                    return;
                }
            }
            "depth" => {
                if let Some(d) = toks.next().and_then(|v| v.parse::<u32>().ok()) {
                    next.depth = Some(d);
                }
            }
            "nodes" => nodes = toks.next().and_then(|v| v.parse::<u64>().ok()),
            "score" => {
                let kind = toks.next();
                let value = toks.next().and_then(|v| v.parse::<i32>().ok());
                match (kind, value) {
                    (Some("cp"), Some(cp)) => {
                        next.cp = Some(cp);
                        next.mate = None;
                        has_score = true;
                    }
                    (Some("mate"), Some(m)) => {
                        next.cp = None;
                        next.mate = Some(m);
                        has_score = true;
                    }
                    _ => {}
                }
            }
            // the rest of the line is moves or free text
            "pv" | "string" | "refutation" | "currline" => break,
            _ => {}
        }
    }
    if has_score {
        *info = next;
    }
    if nodes.is_some() {
        info.nodes = nodes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut i = SearchInfo::default();
        parse_info(
            "info depth 12 seldepth 15 multipv 1 score cp 35 nodes 100 nps 5 pv e2e4",
            &mut i,
        );
        assert_eq!((i.cp, i.depth), (Some(35), Some(12)));
        parse_info(
            "info depth 12 multipv 2 score cp -90 nodes 100 pv d2d4",
            &mut i,
        );
        assert_eq!(i.cp, Some(35));
        parse_info(
            "info depth 13 seldepth 20 multipv 1 score mate -3 wdl 0 0 1000 nodes 5 pv e2e4",
            &mut i,
        );
        assert_eq!((i.mate, i.depth), (Some(-3), Some(13)));
        assert_eq!(i.score_cp(), Some(-99_997));
        parse_info("info depth 14 score cp 20 lowerbound nodes 9", &mut i);
        assert_eq!((i.cp, i.mate), (Some(20), None));
        // depths past 255 (vampirc-uci's u8 would panic) and garbage are harmless
        parse_info(
            "info depth 256 seldepth 300 multipv 1 score cp 7 nodes 99999999999999999999999",
            &mut i,
        );
        assert_eq!((i.cp, i.depth), (Some(7), Some(256)));
        parse_info("info depth x score cp", &mut i);
        parse_info("info string score cp 900", &mut i);
        assert_eq!((i.cp, i.depth), (Some(7), Some(256)));
    }

    #[test]
    fn nodes_come_from_any_info_line() {
        let mut i = SearchInfo::default();
        parse_info(
            "info depth 9 multipv 1 score cp 32 nodes 99659 pv b1c3",
            &mut i,
        );
        assert_eq!(i.nodes, Some(99_659));
        parse_info(
            "info depth 9 multipv 2 score cp 28 nodes 99700 pv e2e4",
            &mut i,
        );
        assert_eq!(i.nodes, Some(99_659));
        // the closing line of a search stopped between iterations (skillcal's own engine)
        parse_info("info nodes 132245 nps 2448981 time 54", &mut i);
        assert_eq!((i.nodes, i.cp, i.depth), (Some(132_245), Some(32), Some(9)));
        // a line without a score moves neither score nor depth, free text moves nothing
        parse_info("info depth 15 currmove e2e4 currmovenumber 1", &mut i);
        parse_info("info string nodes 5", &mut i);
        assert_eq!((i.nodes, i.depth), (Some(132_245), Some(9)));
    }
}
