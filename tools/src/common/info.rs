//! The one parser of UCI `info` lines.

use sparring::score::Score;

/// Whether a reported score is exact or only a bound of a failed aspiration window.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The fields of one `info` line that the tools use (absent fields are `None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// `score cp N` / `score mate N`, the side to move's view.
    pub score: Option<Score>,
    /// `lowerbound` / `upperbound` after the score (or anywhere before `pv`).
    pub bound: Option<Bound>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    /// Milliseconds.
    pub time: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    /// The moves after `pv` (`Some(empty)` for a bare `pv`).
    pub pv: Option<Vec<String>>,
}

impl Info {
    /// Parses an `info` line; `None` for other lines and for `info string …`. Tokens it does not
    /// know are skipped; a value that does not parse leaves its field `None`.
    pub fn parse(line: &str) -> Option<Info> {
        let mut toks = line.split_whitespace();
        if toks.next() != Some("info") {
            return None;
        }
        let toks: Vec<&str> = toks.collect();
        let mut info = Info::default();
        let mut i = 0;
        let next = |j: usize| toks.get(j).copied().unwrap_or("");
        while i < toks.len() {
            match toks[i] {
                "depth" => info.depth = next(i + 1).parse().ok(),
                "seldepth" => info.seldepth = next(i + 1).parse().ok(),
                "multipv" => info.multipv = next(i + 1).parse().ok(),
                "nodes" => info.nodes = next(i + 1).parse().ok(),
                "nps" => info.nps = next(i + 1).parse().ok(),
                "time" => info.time = next(i + 1).parse().ok(),
                "hashfull" => info.hashfull = next(i + 1).parse().ok(),
                "tbhits" => info.tbhits = next(i + 1).parse().ok(),
                "score" => {
                    let v = next(i + 2).parse::<i32>().ok();
                    info.score = match next(i + 1) {
                        "cp" => v.map(Score::Cp),
                        "mate" => v.map(Score::Mate),
                        _ => None,
                    };
                    info.bound.get_or_insert(Bound::Exact);
                    i += 3;
                    continue;
                }
                "lowerbound" | "upperbound" => {
                    info.bound = Some(if toks[i] == "lowerbound" { Bound::Lower } else { Bound::Upper });
                    i += 1;
                    continue;
                }
                "pv" => {
                    info.pv = Some(toks[i + 1..].iter().map(|s| s.to_string()).collect());
                    break;
                }
                "string" => return None,
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        Some(info)
    }

    /// The score when it is exact (not a bound).
    pub fn exact_score(&self) -> Option<Score> {
        match self.bound {
            Some(Bound::Lower | Bound::Upper) => None,
            _ => self.score,
        }
    }

    /// The first move of the PV.
    pub fn first_move(&self) -> Option<&str> {
        self.pv.as_ref()?.first().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        let i = Info::parse(
            "info depth 6 seldepth 9 multipv 2 score cp 34 lowerbound nodes 2000 nps 76923 hashfull 3 tbhits 0 \
             time 26 pv e2e4 e7e5",
        )
        .unwrap();
        assert_eq!((i.depth, i.seldepth, i.multipv), (Some(6), Some(9), Some(2)));
        assert_eq!((i.score, i.bound), (Some(Score::Cp(34)), Some(Bound::Lower)));
        assert_eq!(
            (i.nodes, i.nps, i.time, i.hashfull, i.tbhits),
            (Some(2000), Some(76923), Some(26), Some(3), Some(0))
        );
        assert_eq!(i.pv, Some(vec!["e2e4".to_string(), "e7e5".to_string()]));
        assert_eq!(i.exact_score(), None);
        let m = Info::parse("info depth 9 score mate -2 upperbound pv a1a8").unwrap();
        assert_eq!((m.score, m.bound), (Some(Score::Mate(-2)), Some(Bound::Upper)));
        let e = Info::parse("info score mate 3 depth 4").unwrap();
        assert_eq!((e.exact_score(), e.depth, e.first_move()), (Some(Score::Mate(3)), Some(4), None));
        assert_eq!(Info::parse("info string score cp 5"), None);
        assert_eq!(Info::parse("bestmove e2e4"), None);
        assert_eq!(Info::parse("info depth x score cp y currmove e2e4 pv").unwrap().pv, Some(vec![]));
    }
}
