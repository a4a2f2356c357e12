//! Dice primitives for oddsmith: reproducible RNG streams and named seed derivations
//! ([`seeds`]), fair and exploding
//! die rolls, decks of cards drawn without replacement ([`deck`]), exact discrete
//! distributions with integer weights, and a small
//! dice-expression language (`2d10+5`, `3d6!`, `1d6+str`).
//!
//! All randomness comes from an `&mut R where R: RngCore` supplied by the
//! caller; nothing here touches a global RNG, the clock or IO. The rolling
//! algorithms are hand-written so that published numbers stay stable when the
//! `rand` ecosystem changes its own algorithms.
//!
//! Decks ([`deck`]) deal a hand in one call (`Deck::deal_with`, tested against one draw after
//! another), keep cards showing across rounds (`Deck::discard_out_except`), and give exact
//! hypergeometric best-of-N and hand-against-hand distributions. Streams ([`Streams`]) are
//! Xoshiro256++ advanced by `jump()` per stream, so they never overlap; every other seed comes
//! from a named derivation in [`seeds`], pinned by value-stability tests.

pub mod deck;
mod dist;
mod error;
mod expr;
mod roll;
pub mod seeds;
mod stream;

pub use deck::{Card, Deck, Hand};
pub use dist::Dist;
pub use error::DiceError;
pub use expr::{DiceExpr, ParseError, no_vars};
pub use roll::{Die, roll, roll_exploding, uniform_below};
pub use stream::{Stream, Streams, stream};
