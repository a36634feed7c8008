//! How likely a side's moves are under the human move model v7 (Maia-3) at a grid of ratings:
//! the reading of strength estimator v3 builds on (issue 63). For every move of one side the model
//! sees the game's last positions (its history) and a rating pair (the side's input and the
//! opponent's, both the grid rating: the estimator knows neither player's rating); the side's
//! log-likelihood at a rating is the sum of ln P of the moves it played. One batched evaluation
//! per move covers the whole grid. The grid's inputs are on the model's scale (Lichess blitz); a
//! population's map (`model_map` of a ladder, e.g. FICS 220 + 1.13·rating) turns them back into
//! that population's ratings, [`SideLikelihood::on_scale`].

use crate::common::games::GameRecord;
use shakmaty::{Color, Position};
use sparring::human::maia3::{History, Maia3};

/// Model rating inputs of the default grid (the estimator v3 models' grid): 1000 to 2800 in six
/// steps of 360. The populations' ratings map into it (FICS blitz 800-2400 onto 1124-2932, FIDE
/// 1000-2700 onto 1630-2837); six evaluations a move keep a season of games under an hour on
/// two cores (`bench/results/estimate-v3/`).
pub const DEFAULT_GRID: [i64; 6] = [1000, 1360, 1720, 2080, 2440, 2800];
/// The half-move from which moves are counted by default: the book's moves say little.
pub const FROM_PLY: usize = 8;

/// One side's log-likelihood over the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct SideLikelihood {
    pub side: Color,
    /// The grid's model inputs, ascending.
    pub grid: Vec<i64>,
    /// Σ ln P(move played) of the side's moves at each input of the grid.
    pub ll: Vec<f64>,
    /// The side's moves counted (from `from_ply` on, every legal move the model knows).
    pub moves: usize,
}

impl SideLikelihood {
    /// The input of highest likelihood, refined by the parabola through the best grid point and
    /// its neighbours (the best grid point itself at an end of the grid or where the parabola
    /// is not concave).
    pub fn best(&self) -> f64 {
        let k = self.argmax();
        match self.parabola(k) {
            Some((vertex, curvature)) if curvature < 0.0 => vertex,
            _ => self.grid[k] as f64,
        }
    }

    /// The second difference of the log-likelihood per (100 rating points)² at the best grid
    /// point (0 at an end of the grid): how sharply the moves pick a rating out.
    pub fn curvature(&self) -> f64 {
        self.parabola(self.argmax()).map_or(0.0, |(_, c)| c)
    }

    /// `best()` on a population's scale, for a map `input = a + b·rating`.
    pub fn on_scale(&self, (a, b): (f64, f64)) -> f64 {
        (self.best() - a) / b
    }

    fn argmax(&self) -> usize {
        (0..self.ll.len()).fold(0, |b, i| if self.ll[i] > self.ll[b] { i } else { b })
    }

    /// The vertex and curvature (per 100²) of the parabola through points k-1, k, k+1, which must
    /// be evenly spaced.
    fn parabola(&self, k: usize) -> Option<(f64, f64)> {
        if k == 0 || k + 1 >= self.ll.len() {
            return None;
        }
        let h = (self.grid[k + 1] - self.grid[k]) as f64;
        if (self.grid[k] - self.grid[k - 1]) as f64 != h {
            return None;
        }
        let (y0, y1, y2) = (self.ll[k - 1], self.ll[k], self.ll[k + 1]);
        let second = y0 - 2.0 * y1 + y2;
        let vertex = self.grid[k] as f64 + if second != 0.0 { h * (y0 - y2) / (2.0 * second) } else { 0.0 };
        Some((vertex, second * (100.0 / h).powi(2)))
    }
}

/// Both sides' log-likelihoods of `game` over `grid` (ascending model inputs), counting the moves
/// from half-move `from_ply` on (the opening book's moves say little about a player). White first.
pub fn game_likelihood(
    model: &Maia3,
    game: &GameRecord,
    grid: &[i64],
    from_ply: usize,
) -> Result<[SideLikelihood; 2], String> {
    moves_likelihood(model, &game.root, &game.moves, grid, from_ply)
}

/// [`game_likelihood`] of the moves `moves` played from `root`.
pub fn moves_likelihood(
    model: &Maia3,
    root: &shakmaty::Chess,
    moves: &[shakmaty::Move],
    grid: &[i64],
    from_ply: usize,
) -> Result<[SideLikelihood; 2], String> {
    if grid.is_empty() || grid.windows(2).any(|w| w[0] >= w[1]) {
        return Err("the rating grid must be ascending and not empty".into());
    }
    let side = |c| SideLikelihood { side: c, grid: grid.to_vec(), ll: vec![0.0; grid.len()], moves: 0 };
    let mut out = [side(Color::White), side(Color::Black)];
    let pairs: Vec<(i64, i64)> = grid.iter().map(|&r| (r, r)).collect();
    let mut pos = root.clone();
    for (ply, &mv) in moves.iter().enumerate() {
        if ply >= from_ply && pos.legal_moves().len() > 1 {
            let history = History::game(root, &moves[..ply])?;
            let dists = model.distributions(&history, &pairs);
            let s = &mut out[usize::from(pos.turn() == Color::Black)];
            let known: Option<Vec<f64>> =
                dists.iter().map(|d| d.iter().find(|p| p.mv == mv).map(|p| p.log_prob)).collect();
            if let Some(lps) = known {
                for (ll, lp) in s.ll.iter_mut().zip(lps) {
                    *ll += lp;
                }
                s.moves += 1;
            }
        }
        pos = pos.play(mv).map_err(|e| format!("ply {}: {e}", ply + 1))?;
    }
    Ok(out)
}

/// `sparring strength likelihood`: the reading per game side, as CSV.
#[derive(clap::Parser, Debug)]
#[command(
    name = "sparring strength likelihood",
    about = "Each game side's log-likelihood of its moves under the human move model v7 (Maia-3) over a rating grid, \
             its best rating (model scale and, with --map, the population's) and curvature, as CSV"
)]
pub struct LikelihoodCli {
    /// PGN file.
    pub file: std::path::PathBuf,
    /// Model rating inputs (Lichess blitz scale), ascending, evenly spaced for the refinement.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_GRID)]
    pub grid: Vec<i64>,
    /// Count moves from this half-move on (the book's moves say little about a player).
    #[arg(long, default_value_t = FROM_PLY)]
    pub from_ply: usize,
    /// The population's map onto the model's scale, A,B for input = A + B·rating (FICS blitz
    /// 220,1.13; FIDE-rated online 920,0.71): adds the best rating on the population's scale.
    #[arg(long, value_delimiter = ',')]
    pub map: Vec<f64>,
    #[command(flatten)]
    pub select: super::cli::GameSelection,
    /// Games read at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
}

/// Runs `sparring strength likelihood`: one CSV row per game side on stdout, the throughput on stderr.
pub fn run_cli(c: LikelihoodCli) -> Result<(), String> {
    let map = match c.map[..] {
        [a, b] if b > 0.0 => Some((a, b)),
        [] => None,
        _ => return Err("--map A,B needs B > 0".into()),
    };
    if c.grid.is_empty() || c.grid.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("--grid {:?}: the ratings must be ascending and not empty", c.grid));
    }
    let model = sparring::human::maia3::builtin()?;
    let mut games = crate::common::games::read_games(&c.file)?;
    games.retain(|g| c.select.keeps(g.number));
    games.truncate(c.select.limit.unwrap_or(usize::MAX));
    let start = std::time::Instant::now();
    let jobs = c.jobs.max(1);
    let chunk = games.len().div_ceil(jobs).max(1);
    let rows: Vec<Result<[SideLikelihood; 2], String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|part| {
                let grid = &c.grid;
                scope
                    .spawn(move || part.iter().map(|g| game_likelihood(model, g, grid, c.from_ply)).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("likelihood worker")).collect()
    });
    let ll_columns: Vec<String> = c.grid.iter().map(|r| format!("ll_{r}")).collect();
    println!("game,color,player,rating,moves,best_model,best_rating,curvature,{}", ll_columns.join(","));
    let mut moves = 0;
    for (g, r) in games.iter().zip(rows) {
        let sides = r.map_err(|e| format!("game {}: {e}", g.number))?;
        for s in &sides {
            let (name, rating) = if s.side == Color::White { (&g.white, g.white_elo) } else { (&g.black, g.black_elo) };
            moves += s.moves;
            let on_scale = map.map_or(String::new(), |m| format!("{:.0}", s.on_scale(m)));
            // Every sum printed exactly (shortest round trip), so the CSV serves as a cache.
            let ll: Vec<String> = s.ll.iter().map(|x| format!("{x:?}")).collect();
            println!(
                "{},{},\"{}\",{},{},{:.0},{on_scale},{:.4},{}",
                g.number,
                if s.side == Color::White { "white" } else { "black" },
                name.replace('"', "'"),
                rating.map_or(String::new(), |r| r.to_string()),
                s.moves,
                s.best(),
                s.curvature(),
                ll.join(",")
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "sparring strength likelihood: {} games, {moves} moves × {} ratings in {secs:.1} s ({:.1} moves/s, {jobs} jobs)",
        games.len(),
        c.grid.len(),
        moves as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// Reads the CSV of `sparring strength likelihood` back (a cache: the model's evaluations are
/// most of an estimate's cost): each (game number, side) with its sums over the CSV's grid.
pub fn read_csv(text: &str) -> Result<std::collections::HashMap<(usize, Color), SideLikelihood>, String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("empty likelihood CSV")?.split(',').collect();
    let col = |n: &str| header.iter().position(|c| *c == n).ok_or(format!("likelihood CSV lacks a '{n}' column"));
    let (cg, cc, cm) = (col("game")?, col("color")?, col("moves")?);
    let grid: Vec<(usize, i64)> = header
        .iter()
        .enumerate()
        .filter_map(|(i, h)| h.strip_prefix("ll_").and_then(|r| r.parse().ok()).map(|r| (i, r)))
        .collect();
    if grid.is_empty() {
        return Err("likelihood CSV has no ll_<rating> columns".into());
    }
    let mut out = std::collections::HashMap::new();
    for (i, line) in lines.enumerate() {
        // The player's name is quoted and may hold commas: split the fields around it.
        let fields = split_csv(line);
        let bad = || format!("likelihood CSV line {}: cannot read '{line}'", i + 2);
        let game: usize = fields.get(cg).and_then(|v| v.parse().ok()).ok_or_else(bad)?;
        let side = match fields.get(cc).map(String::as_str) {
            Some("white") => Color::White,
            Some("black") => Color::Black,
            _ => return Err(bad()),
        };
        let moves: usize = fields.get(cm).and_then(|v| v.parse().ok()).ok_or_else(bad)?;
        let ll = grid
            .iter()
            .map(|&(c, _)| fields.get(c).and_then(|v| v.parse::<f64>().ok()).ok_or_else(bad))
            .collect::<Result<Vec<f64>, String>>()?;
        let grid = grid.iter().map(|g| g.1).collect();
        out.insert((game, side), SideLikelihood { side, grid, ll, moves });
    }
    Ok(out)
}

/// The fields of one CSV line; a field in double quotes may hold commas.
fn split_csv(line: &str) -> Vec<String> {
    let (mut fields, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    fields.push(cur);
    fields
}
