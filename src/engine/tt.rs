//! Transposition table: 16-byte entries in 4-entry buckets (one cache line), depth-preferred
//! replacement with aging, scores stored as 16-bit values ply-adjusted for mates (the Chess
//! Programming Wiki's Score page).

use super::score::{from_tt, to_tt, Bound};

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: i8,
    /// Bits 0-1: bound (0 = empty, 1 exact, 2 lower, 3 upper); bits 2-7: generation.
    flags: u8,
}

const BUCKET: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Move code (`position::encode`), 0 if none.
    pub mv: u16,
    /// Root-relative score (already ply-adjusted).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct Tt {
    buckets: Vec<Bucket>,
    generation: u8,
}

fn bound_bits(b: Bound) -> u8 {
    match b {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    }
}

impl Tt {
    /// A table of about `mb` mebibytes (rounded down to a power of two buckets, at least 1).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Tt {
            buckets: vec![Bucket::default(); n],
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Called once per search so older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift keeps every key bit relevant for any power-of-two size.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts loading the bucket of `key` into the cache while the caller does other work.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = &self.buckets[self.index(key)] as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; the pointer is a valid element of the table.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let b = &self.buckets[self.index(key)];
        for e in &b.0 {
            if e.key == key && e.flags & 3 != 0 {
                let bound = match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                };
                return Some(Hit {
                    mv: e.mv,
                    score: from_tt(e.score, ply),
                    eval: i32::from(e.eval),
                    depth: i32::from(e.depth),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result; `score` is root-relative and gets ply-adjusted here.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation;
        let idx = self.index(key);
        let b = &mut self.buckets[idx];
        // Same key: overwrite (keeping the old move if the new result has none).
        // Otherwise replace the entry worth least: shallow and from older searches.
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in b.0.iter().enumerate() {
            if e.key == key || e.flags & 3 == 0 {
                victim = i;
                break;
            }
            let age = i32::from((generation.wrapping_sub(e.flags >> 2)) & 63);
            let worth = i32::from(e.depth) - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let e = &mut b.0[victim];
        let same = e.key == key && e.flags & 3 != 0;
        // Keep a deeper exact-ish entry of the same position from this search.
        if same
            && bound != Bound::Exact
            && i32::from(e.depth) > depth + 2
            && (e.flags >> 2) == generation
        {
            if e.mv == 0 {
                e.mv = mv;
            }
            return;
        }
        let keep_mv = if mv == 0 && same { e.mv } else { mv };
        *e = Entry {
            key,
            mv: keep_mv,
            score: to_tt(score, ply),
            eval: eval.clamp(-32000, 32000) as i16,
            depth: depth.clamp(-1, 127) as i8,
            flags: bound_bits(bound) | (generation << 2),
        };
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.0 {
                if e.flags & 3 != 0 && (e.flags >> 2) == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in};

    #[test]
    fn stores_and_reads_mates_relative_to_ply() {
        let mut tt = Tt::new(1);
        tt.store(42, 3, 7, mate_in(9), 0, 5, Bound::Exact);
        let hit = tt.probe(42, 3).unwrap();
        assert_eq!(hit.score, mate_in(9));
        assert_eq!(hit.mv, 7);
        // The same position reached 2 plies closer to the root: mate is 2 plies shorter.
        assert_eq!(tt.probe(42, 1).unwrap().score, mate_in(7));
        tt.store(43, 6, 0, mated_in(10), 0, 5, Bound::Upper);
        assert_eq!(tt.probe(43, 2).unwrap().score, mated_in(6));
        assert!(tt.probe(44, 0).is_none());
    }
}
