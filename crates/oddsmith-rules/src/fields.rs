//! Serde helpers shared by rulesets' scenario-side types.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::{Serialize, Serializer};

/// Deserializes an integer and checks it lies in `LO..=HI`, so no scenario value can make the
/// duel's arithmetic overflow.
pub(crate) fn de_range<'de, D, const LO: i64, const HI: i64>(d: D) -> Result<i32, D::Error>
where
    D: Deserializer<'de>,
{
    let v = i64::deserialize(d)?;
    if (LO..=HI).contains(&v) {
        Ok(v as i32)
    } else {
        Err(de::Error::custom(format!(
            "{v} is out of range: expected an integer from {LO} to {HI}"
        )))
    }
}

/// A table entry that is either a built-in (given by name) or written inline as a table.
///
/// Implemented by the statistics type of an [`Entry`] (then `Entry<T>` deserializes itself),
/// or by a spec type whose `Deserialize` calls [`de_builtin`].
pub trait Builtin: Sized {
    /// The inline form, deserialized with serde (`deny_unknown_fields`).
    type Table: DeserializeOwned;
    /// What serde reports as expected, e.g. `a weapon name (e.g. "sword") or a table { … }`.
    const EXPECTING: &'static str;
    /// Looks a built-in up by name; the error is the message shown as is (see [`unknown`]).
    fn by_name(name: &str) -> Result<Self, String>;
    /// The statistics of an inline table (e.g. with a default name filled in).
    fn from_table(table: Self::Table) -> Self;
}

/// Deserializes a [`Builtin`] given by name or as an inline table.
pub(crate) fn de_builtin<'de, D: Deserializer<'de>, T: Builtin>(d: D) -> Result<T, D::Error> {
    struct V<T>(PhantomData<T>);
    impl<'de, T: Builtin> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::by_name(v).map_err(E::custom)
        }
        fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<T, M::Error> {
            T::Table::deserialize(de::value::MapAccessDeserializer::new(m)).map(T::from_table)
        }
    }
    d.deserialize_any(V(PhantomData))
}

/// The message for an unknown built-in name: `unknown {what} {name:?}; {lead}: {names}{hint}`
/// (`names` comma-separated; `hint` empty or starting with a space, e.g.
/// ` (or a table { resistance = 3 })`).
pub(crate) fn unknown(what: &str, name: &str, lead: &str, names: &str, hint: &str) -> String {
    format!("unknown {what} {name:?}; {lead}: {names}{hint}")
}

/// `name`, or `fallback` if it is empty (inline tables may leave their name out).
pub(crate) fn name_or(name: String, fallback: &str) -> String {
    if name.is_empty() {
        fallback.into()
    } else {
        name
    }
}

/// Something with a display name (a weapon's statistics, say).
pub trait Named {
    /// The name shown in reports and written back to scenario files.
    fn name(&self) -> &str;
}

/// A table entry chosen by built-in name or written inline; serialized back the same way.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<T> {
    /// The resolved statistics.
    pub stats: T,
    /// Whether it was given by built-in name (serialized back as the name).
    pub builtin: bool,
}

impl<'de, T: Builtin> Deserialize<'de> for Entry<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Tagged<T>(T, bool);
        impl<T: Builtin> Builtin for Tagged<T> {
            type Table = T::Table;
            const EXPECTING: &'static str = T::EXPECTING;
            fn by_name(name: &str) -> Result<Self, String> {
                T::by_name(name).map(|t| Tagged(t, true))
            }
            fn from_table(table: T::Table) -> Self {
                Tagged(T::from_table(table), false)
            }
        }
        let Tagged(stats, builtin) = de_builtin::<D, Tagged<T>>(d)?;
        Ok(Entry { stats, builtin })
    }
}

impl<T: Serialize + Named> Serialize for Entry<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.builtin {
            s.serialize_str(self.stats.name())
        } else {
            self.stats.serialize(s)
        }
    }
}

/// Checks a declared bound: `Err` names `field` with `{v} is out of range: expected {lo} to
/// {hi}`.
pub fn check_range(field: &str, v: i64, lo: i64, hi: i64) -> Result<(), crate::RulesError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(crate::RulesError::field(
            field,
            format!("{v} is out of range: expected {lo} to {hi}"),
        ))
    }
}

/// Declares a ruleset's options from one table: the struct (with its doc comments and serde
/// attributes), its `Default`, its documentation list and its range checks.
///
/// Each option is written once: `name: Type = default_value[, in LO..=HI] => ("default as
/// TOML", "one-line doc for `oddsmith rulesets`"),`. The macro adds `pub` to every field and
/// gives the struct `DOCS` (every option's [`crate::FieldDoc`], in order) and `check_ranges`
/// (every declared bound, for `Ruleset::new`). An option cannot be declared without its doc.
#[macro_export]
#[doc(hidden)]
macro_rules! options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $default:expr
                    $(, in $lo:literal ..= $hi:literal)?
                    => ($deftext:literal, $doc:literal $(,)?),
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $($field: $default,)*
                }
            }
        }

        impl $name {
            /// Documentation of every option, in declaration order.
            pub const DOCS: &'static [$crate::FieldDoc] = &[
                $($crate::FieldDoc {
                    name: stringify!($field),
                    default: $deftext,
                    doc: $doc,
                },)*
            ];

            /// Checks every option declared with bounds (`in LO..=HI`).
            pub fn check_ranges(&self) -> Result<(), $crate::RulesError> {
                $($(
                    $crate::fields::check_range(
                        stringify!($field),
                        i64::from(self.$field),
                        $lo,
                        $hi,
                    )?;
                )?)*
                Ok(())
            }
        }
    };
}
