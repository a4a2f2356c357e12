//! Reproducible, non-overlapping random streams derived from one seed.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::iter::FusedIterator;

/// The generator behind every stream: xoshiro256++.
pub type Stream = Xoshiro256PlusPlus;

/// An endless iterator over the streams 0, 1, 2, … of one seed.
///
/// The base generator is `Xoshiro256PlusPlus::seed_from_u64(seed)`; stream `i`
/// is the base advanced by `i` calls of [`Xoshiro256PlusPlus::jump`] (2^128
/// steps each), so distinct streams never overlap in practice.
#[derive(Clone, Debug)]
pub struct Streams {
    next: Stream,
}

impl Streams {
    /// Streams of `seed`, starting with stream 0.
    pub fn new(seed: u64) -> Self {
        Self::starting_at(seed, 0)
    }

    /// Streams of `seed`, starting with stream `first_index` (costs `first_index` jumps).
    pub fn starting_at(seed: u64, first_index: u64) -> Self {
        let mut next = Stream::seed_from_u64(seed);
        for _ in 0..first_index {
            next.jump();
        }
        Self { next }
    }
}

impl Iterator for Streams {
    type Item = Stream;

    #[inline]
    fn next(&mut self) -> Option<Stream> {
        let current = self.next.clone();
        self.next.jump();
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX, None)
    }
}

impl FusedIterator for Streams {}

/// Stream `index` of `seed`; the same generator as the `index`-th item of [`Streams::new`].
pub fn stream(seed: u64, index: u64) -> Stream {
    Streams::starting_at(seed, index).next
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    fn first4(mut s: Stream) -> [u64; 4] {
        std::array::from_fn(|_| s.next_u64())
    }

    /// Pins published numbers: if a dependency upgrade changes seeding or
    /// jumping, this fails instead of silently changing results. Values were
    /// cross-checked against an independent SplitMix64 + xoshiro256++ + jump
    /// implementation.
    #[test]
    fn value_stability_seed_42() {
        assert_eq!(
            first4(stream(42, 0)),
            [
                15021278609987233951,
                5881210131331364753,
                18149643915985481100,
                12933668939759105464
            ]
        );
        assert_eq!(
            first4(stream(42, 1)),
            [
                13886555598616206053,
                6751983904886340403,
                635420893945114766,
                15945997345469317965
            ]
        );
    }

    #[test]
    fn iterator_matches_stream_fn() {
        let from_iter: Vec<_> = Streams::new(7).take(4).map(first4).collect();
        let direct: Vec<_> = (0..4).map(|i| first4(stream(7, i))).collect();
        assert_eq!(from_iter, direct);
        let later: Vec<_> = Streams::starting_at(7, 2).take(2).map(first4).collect();
        assert_eq!(later, direct[2..]);
    }
}
