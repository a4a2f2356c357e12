//! Serde helpers shared by rulesets' scenario-side types.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
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

/// Deserializes a table entry given either by name (looked up with `by_name`, whose error
/// message is shown as is) or as an inline table of type `T` (turned into `N` by `by_table`).
pub(crate) fn name_or_table<'de, D, T, N>(
    d: D,
    expecting: &'static str,
    by_name: impl FnOnce(&str) -> Result<N, String>,
    by_table: impl FnOnce(T) -> N,
) -> Result<N, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct V<F, G, T>(&'static str, F, G, PhantomData<T>);
    impl<'de, T, N, F, G> Visitor<'de> for V<F, G, T>
    where
        T: Deserialize<'de>,
        F: FnOnce(&str) -> Result<N, String>,
        G: FnOnce(T) -> N,
    {
        type Value = N;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(self.0)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<N, E> {
            (self.1)(v).map_err(E::custom)
        }
        fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<N, M::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(m)).map(self.2)
        }
    }
    d.deserialize_any(V(expecting, by_name, by_table, PhantomData))
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

impl<T: Serialize + Named> Serialize for Entry<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.builtin {
            s.serialize_str(self.stats.name())
        } else {
            self.stats.serialize(s)
        }
    }
}
