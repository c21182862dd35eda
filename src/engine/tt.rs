//! A game-agnostic transposition table, safe to share between search threads.
//!
//! Each entry is two `AtomicU64` words: the packed data and the key XOR-ed with the data.
//! A reader recomputes `key ^ data` and accepts the entry only when it matches, so an entry
//! torn by two threads writing at once is simply not found (the "XOR trick"); no `unsafe` and
//! no data race. Entries are grouped in buckets of four; a store replaces the same key or the
//! least valuable entry of the bucket (shallow and old first).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

/// What a stored score means relative to the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// Upper bound (all moves failed low).
    Upper = 1,
    /// Lower bound (a move failed high).
    Lower = 2,
    /// Exact score (a PV node).
    Exact = 3,
}

impl TtBound {
    fn from_bits(bits: u64) -> Option<TtBound> {
        match bits & 3 {
            1 => Some(TtBound::Upper),
            2 => Some(TtBound::Lower),
            3 => Some(TtBound::Exact),
            _ => None,
        }
    }
}

/// The content of one entry, as stored and as probed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    /// The game's 16-bit move encoding (0 = no move).
    pub move_bits: u16,
    /// The search score (the game adjusts mate scores by ply before storing).
    pub score: i16,
    /// The static evaluation of the position.
    pub eval: i16,
    /// Remaining depth the score was searched to (negative for quiescence).
    pub depth: i8,
    /// What the score means.
    pub bound: TtBound,
}

const BUCKET: usize = 4;
/// Bytes per entry (two 64-bit words).
const ENTRY_BYTES: usize = 16;

/// Packs data into one word: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(d: &TtData, age: u8) -> u64 {
    (d.move_bits as u64)
        | ((d.score as u16 as u64) << 16)
        | ((d.eval as u16 as u64) << 32)
        | ((d.depth as u8 as u64) << 48)
        | ((d.bound as u64) << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(w: u64) -> Option<(TtData, u8)> {
    let bound = TtBound::from_bits(w >> 56)?;
    Some((
        TtData {
            move_bits: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8 as i8,
            bound,
        },
        ((w >> 58) & 63) as u8,
    ))
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared table. `&TranspositionTable` is `Sync`: threads probe and store concurrently.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    age: AtomicU8,
    /// Something was stored since the table was made or cleared (else it is all zeros).
    written: AtomicBool,
}

/// A table of the size asked for could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The size asked for, in megabytes.
    pub mb: usize,
}

impl std::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a hash table of {} MB", self.mb)
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket), all entries empty, or the
    /// error when the memory cannot be had (nothing is allocated then).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableAllocError> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let n = buckets.saturating_mul(BUCKET);
        // Ask for the memory once without keeping it, so a refusal is an error rather than
        // an abort; then allocate it the way the allocator can hand out untouched zeroed
        // pages (a table costs resident memory only as the search fills it).
        Vec::<Entry>::new()
            .try_reserve_exact(n)
            .map_err(|_| TableAllocError { mb })?;
        Ok(TranspositionTable::with_buckets(buckets))
    }

    /// A table of `buckets` empty buckets (allocation failure aborts).
    fn with_buckets(buckets: usize) -> TranspositionTable {
        let mut entries = Vec::with_capacity(buckets * BUCKET);
        entries.resize_with(buckets * BUCKET, Entry::default);
        TranspositionTable {
            entries,
            buckets,
            age: AtomicU8::new(0),
            written: AtomicBool::new(false),
        }
    }

    /// A table of about `mb` megabytes, or of the largest power-of-two fraction of it that
    /// can be allocated (one megabyte at the least).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut mb = mb.max(1);
        loop {
            match TranspositionTable::try_new(mb) {
                Ok(table) => return table,
                Err(_) if mb > 1 => mb /= 2,
                // Not even a megabyte: one bucket, so the search still works.
                Err(_) => return TranspositionTable::with_buckets(1),
            }
        }
    }

    /// Size in megabytes as allocated.
    pub fn size_mb(&self) -> usize {
        (self.entries.len() * ENTRY_BYTES) >> 20
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        // A table nothing was stored in is still all zeros, and its pages are still untouched
        // (no resident memory): writing zeros over it would make all of it resident at once,
        // say for a new game before the manager's memory limit shrinks the table.
        if *self.written.get_mut() {
            for e in &mut self.entries {
                *e.check.get_mut() = 0;
                *e.data.get_mut() = 0;
            }
            *self.written.get_mut() = false;
        }
        *self.age.get_mut() = 0;
    }

    /// Marks the start of a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Entry] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.entries[index * BUCKET..index * BUCKET + BUCKET]
    }

    /// Asks the CPU to fetch the bucket of `key` (a hint only; currently a plain read).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let _ = self.bucket(key)[0].data.load(Ordering::Relaxed);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtData> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return unpack(data).map(|(d, _)| d);
            }
        }
        None
    }

    /// Stores `data` for `key`. An existing entry of the same key keeps its move when the new
    /// data has none, and is kept when it is deeper and exact-or-equal information would be lost.
    pub fn store(&self, key: u64, mut data: TtData) {
        // Read on every store, written once: the line stays shared between threads.
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let old = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if old == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let Some((od, oage)) = unpack(old) else {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            };
            if check ^ old == key {
                if data.move_bits == 0 {
                    data.move_bits = od.move_bits;
                }
                // Keep a much deeper entry unless the new one is exact.
                if data.bound != TtBound::Exact && (od.depth as i32) > data.depth as i32 + 3 {
                    return;
                }
                victim = i;
                break;
            }
            let age_gap = (age.wrapping_sub(oage) & 63) as i32;
            let worth = od.depth as i32 - 8 * age_gap;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let word = pack(&data, age);
        let e = &bucket[victim];
        e.data.store(word, Ordering::Relaxed);
        e.check.store(key ^ word, Ordering::Relaxed);
    }

    /// Fill of the table in permille, sampled from the first thousand entries of this age.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.entries.len().min(1000);
        if sample == 0 {
            return 0;
        }
        let used = self.entries[..sample]
            .iter()
            .filter(|e| unpack(e.data.load(Ordering::Relaxed)).is_some_and(|(_, a)| a == age))
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        // More bytes than the address space: the reservation fails before any allocation.
        let err = TranspositionTable::try_new(usize::MAX >> 20).err();
        assert_eq!(
            err,
            Some(TableAllocError {
                mb: usize::MAX >> 20
            })
        );
        let small = TranspositionTable::try_new(1).expect("one megabyte");
        assert_eq!(small.size_mb(), 1);
    }

    fn data(mv: u16, score: i16, depth: i8, bound: TtBound) -> TtData {
        TtData {
            move_bits: mv,
            score,
            eval: -score,
            depth,
            bound,
        }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let d = data(1234, -3000, -1, TtBound::Lower);
        tt.store(0xdead_beef_0000_1111, d);
        assert_eq!(tt.probe(0xdead_beef_0000_1111), Some(d));
        assert_eq!(tt.probe(0xdead_beef_0000_1112), None);
    }

    #[test]
    fn clear_forgets_what_was_stored_and_a_cleared_table_stays_clear() {
        let mut tt = TranspositionTable::new(1);
        tt.clear();
        assert_eq!(tt.probe(42), None);
        tt.store(42, data(77, 10, 5, TtBound::Exact));
        tt.clear();
        assert_eq!(tt.probe(42), None);
        tt.store(43, data(78, 11, 5, TtBound::Lower));
        tt.clear();
        tt.clear();
        assert_eq!(tt.probe(43), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn same_key_keeps_move_when_new_data_has_none() {
        let tt = TranspositionTable::new(1);
        tt.store(42, data(77, 10, 5, TtBound::Exact));
        tt.store(42, data(0, 20, 6, TtBound::Upper));
        let got = tt.probe(42).expect("entry");
        assert_eq!((got.move_bits, got.score, got.depth), (77, 20, 6));
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest() {
        let tt = TranspositionTable::new(1);
        // Keys with the same high bits land in the same bucket.
        let keys: Vec<u64> = (0..5u64).map(|i| 0x8000_0000_0000_0000 | i).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, data(1, 0, 10 + i as i8, TtBound::Exact));
        }
        tt.store(keys[4], data(2, 0, 3, TtBound::Exact));
        assert_eq!(tt.probe(keys[0]), None, "the shallowest entry was replaced");
        assert!(tt.probe(keys[4]).is_some());
        for &k in &keys[1..4] {
            assert!(tt.probe(k).is_some());
        }
    }

    #[test]
    fn clear_empties_and_hashfull_counts() {
        let mut tt = TranspositionTable::new(1);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                data(1, 0, 1, TtBound::Exact),
            );
        }
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.probe(0), None);
    }
}
