//! Writes a synthetic games.csv for the rating benchmark (scripts/bench/rate-bench.sh):
//! `cargo run --release --example rating_gen_games -- OUT [GAMES] [PLAYERS] [SEED]`.
//! Players P00.. have true ratings spread evenly over 1200..2600; each opening pair is two
//! games between random opponents at most 600 Elo apart, colours swapped, outcomes drawn from
//! the rating module's Davidson-logistic model (draw rate 1/3 between equals).

use std::io::Write;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillcal::rating::model::{expected_score, outcome_probabilities};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        anyhow::bail!("usage: rating_gen_games OUT [GAMES] [PLAYERS] [SEED]");
    };
    let games: usize = args.get(1).map_or(Ok(100_000), |s| s.parse())?;
    let players: usize = args.get(2).map_or(Ok(30), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth: Vec<f64> = (0..players)
        .map(|i| 1200.0 + 1400.0 * i as f64 / (players - 1).max(1) as f64)
        .collect();
    let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
    writeln!(
        w,
        "game_id,pair_id,round,white,black,white_settings,black_settings,opening_id,opening_fen,result,termination,plies,seconds,seed"
    )?;
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let mut id = 0;
    let mut pair = 0;
    while id < games {
        let a = rng.random_range(0..players);
        let b = rng.random_range(0..players);
        if a == b || (truth[a] - truth[b]).abs() > 600.0 {
            continue;
        }
        pair += 1;
        for (wp, bp) in [(a, b), (b, a)] {
            if id == games {
                break;
            }
            id += 1;
            let p = outcome_probabilities(expected_score(truth[wp] - truth[bp]), 1.0);
            let u: f64 = rng.random();
            let result = if u < p.win {
                "1-0"
            } else if u < p.win + p.draw {
                "1/2-1/2"
            } else {
                "0-1"
            };
            writeln!(
                w,
                "{id},{pair},{pair},P{wp:02},P{bp:02},,,1,{fen},{result},adjudication,80,1.0,{id}"
            )?;
        }
    }
    w.flush()?;
    eprintln!("wrote {games} games of {players} players to {out}");
    Ok(())
}
