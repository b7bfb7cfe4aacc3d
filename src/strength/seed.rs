//! Seeds for the weakening: every random choice of a search comes from the engine seed, the
//! position and the game ply, so the same seed and the same moves give the same choices.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// ChaCha stream of the ScoreInaccuracy root Errors.
const ERROR_STREAM: u64 = 1;
/// ChaCha stream of the MultiPV choice noise; separate so that changing the noise model never
/// changes the Errors of the same move.
const NOISE_STREAM: u64 = 2;
/// ChaCha stream of a policy's sampled move (`Style=maia` with `PolicyTemperature` above 0).
const POLICY_STREAM: u64 = 3;
/// ChaCha stream of `Style human`'s drawn choice (`HumanTemperature` above 0).
const HUMAN_STREAM: u64 = 4;
/// ChaCha stream of `HumanTime`'s drawn think time (apart, so the time never changes the move).
const THINK_STREAM: u64 = 5;

/// SplitMix64 finaliser: spreads nearby inputs (ply n, n + 1) over the whole 64-bit range.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of one search: a hash of the engine seed (`RandomSeed`, already resolved from the clock
/// if it was 0), the position's Zobrist key (or any stable hash of its FEN) and the game ply.
///
/// The ply is included so that a repeated position later in the game draws fresh Errors.
pub fn move_seed(seed: u64, position_key: u64, ply: u32) -> u64 {
    let a = mix64(seed ^ 0x5eed_5eed_5eed_5eed);
    let b = mix64(a ^ position_key);
    mix64(b ^ u64::from(ply).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The ScoreInaccuracy Errors of one search: `n_moves` independent uniform integers in
/// `[-si, +si]`, index `i` for the `i`-th legal root move in the move generator's order (not the
/// search's order, which depends on the transposition table). At `si = 0` all Errors are 0.
pub fn root_errors(move_seed: u64, n_moves: usize, si: u32) -> Vec<i32> {
    if si == 0 {
        return vec![0; n_moves];
    }
    let si = si as i32;
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    rng.set_stream(ERROR_STREAM);
    (0..n_moves).map(|_| rng.random_range(-si..=si)).collect()
}

/// The generator for the MultiPV choice noise of one search (see [`super::noise::choose`]).
pub fn noise_rng(move_seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    rng.set_stream(NOISE_STREAM);
    rng
}

/// The generator that samples a policy's move (`Style=maia`, [`crate::strength::Maia`]).
pub fn policy_rng(move_seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    rng.set_stream(POLICY_STREAM);
    rng
}

/// The generator of `Style human`'s drawn choice of one move ([`crate::strength::HumanOptions`]).
pub fn human_rng(move_seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    rng.set_stream(HUMAN_STREAM);
    rng
}

/// The generator of `HumanTime`'s drawn think time over one move.
pub fn think_rng(move_seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    rng.set_stream(THINK_STREAM);
    rng
}

/// Salt of the evaluation-noise seed, so it never equals a move seed of the same engine seed.
const EVAL_NOISE_SALT: u64 = 0xe7a1_0015_e000_0000;

/// The seed of the evaluation noise: the engine seed alone (no position, no ply), so a position
/// gets the same noise in every search of a game and the transposition table's entries, kept
/// from one move to the next, stay consistent with the evaluation.
pub fn eval_noise_seed(seed: u64) -> u64 {
    mix64(seed ^ EVAL_NOISE_SALT)
}

/// The evaluation noise of the position with Zobrist key `key` (cp, before clamping):
/// `round(sigma * z)`, with `z = sqrt(3) * (u_1 + u_2 + u_3 + u_4 - 2)` and `u_j` the four
/// 16-bit quarters of `mix64(key ^ noise_seed)` mapped to `(j + 0.5) / 65536`. That is the
/// Irwin-Hall approximation of a standard normal: mean 0, variance 1 (to within 2^-32), bounded
/// by `2 sqrt(3) ~ 3.46` standard deviations, so one position can never swing without limit.
pub fn eval_noise(key: u64, noise_seed: u64, sigma: i32) -> i32 {
    let h = mix64(key ^ noise_seed);
    let sum: f64 = (0..4)
        .map(|j| ((h >> (16 * j)) & 0xffff) as f64 + 0.5)
        .sum::<f64>()
        / 65536.0;
    let z = 3f64.sqrt() * (sum - 2.0);
    (f64::from(sigma) * z).round() as i32
}

/// Largest `RandomSeed`: kept within a signed 32-bit spin, which every GUI can represent.
pub const MAX_RANDOM_SEED: u64 = i32::MAX as u64;

/// A seed from the clock for `RandomSeed = 0`, in `1..=MAX_RANDOM_SEED` (2147483647): the range
/// the `RandomSeed` option accepts, so the seed the engine prints (`info string`) can be entered
/// in any GUI's spin box to replay the games.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    mix64(nanos ^ u64::from(std::process::id())) % MAX_RANDOM_SEED + 1
}
