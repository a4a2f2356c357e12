//! The crate-wide error type.

use crate::expr::ParseError;

/// Errors from building distributions or evaluating dice expressions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiceError {
    /// An exact weight, total or outcome no longer fits its integer type.
    #[error("arithmetic overflow in exact dice distribution")]
    Overflow,
    /// A distribution was built from no outcomes or only zero weights.
    #[error("distribution has no outcome with non-zero weight")]
    Empty,
    /// A die with an unusable number of sides (e.g. zero).
    #[error("invalid die with {sides} sides")]
    InvalidSides {
        /// The rejected number of sides.
        sides: u32,
    },
    /// A distribution would span more outcomes than [`crate::Dist::MAX_SPAN`].
    #[error("distribution would span {span} outcomes (at most {max} supported)")]
    TooWide {
        /// The number of outcomes that would have been needed.
        span: u128,
        /// The supported maximum.
        max: usize,
    },
    /// An exact distribution was requested for unlimited exploding dice.
    #[error(
        "unlimited exploding dice have no finite exact distribution; give a limit such as `3d6!5`"
    )]
    Unbounded,
    /// A dice expression referred to a variable the caller did not supply.
    #[error("unknown variable `{0}` in dice expression")]
    UnknownVariable(String),
    /// A dice expression failed to parse.
    #[error(transparent)]
    Parse(#[from] ParseError),
}
