//! Zobrist keys for any game, built at compile time from a fixed seed (splitmix64), so every
//! build of the engine hashes positions identically.

/// One splitmix64 step: the next state and the output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

/// `KINDS` x `CELLS` keys drawn in order (kind by kind, cell by cell) from `seed`, then one
/// more key for the side to move.
pub const fn zobrist_keys<const KINDS: usize, const CELLS: usize>(
    seed: u64,
) -> ([[u64; CELLS]; KINDS], u64) {
    let mut keys = [[0u64; CELLS]; KINDS];
    let mut state = seed;
    let mut kind = 0;
    while kind < KINDS {
        let mut cell = 0;
        while cell < CELLS {
            let (next, value) = splitmix64(state);
            state = next;
            keys[kind][cell] = value;
            cell += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_fixed_and_distinct() {
        const KEYS: ([[u64; 8]; 2], u64) = zobrist_keys::<2, 8>(1);
        // splitmix64's reference first output from state 0.
        assert_eq!(splitmix64(0).1, 0xe220_a839_7b1d_cdaf);
        let mut all: Vec<u64> = KEYS.0.iter().flatten().copied().collect();
        all.push(KEYS.1);
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }
}
