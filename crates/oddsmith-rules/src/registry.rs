//! The one place that lists every ruleset. Adding a ruleset adds one line here.

use crate::Ruleset;

/// Ids of every ruleset, in listing order.
pub const RULESET_IDS: &[&str] = &[
    crate::draft::Draft::ID,
    crate::gamecraft::Gamecraft::ID,
    crate::d20::D20::ID,
];

/// Something generic over the ruleset, run by [`visit`] with the concrete type.
pub trait RulesetVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the ruleset type named by the id.
    fn visit<R: Ruleset>(self) -> Self::Output;
}

/// Runs `v` with the ruleset called `id`; `None` if there is no such ruleset.
pub fn visit<V: RulesetVisitor>(id: &str, v: V) -> Option<V::Output> {
    match id {
        crate::draft::Draft::ID => Some(v.visit::<crate::draft::Draft>()),
        crate::gamecraft::Gamecraft::ID => Some(v.visit::<crate::gamecraft::Gamecraft>()),
        crate::d20::D20::ID => Some(v.visit::<crate::d20::D20>()),
        _ => None,
    }
}
