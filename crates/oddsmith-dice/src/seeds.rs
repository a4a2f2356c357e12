//! Named seed derivations: how every random number of a run is reached from the run's seed.
//!
//! - chunk *i* of a run's trials reads stream *i* of the seed ([`crate::Streams`], [`crate::stream`]);
//! - trial *t* of a paired run reads [`trial_stream`], seeded by the next number of its chunk's
//!   stream, so every variant of the duel replays the same dice;
//! - comparison part *k* runs on [`part_seed`];
//! - cell *k* of `[[check]]` number *c* runs on [`check_cell_seed`], cell *i* of a ruleset's
//!   check grid in reports on [`grid_cell_seed`];
//! - a result re-measured on fresh random numbers (the balance search's answer) runs on
//!   [`fresh_seed`].
//!
//! These formulas are part of the identity of every published number: the value-stability
//! tests below pin them, so a change cannot pass unnoticed.

use rand_core::{RngCore, SeedableRng};

use crate::Stream;

/// Multiplier of the per-part derivation (the wyhash constant).
const PART_MIX: u64 = 0xA076_1D64_78BD_642F;
/// Multiplier of the per-cell derivations (2^64 / φ, the golden-ratio increment).
const CELL_MIX: u64 = 0x9E37_79B9_7F4A_7C15;
/// Mask of the fresh re-measurement seed.
const FRESH_MASK: u64 = 0xD1B5_4A32_D192_ED03;
/// Cell numbers reserved per `[[check]]` in [`check_cell_seed`].
const CELLS_PER_CHECK: u64 = 1000;

/// The seed of comparison part `part` (in file order); part 0 runs on the file's seed itself,
/// the others on their own seeds, so the rulesets' estimates are independent samples.
pub fn part_seed(seed: u64, part: usize) -> u64 {
    seed ^ PART_MIX.wrapping_mul(part as u64)
}

/// The seed of cell `cell` (row-major) of `[[check]]` number `check` of a scenario.
pub fn check_cell_seed(seed: u64, check: usize, cell: usize) -> u64 {
    seed ^ CELL_MIX.wrapping_mul(cell as u64 + 1 + CELLS_PER_CHECK * check as u64)
}

/// The seed of cell `cell` of a ruleset's check grid (shown in run reports). It equals
/// [`check_cell_seed`]`(seed, 0, cell)`: the grid and a scenario's first `[[check]]` share
/// their cells' seeds, as they always have.
pub fn grid_cell_seed(seed: u64, cell: usize) -> u64 {
    seed ^ CELL_MIX.wrapping_mul(cell as u64 + 1)
}

/// A second seed for re-measuring a result on fresh random numbers, so that a value chosen
/// because its estimate looked good is not judged by that same estimate.
pub fn fresh_seed(seed: u64) -> u64 {
    seed ^ FRESH_MASK
}

/// The generator of the next trial of a paired run: seeded by the next number of the chunk's
/// stream, and built again from that number for every variant of the duel.
pub fn trial_stream(chunk: &mut Stream) -> Stream {
    trial_stream_of(chunk.next_u64())
}

/// The generator of a paired trial from its seed (the number [`trial_stream`] draws).
pub fn trial_stream_of(trial_seed: u64) -> Stream {
    Stream::seed_from_u64(trial_seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream;

    // Value-stability tests: the numbers were computed with the formulas the crates used
    // before these functions existed (`seed ^ C.wrapping_mul(…)`), not with these functions.

    #[test]
    fn part_seeds_are_pinned() {
        assert_eq!(part_seed(1, 0), 1);
        assert_eq!(part_seed(1, 1), 11562461410679940142);
        assert_eq!(part_seed(1, 2), 4678178747650328671);
        assert_eq!(part_seed(42, 0), 42);
        assert_eq!(part_seed(42, 1), 11562461410679940101);
        assert_eq!(part_seed(42, 2), 4678178747650328692);
    }

    #[test]
    fn check_cell_seeds_are_pinned() {
        assert_eq!(check_cell_seed(1, 0, 0), 11400714819323198484);
        assert_eq!(check_cell_seed(1, 0, 1), 4354685564936845355);
        assert_eq!(check_cell_seed(1, 2, 3), 9963334671264863333);
        assert_eq!(check_cell_seed(42, 0, 0), 11400714819323198527);
        assert_eq!(check_cell_seed(42, 0, 1), 4354685564936845312);
        assert_eq!(check_cell_seed(42, 2, 3), 9963334671264863310);
    }

    #[test]
    fn grid_cell_seeds_are_pinned_and_match_the_first_check() {
        assert_eq!(grid_cell_seed(1, 0), 11400714819323198484);
        assert_eq!(grid_cell_seed(1, 1), 4354685564936845355);
        assert_eq!(grid_cell_seed(1, 2), 15755400384260043838);
        assert_eq!(grid_cell_seed(42, 2), 15755400384260043797);
        for cell in 0..50 {
            assert_eq!(grid_cell_seed(7, cell), check_cell_seed(7, 0, cell));
        }
    }

    #[test]
    fn fresh_seeds_are_pinned() {
        assert_eq!(fresh_seed(1), 15111065706836454658);
        assert_eq!(fresh_seed(42), 15111065706836454697);
    }

    /// Checked against an independent SplitMix64 + xoshiro256++ implementation.
    #[test]
    fn trial_streams_are_pinned() {
        let mut chunk = stream(42, 0);
        let mut t = trial_stream(&mut chunk);
        let first3: [u64; 3] = std::array::from_fn(|_| t.next_u64());
        assert_eq!(
            first3,
            [
                5745406364259058299,
                14696793783180127503,
                16686435357133497469
            ]
        );
        // The chunk's stream moved on by exactly one number.
        assert_eq!(chunk.next_u64(), 5881210131331364753);
        assert_eq!(
            trial_stream_of(15021278609987233951).next_u64(),
            5745406364259058299
        );
    }
}
