//! The one list of rulesets.
//!
//! The list is the [`rulesets!`](crate::rulesets) invocation in `lib.rs`: one line per ruleset
//! (its module and type) declares the module and yields both [`RULESET_IDS`] and [`visit`], so
//! the two cannot drift apart. Adding a ruleset adds one line there.

use crate::Ruleset;

/// Declares the ruleset modules and the registry; invoked once, in `lib.rs`.
///
/// `rulesets! { draft::Draft, d20::D20 }` declares `pub mod draft; pub mod d20;` and the
/// crate-private list behind [`RULESET_IDS`] and [`visit`], in the order given.
#[macro_export]
#[doc(hidden)]
macro_rules! rulesets {
    ($($module:ident :: $ty:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// Ids of every ruleset, in listing order (see [`registry`]).
        const REGISTERED_IDS: &[&str] = &[$(<$module::$ty as $crate::Ruleset>::ID),+];

        /// The module of every ruleset, in listing order (a ruleset's id is its module's name).
        #[cfg(test)]
        const REGISTERED_MODULES: &[&str] = &[$(stringify!($module)),+];

        /// Runs `v` with the registered ruleset called `id` (see [`registry::visit`]).
        fn visit_registered<V: $crate::RulesetVisitor>(id: &str, v: V) -> Option<V::Output> {
            $(
                if id == <$module::$ty as $crate::Ruleset>::ID {
                    return Some(v.visit::<$module::$ty>());
                }
            )+
            None
        }
    };
}

/// Ids of every ruleset, in listing order.
pub const RULESET_IDS: &[&str] = crate::REGISTERED_IDS;

/// Something generic over the ruleset, run by [`visit`] with the concrete type.
pub trait RulesetVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the ruleset type named by the id.
    fn visit<R: Ruleset>(self) -> Self::Output;
}

/// Runs `v` with the ruleset called `id`; `None` if there is no such ruleset.
pub fn visit<V: RulesetVisitor>(id: &str, v: V) -> Option<V::Output> {
    crate::visit_registered(id, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports the id of the type it is run with.
    struct IdOf;

    impl RulesetVisitor for IdOf {
        type Output = &'static str;
        fn visit<R: Ruleset>(self) -> &'static str {
            R::ID
        }
    }

    #[test]
    fn every_id_reaches_its_own_type() {
        for &id in RULESET_IDS {
            assert_eq!(visit(id, IdOf), Some(id), "visit({id:?})");
        }
        assert_eq!(visit("no such ruleset", IdOf), None);
    }

    /// Runs the documentation checks on the type it is run with.
    struct CheckDocs;

    impl RulesetVisitor for CheckDocs {
        type Output = ();
        fn visit<R: Ruleset>(self) {
            crate::testing::check_docs::<R>();
        }
    }

    #[test]
    fn every_ruleset_documents_every_field_and_option() {
        for &id in RULESET_IDS {
            visit(id, CheckDocs).expect("registered");
        }
    }

    /// Checks the counter names of the type it is run with: at most `MAX_COUNTERS`, unique,
    /// and a full set laid out per side (`a_x` at `k`, `b_x` at `PER_SIDE + k`), the layout
    /// `Tally::count_side` writes.
    struct CheckCounters;

    impl RulesetVisitor for CheckCounters {
        type Output = ();
        fn visit<R: Ruleset>(self) {
            let r = R::new(R::Options::default()).expect("default options are valid");
            let names = r.counter_names();
            assert!(
                names.len() <= crate::MAX_COUNTERS,
                "{}: too many counters",
                R::ID
            );
            for (i, a) in names.iter().enumerate() {
                assert!(
                    !names[i + 1..].contains(a),
                    "{}: counter {a:?} twice",
                    R::ID
                );
            }
            if names.len() == crate::MAX_COUNTERS {
                let per = crate::outcome::PER_SIDE;
                for k in 0..per {
                    let a = names[k].strip_prefix("a_");
                    let b = names[per + k].strip_prefix("b_");
                    assert!(
                        a.is_some() && a == b,
                        "{}: counters {k} and {}",
                        R::ID,
                        per + k
                    );
                }
            }
        }
    }

    #[test]
    fn counter_names_follow_the_per_side_layout() {
        for &id in RULESET_IDS {
            visit(id, CheckCounters).expect("registered");
        }
    }

    /// The list comes from the one `rulesets!` invocation: each id is its module's name, in
    /// listing order, and unique (a new ruleset edits no id list here).
    #[test]
    fn ids_are_unique_and_listed_in_order() {
        for (i, a) in RULESET_IDS.iter().enumerate() {
            assert!(!RULESET_IDS[i + 1..].contains(a), "{a:?} listed twice");
        }
        assert_eq!(RULESET_IDS, crate::REGISTERED_MODULES);
        assert!(!RULESET_IDS.is_empty());
    }
}
