//! Serde helpers shared by rulesets' scenario-side types.
//!
//! - `options!`: an options struct or nested option table: the struct, `Default`, a
//!   `Deserialize` with every key optional and `in LO..=HI` bounds checked while reading (so
//!   errors carry file:line:col), `DOCS` and `check_ranges`.
//! - `spec!`: a fighter spec with its `DOCS`; `check_params!`: a check's accepted names and
//!   `DOCS`.
//! - `Bounded`/`Within`, `de_range`; `Builtin` + `Entry<T>`: a built-in name or an inline table,
//!   one deserialiser.
//!
//! **Built-in or inline tables.** A weapon, an armour, a species… is given by a built-in's name
//! (`armor = "mail"`) or as an inline table (`armor = { name = "mail", dr = 30 }`). Every inline
//! table type is declared once with [`inline!`](crate::inline): each field is either required
//! or has a documented default. The table is read with every key optional (so a bad value is
//! reported at its own key), then resolved by [`de_builtin`]: a table whose `name` is a
//! built-in's inherits that built-in's fields, the given ones overriding; any other table takes
//! the documented defaults and must give the required fields. A name close to a built-in's
//! (a likely typo) with fields left to their defaults is refused with "did you mean".

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor,
};
use serde::{Serialize, Serializer};

use crate::FieldDoc;
use crate::schema::{Prop, Shape};

/// Deserializes an integer and checks it lies in `LO..=HI`, so no scenario value can make the
/// duel's arithmetic overflow.
pub(crate) fn de_range<'de, D, const LO: i64, const HI: i64>(d: D) -> Result<i32, D::Error>
where
    D: Deserializer<'de>,
{
    Within::<i32>::new(LO, HI).deserialize(d)
}

/// Like [`de_range`], for an optional value (`None` when the key is absent: give the field
/// `#[serde(default)]`).
pub(crate) fn de_opt_range<'de, D, const LO: i64, const HI: i64>(
    d: D,
) -> Result<Option<i32>, D::Error>
where
    D: Deserializer<'de>,
{
    Within::<i32>::new(LO, HI).deserialize(d).map(Some)
}

/// The candidate closest to `name` by edit distance (case, `_`, `-` and spaces ignored), if it
/// is close enough to be a likely typo: at most a third of the name's length (at least 1, at
/// most 3) edits, counting a swap of neighbours as one. Ties go to the earlier candidate. The
/// one "did you mean" rule of oddsmith (the scenario loader's messages use it too).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '_' | '-' => ' ',
                c => c.to_ascii_lowercase(),
            })
            .collect()
    };
    let n = norm(name);
    let limit = (n.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = strsim::osa_distance(&n, &norm(c));
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// An inline table type declared with [`inline!`](crate::inline): its fields, their docs and
/// defaults, and how a table as written (every key optional) becomes the statistics.
pub trait Inline: Sized {
    /// The table as written: every key optional, unknown keys refused, bounds checked as each
    /// value is read (so the error carries the key's file:line:col).
    type Table: DeserializeOwned;
    /// Every field's doc, in declaration order (`default` is `required` for a required field).
    const DOCS: &'static [FieldDoc];
    /// The `name` key, if given.
    fn given_name(table: &Self::Table) -> Option<&str>;
    /// The fields left out of `table` (`name` aside).
    fn omitted(table: &Self::Table) -> Vec<&'static str>;
    /// The statistics: the given fields over `base` (a built-in's statistics), or without a
    /// base over the documented defaults; `Err` lists the required fields left out.
    fn resolve(table: Self::Table, base: Option<Self>) -> Result<Self, Vec<&'static str>>;
    /// Every field's doc, shape and bounds, for `oddsmith schema`.
    fn props() -> Vec<Prop>;
}

/// A table entry that is either a built-in (given by name) or written inline as a table.
///
/// Implemented by the statistics type of an [`Entry`] (then `Entry<T>` deserializes itself),
/// or by a spec type whose `Deserialize` calls [`de_builtin`].
pub trait Builtin: Sized {
    /// The inline form's statistics, declared with [`inline!`](crate::inline).
    type Stats: Inline;
    /// What an entry is, for messages: `weapon`, `armour`, `species`.
    const WHAT: &'static str;
    /// What serde reports as expected, e.g. `a weapon name (e.g. "sword") or a table { … }`.
    const EXPECTING: &'static str;
    /// The built-ins' names, for messages and the JSON Schema.
    fn names() -> Vec<&'static str>;
    /// Looks a built-in up by name; the error is the message shown as is (see [`unknown`]).
    fn by_name(name: &str) -> Result<Self, String>;
    /// The statistics an inline table named `name` inherits: `None` if `name` is no built-in's,
    /// `Some(Err(message))` for a built-in whose statistics cannot be known here (then the
    /// table must give every field).
    fn base(name: &str) -> Option<Result<Self::Stats, String>>;
    /// The entry for an inline table's resolved statistics.
    fn from_stats(stats: Self::Stats) -> Self;
}

/// Deserializes a [`Builtin`] given by name or as an inline table.
pub(crate) fn de_builtin<'de, D: Deserializer<'de>, T: Builtin>(d: D) -> Result<T, D::Error> {
    de_entry::<D, T>(d).map(|(t, _)| t)
}

/// [`de_builtin`], and whether the entry was given by name.
fn de_entry<'de, D: Deserializer<'de>, T: Builtin>(d: D) -> Result<(T, bool), D::Error> {
    struct V<T>(PhantomData<T>);
    impl<'de, T: Builtin> Visitor<'de> for V<T> {
        type Value = (T, bool);
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<(T, bool), E> {
            T::by_name(v).map(|t| (t, true)).map_err(E::custom)
        }
        fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<(T, bool), M::Error> {
            let table =
                <T::Stats as Inline>::Table::deserialize(de::value::MapAccessDeserializer::new(m))?;
            resolve_table::<T>(table)
                .map(|s| (T::from_stats(s), false))
                .map_err(de::Error::custom)
        }
    }
    d.deserialize_any(V(PhantomData))
}

/// An inline table's statistics (see the module doc), or the message.
fn resolve_table<T: Builtin>(table: <T::Stats as Inline>::Table) -> Result<T::Stats, String> {
    let what = T::WHAT;
    let name = <T::Stats as Inline>::given_name(&table).map(str::to_string);
    let omitted = <T::Stats as Inline>::omitted(&table);
    let base = match name.as_deref().and_then(T::base) {
        Some(Ok(b)) => Some(b),
        Some(Err(m)) if !omitted.is_empty() => return Err(m),
        _ => None,
    };
    let names = T::names();
    if base.is_none()
        && let Some(n) = name.as_deref()
        && let Some(close) = suggest(n, names.iter().copied())
        && !omitted.is_empty()
    {
        return Err(format!(
            "{what} {n:?} is not a built-in {what}; did you mean name = {close:?}? An inline \
             table named like a built-in inherits its fields; this one names none, so {} would \
             take their defaults or be missing (give every field to define a new {what})",
            list(&omitted)
        ));
    }
    let inherits = base.is_some();
    <T::Stats as Inline>::resolve(table, base).map_err(|missing| {
        debug_assert!(!inherits);
        format!(
            "missing {} in the inline {what} table: required unless its name is a built-in \
             {what}'s ({}), whose fields it then inherits",
            list(&missing),
            names.join(", ")
        )
    })
}

/// `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``.
fn list(fields: &[&str]) -> String {
    let q: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
    match q.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The message for an unknown built-in name: `unknown {what} {name:?}; {lead}: {names}{hint}`
/// (`names` comma-separated; `hint` empty or starting with a space, e.g.
/// ` (or a table { resistance = 3 })`).
pub(crate) fn unknown(what: &str, name: &str, lead: &str, names: &str, hint: &str) -> String {
    format!("unknown {what} {name:?}; {lead}: {names}{hint}")
}

/// Something with a display name (a weapon's statistics, say).
pub trait Named {
    /// The name shown in reports and written back to scenario files.
    fn name(&self) -> &str;
}

/// A table entry chosen by built-in name or written inline; serialized back the same way (an
/// inline table with every field, so it reads back to the same statistics).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<T> {
    /// The resolved statistics.
    pub stats: T,
    /// Whether it was given by built-in name (serialized back as the name).
    pub builtin: bool,
}

impl<T: Builtin> Entry<T> {
    /// The built-in named `name`, as if written `key = "name"`.
    pub fn named(name: &str) -> Result<Self, String> {
        T::by_name(name).map(|stats| Entry {
            stats,
            builtin: true,
        })
    }
}

impl<'de, T: Builtin> Deserialize<'de> for Entry<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (stats, builtin) = de_entry::<D, T>(d)?;
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

/// A fighter field that takes a built-in's name or an inline table (declared `field: Type,
/// inline` in [`spec!`](crate::spec)): its table's docs for `oddsmith rulesets` and its shape
/// for `oddsmith schema`.
pub trait InlineField {
    /// What an entry is (`weapon`).
    const WHAT: &'static str;
    /// The inline table's fields.
    const FIELDS: &'static [FieldDoc];
    /// The field's shape: a built-in's name or the declared table.
    fn shape() -> Shape;
}

fn builtin_shape<T: Builtin>() -> Shape {
    Shape::Builtin {
        names: T::names(),
        table: Box::new(Shape::Object {
            props: T::Stats::props(),
            closed: true,
        }),
    }
}

impl<T: Builtin> InlineField for T {
    const WHAT: &'static str = T::WHAT;
    const FIELDS: &'static [FieldDoc] = <T::Stats as Inline>::DOCS;
    fn shape() -> Shape {
        builtin_shape::<T>()
    }
}

impl<T: Builtin> InlineField for Entry<T> {
    const WHAT: &'static str = T::WHAT;
    const FIELDS: &'static [FieldDoc] = <T::Stats as Inline>::DOCS;
    fn shape() -> Shape {
        builtin_shape::<T>()
    }
}

impl<T: InlineField> InlineField for Option<T> {
    const WHAT: &'static str = T::WHAT;
    const FIELDS: &'static [FieldDoc] = T::FIELDS;
    fn shape() -> Shape {
        Shape::Optional(Box::new(T::shape()))
    }
}

/// Adds fighter field `key` of type `T` to `tables` (one entry per table type, its keys
/// gathered): for [`spec!`](crate::spec)'s `Declared::tables`.
pub fn add_table<T: InlineField>(tables: &mut Vec<crate::TableDoc>, key: &'static str) {
    match tables
        .iter_mut()
        .find(|t| std::ptr::eq(t.fields, T::FIELDS) || t.fields == T::FIELDS)
    {
        Some(t) => t.keys.push(key),
        None => tables.push(crate::TableDoc {
            keys: vec![key],
            what: T::WHAT,
            fields: T::FIELDS,
        }),
    }
}

/// A value whose bounds are declared beside its field (`in LO..=HI` in [`options!`](crate::options),
/// or [`de_range`]) and checked while it is deserialized, so the error carries the key's
/// file:line:col.
pub trait Bounded: DeserializeOwned {
    /// The type of the declared bounds.
    type Bound: Copy;
    /// `None` if every number in `self` lies in `lo..=hi`, else the message.
    fn out_of_range(&self, lo: Self::Bound, hi: Self::Bound) -> Option<String>;
}

macro_rules! bounded_int {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            type Bound = i64;
            fn out_of_range(&self, lo: i64, hi: i64) -> Option<String> {
                let v = i64::from(*self);
                (!(lo..=hi).contains(&v))
                    .then(|| format!("{v} is out of range: expected an integer from {lo} to {hi}"))
            }
        }
    )*};
}
bounded_int!(i32, u8, u16, u32, i64);

impl Bounded for [f64; 3] {
    type Bound = f64;
    fn out_of_range(&self, lo: f64, hi: f64) -> Option<String> {
        self.iter()
            .find(|v| !(v.is_finite() && (lo..=hi).contains(*v)))
            .map(|v| format!("{v} is out of range: expected numbers from {lo} to {hi}"))
    }
}

impl Bounded for Vec<(i32, i32)> {
    type Bound = i64;
    fn out_of_range(&self, lo: i64, hi: i64) -> Option<String> {
        self.iter()
            .flat_map(|&(a, b)| [a, b])
            .find(|&v| !(lo..=hi).contains(&i64::from(v)))
            .map(|v| format!("{v} is out of range: expected integers from {lo} to {hi}"))
    }
}

/// Deserializes a [`Bounded`] value and checks its declared bounds (a serde seed).
pub struct Within<T: Bounded> {
    lo: T::Bound,
    hi: T::Bound,
    _t: PhantomData<T>,
}

impl<T: Bounded> Within<T> {
    /// The bounds `lo..=hi`.
    pub const fn new(lo: T::Bound, hi: T::Bound) -> Self {
        Within {
            lo,
            hi,
            _t: PhantomData,
        }
    }
}

impl<'de, T: Bounded> DeserializeSeed<'de> for Within<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        let v = T::deserialize(d)?;
        match v.out_of_range(self.lo, self.hi) {
            None => Ok(v),
            Some(m) => Err(de::Error::custom(m)),
        }
    }
}

/// `e` with its field path put under `prefix` (`light` → `wound_penalties.light`).
pub fn nested(prefix: &str, e: crate::RulesError) -> crate::RulesError {
    match e {
        crate::RulesError::InvalidField { field, message } => {
            crate::RulesError::field(format!("{prefix}.{field}"), message)
        }
        other => other,
    }
}

/// Declares a ruleset's options (or a nested option table) from one table: the struct (with
/// its doc comments and serialize attributes), its `Default`, its `Deserialize`, its
/// documentation list and its bounds.
///
/// Each option is written once: `name: Type = default_value[, in LO..=HI | , @nested] =>
/// ("default as TOML", "one-line doc for `oddsmith rulesets`"),`. The macro adds `pub` to
/// every field and gives the struct:
/// - `Deserialize`: every key optional (a missing one keeps its declared default, so a nested
///   table may be given in part), unknown keys refused, and a value declared `in LO..=HI`
///   ([`Bounded`]) checked as it is read, so the error carries the key's file:line:col;
/// - `DOCS`: every option's [`crate::FieldDoc`], in order (an option cannot be declared
///   without its doc);
/// - `check_ranges`: the same bounds (and those of `@nested` tables, under their path) for
///   options built in code, which `Ruleset::new` calls;
/// - for a ruleset's own options table, declared `pub struct Name: RulesetOptions` (with a
///   `max_rounds: u32` option): [`RulesetOptions`](crate::RulesetOptions);
/// - [`Declared`](crate::schema::Declared): every option's doc, bounds and shape, for
///   `oddsmith schema`.
///
/// After the table, `requires = &[…];` declares the options read only with another option
/// ([`Documented::REQUIRES`](crate::Documented::REQUIRES)).
///
/// Derive `Serialize` (not `Deserialize`) on the struct.
#[macro_export]
#[doc(hidden)]
macro_rules! options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident $(: $top:ident)? {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $default:expr
                    $(, in $lo:literal ..= $hi:literal)?
                    $(, @$nested:ident)?
                    => ($deftext:literal, $doc:literal $(, $mk:ident $mkargs:tt)? $(,)?),
            )*
        }
        $(requires = $req:expr;)?
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

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[allow(non_camel_case_types)]
                #[derive(::serde::Deserialize)]
                #[serde(field_identifier)]
                enum Key {
                    $($field,)*
                }
                struct V;
                impl<'de> ::serde::de::Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter) -> ::std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        let mut out = $name::default();
                        while let Some(k) = map.next_key::<Key>()? {
                            match k {
                                $(Key::$field => {
                                    out.$field = $crate::__option_value!(map, $ty $(, $lo, $hi)?);
                                })*
                            }
                        }
                        Ok(out)
                    }
                }
                const FIELDS: &[&str] = &[$(stringify!($field),)*];
                d.deserialize_struct(stringify!($name), FIELDS, V)
            }
        }

        impl $name {
            /// Documentation of every option, in declaration order.
            pub const DOCS: &'static [$crate::FieldDoc] = &[
                $($crate::FieldDoc {
                    name: stringify!($field),
                    default: $deftext,
                    doc: $doc,
                    mark: $crate::__mark!($($mk $mkargs)?),
                },)*
            ];
        }

        impl $crate::Documented for $name {
            const DOCS: &'static [$crate::FieldDoc] = $name::DOCS;
            $(const REQUIRES: &'static [$crate::Requires] = $req;)?
        }

        impl $crate::schema::Declared for $name {
            fn props() -> Vec<$crate::schema::Prop> {
                let shapes = vec![$($crate::__option_shape!($ty $(, @$nested)?),)*];
                let bounds: Vec<Option<(f64, f64)>> = vec![
                    $($crate::__option_bounds!($($lo, $hi)?),)*
                ];
                Self::DOCS
                    .iter()
                    .zip(shapes)
                    .zip(bounds)
                    .map(|((d, s), b)| $crate::schema::Prop::declared(*d, s, b))
                    .collect()
            }
        }

        impl $name {
            /// Every marked option ([`Mark`]($crate::Mark)) with its dotted path, nested
            /// tables' under theirs, in declaration order.
            pub fn marks() -> Vec<(String, $crate::FieldDoc)> {
                #[allow(unused_mut)]
                let mut out: Vec<(String, $crate::FieldDoc)> = Vec::new();
                let mut docs = Self::DOCS.iter();
                $(
                    let d = docs.next().expect("one doc per option");
                    $crate::__option_marks!(out, d, $ty $(, @$nested)?);
                )*
                out
            }

            /// Checks every declared bound (`in LO..=HI`, and nested tables under their path):
            /// for options built in code; deserialized ones were checked as they were read.
            pub fn check_ranges(&self) -> Result<(), $crate::RulesError> {
                $(
                    $(
                        if let Some(m) = $crate::fields::Bounded::out_of_range(&self.$field, $lo, $hi) {
                            return Err($crate::RulesError::field(stringify!($field), m));
                        }
                    )?
                    $(
                        let _ = stringify!($nested);
                        self.$field
                            .check_ranges()
                            .map_err(|e| $crate::fields::nested(stringify!($field), e))?;
                    )?
                )*
                Ok(())
            }
        }

        $(
            impl $crate::$top for $name {
                fn check_ranges(&self) -> Result<(), $crate::RulesError> {
                    $name::check_ranges(self)
                }
                fn marks() -> Vec<(String, $crate::FieldDoc)> {
                    $name::marks()
                }
                #[inline]
                fn max_rounds(&self) -> u32 {
                    self.max_rounds
                }
            }
        )?
    };
}

/// A declared [`Mark`](crate::Mark) inside [`options!`], [`spec!`] and [`inline!`]: nothing,
/// `reading [v1, v2, …]`, `invented (LO, HI, "why")` or `placeholder (LO, HI, "why")`; each
/// value a TOML literal (strings quoted), kept as its TOML text.
#[macro_export]
#[doc(hidden)]
macro_rules! __mark {
    () => {
        $crate::Mark::None
    };
    (reading [$($v:literal),+ $(,)?]) => {
        $crate::Mark::Reading {
            values: &[$(stringify!($v)),+],
        }
    };
    (invented ($lo:literal, $hi:literal, $why:literal $(,)?)) => {
        $crate::Mark::Invented {
            low: stringify!($lo),
            high: stringify!($hi),
            why: $why,
        }
    };
    (placeholder ($lo:literal, $hi:literal, $why:literal $(,)?)) => {
        $crate::Mark::Placeholder {
            low: stringify!($lo),
            high: stringify!($hi),
            why: $why,
        }
    };
}

/// One option's value inside [`options!`]'s `Deserialize`: bounded or plain.
#[macro_export]
#[doc(hidden)]
macro_rules! __option_value {
    ($map:ident, $ty:ty) => {
        $map.next_value::<$ty>()?
    };
    ($map:ident, $ty:ty, $lo:literal, $hi:literal) => {
        $map.next_value_seed($crate::fields::Within::<$ty>::new($lo, $hi))?
    };
}

/// One option's shape inside [`options!`]: a nested table's own declarations, else traced.
#[macro_export]
#[doc(hidden)]
macro_rules! __option_shape {
    ($ty:ty) => {
        $crate::schema::trace::<$ty>()
    };
    ($ty:ty, @$nested:ident) => {
        $crate::schema::Shape::Object {
            props: <$ty as $crate::schema::Declared>::props(),
            closed: true,
        }
    };
}

/// One option's marks inside [`options!`]: its own, or a nested table's under its path.
#[macro_export]
#[doc(hidden)]
macro_rules! __option_marks {
    ($out:ident, $doc:ident, $ty:ty) => {
        if !$doc.mark.is_none() {
            $out.push(($doc.name.to_string(), *$doc));
        }
    };
    ($out:ident, $doc:ident, $ty:ty, @$nested:ident) => {
        for (path, d) in <$ty>::marks() {
            $out.push((format!("{}.{}", $doc.name, path), d));
        }
    };
}

/// One option's declared bounds inside [`options!`], if any.
#[macro_export]
#[doc(hidden)]
macro_rules! __option_bounds {
    () => {
        None
    };
    ($lo:literal, $hi:literal) => {
        Some(($lo as f64, $hi as f64))
    };
}

/// Declares a fighter spec with its documentation from one table: the struct (with its doc
/// comments and serde attributes, passed through), `DOCS`, every field's
/// [`crate::FieldDoc`] in order, so a field cannot be declared without its doc, and
/// [`Declared`](crate::schema::Declared) (each field's doc, its `de_range` bounds and the
/// shape of its type, for `oddsmith schema`).
///
/// Each field: `name: Type [as "toml_name"] [, inline] => ("default as TOML", "one-line doc"),`
/// (`as` when serde renames the field; `inline` for a built-in's name or an inline table, an
/// [`InlineField`], whose table is then documented and given a schema from its declaration).
/// Bounds stay in the field's serde attributes (`deserialize_with = "de_range::<_, LO, HI>"`).
/// After the table, `requires = &[…];` declares the fields read only with another setting
/// ([`Documented::REQUIRES`](crate::Documented::REQUIRES)).
#[macro_export]
#[doc(hidden)]
macro_rules! spec {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty $(as $toml:literal)? $(, $inline:ident)?
                    => ($deftext:literal, $doc:literal $(, $mk:ident $mkargs:tt)? $(,)?),
            )*
        }
        $(requires = $req:expr;)?
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
        }

        impl $name {
            /// Documentation of every field, in declaration order.
            pub const DOCS: &'static [$crate::FieldDoc] = &[
                $($crate::FieldDoc {
                    name: $crate::__doc_name!($field $(, $toml)?),
                    default: $deftext,
                    doc: $doc,
                    mark: $crate::__mark!($($mk $mkargs)?),
                },)*
            ];
        }

        impl $crate::Documented for $name {
            const DOCS: &'static [$crate::FieldDoc] = $name::DOCS;
            $(const REQUIRES: &'static [$crate::Requires] = $req;)?
        }

        impl $crate::schema::Declared for $name {
            fn props() -> Vec<$crate::schema::Prop> {
                let attrs: &[&str] = &[$(stringify!($(#[$fmeta])*),)*];
                let shapes = vec![$($crate::__spec_shape!($ty $(, $inline)?),)*];
                let declared = Self::DOCS
                    .iter()
                    .zip(attrs)
                    .zip(shapes)
                    .map(|((d, a), s)| {
                        $crate::schema::Prop::declared(*d, s, $crate::schema::attr_bounds(a))
                    })
                    .collect();
                $crate::schema::with_aliases::<Self>(declared)
            }
            fn tables() -> Vec<$crate::TableDoc> {
                #[allow(unused_mut)]
                let mut tables = Vec::new();
                $(
                    $crate::__spec_table!(
                        tables, $ty, $crate::__doc_name!($field $(, $toml)?) $(, $inline)?
                    );
                )*
                tables
            }
        }
    };
}

/// A field's shape inside [`spec!`]: an `inline` field's declared table, else traced.
#[macro_export]
#[doc(hidden)]
macro_rules! __spec_shape {
    ($ty:ty) => {
        $crate::schema::trace::<$ty>()
    };
    ($ty:ty, inline) => {
        <$ty as $crate::fields::InlineField>::shape()
    };
}

/// Inside [`spec!`]: lists an `inline` field's table.
#[macro_export]
#[doc(hidden)]
macro_rules! __spec_table {
    ($tables:ident, $ty:ty, $name:expr) => {};
    ($tables:ident, $ty:ty, $name:expr, inline) => {
        $crate::fields::add_table::<$ty>(&mut $tables, $name)
    };
}

/// A field's TOML name inside [`spec!`]: its `as` name or the field's own.
#[macro_export]
#[doc(hidden)]
macro_rules! __doc_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $toml:literal) => {
        $toml
    };
}

/// Declares the parameters of a ruleset's `oddsmith check` from one table: `NAMES` (every
/// accepted key, aliases included, in order; give it to [`crate::CheckParams::only`]) and
/// `DOCS` (one [`crate::FieldDoc`] per parameter), so a parameter cannot be accepted without
/// its doc; `pub mod params for CheckType` makes them the check type's
/// [`Documented::DOCS`](crate::Documented).
///
/// Each parameter: `"name" [| "alias"…] => ("default", "one-line doc"),`. After the table,
/// `requires = &[…];` declares the parameters read only with another parameter's value
/// (e.g. only with `kind = "register"`), which [`Ruleset::parse_check`](crate::Ruleset::parse_check)
/// refuses or warns about before the check's own parse.
#[macro_export]
#[doc(hidden)]
macro_rules! check_params {
    (
        $(#[$meta:meta])*
        pub mod $module:ident for $check:ty {
            $(
                $pname:literal $(| $alias:literal)* => ($deftext:literal, $doc:literal $(,)?),
            )*
        }
        $(requires = $req:expr;)?
    ) => {
        $(#[$meta])*
        pub mod $module {
            /// Every accepted key, aliases included, in order.
            pub const NAMES: &[&str] = &[$($pname, $($alias,)*)*];
            /// One doc per parameter, in order.
            pub const DOCS: &[$crate::FieldDoc] = &[
                $($crate::FieldDoc {
                    name: $pname,
                    default: $deftext,
                    doc: $doc,
                    mark: $crate::Mark::None,
                },)*
            ];
        }

        impl $crate::Documented for $check {
            const DOCS: &'static [$crate::FieldDoc] = $module::DOCS;
            $(const REQUIRES: &'static [$crate::Requires] = $req;)?
        }
    };
}

/// Declares an inline table type (a weapon, an armour, a species…) from one table: the
/// statistics struct (with its doc comments and serialize attributes, passed through), the
/// table as written (`$table`: every key optional, unknown keys refused, bounds checked as
/// each value is read) and [`Inline`] (docs, resolution over a built-in or the defaults,
/// schema).
///
/// Each field: `name: Type [= default] [, in LO..=HI | , with path::to::de_fn] => ("default
/// as TOML", "one-line doc"),`. A field without `= default` is required (its default text
/// must be `"required"`; a test checks it) unless the table names a built-in, whose value it
/// then inherits. The struct must have a `name: String` field. Derive `Serialize` (not
/// `Deserialize`) on the struct; [`Entry`] and [`de_builtin`] read it.
#[macro_export]
#[doc(hidden)]
macro_rules! inline {
    (
        $(#[$meta:meta])*
        pub struct $name:ident / $table:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty $(= $default:expr)?
                    $(, in $lo:literal ..= $hi:literal)?
                    $(, with $de:path)?
                    => ($deftext:literal, $doc:literal $(, $mk:ident $mkargs:tt)? $(,)?),
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

        #[doc = concat!("An inline `", stringify!($name), "` table as written: every key optional.")]
        #[derive(Default)]
        pub struct $table {
            $(
                #[doc = concat!("`", stringify!($field), "`, if given.")]
                pub $field: Option<$ty>,
            )*
        }

        impl<'de> ::serde::Deserialize<'de> for $table {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[allow(non_camel_case_types)]
                #[derive(::serde::Deserialize)]
                #[serde(field_identifier)]
                enum Key {
                    $($field,)*
                }
                struct V;
                impl<'de> ::serde::de::Visitor<'de> for V {
                    type Value = $table;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter) -> ::std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$table, A::Error> {
                        let mut out = $table::default();
                        while let Some(k) = map.next_key::<Key>()? {
                            match k {
                                $(Key::$field => {
                                    out.$field = Some($crate::__inline_value!(
                                        map, $ty $(, in $lo, $hi)? $(, with $de)?
                                    ));
                                })*
                            }
                        }
                        Ok(out)
                    }
                }
                const FIELDS: &[&str] = &[$(stringify!($field),)*];
                d.deserialize_struct(stringify!($name), FIELDS, V)
            }
        }

        impl $crate::fields::Inline for $name {
            type Table = $table;
            const DOCS: &'static [$crate::FieldDoc] = &[
                $($crate::FieldDoc {
                    name: stringify!($field),
                    default: $deftext,
                    doc: $doc,
                    mark: $crate::__mark!($($mk $mkargs)?),
                },)*
            ];
            fn given_name(t: &$table) -> Option<&str> {
                t.name.as_deref()
            }
            fn omitted(t: &$table) -> Vec<&'static str> {
                let mut v = Vec::new();
                $(
                    if t.$field.is_none() && stringify!($field) != "name" {
                        v.push(stringify!($field));
                    }
                )*
                v
            }
            fn resolve(t: $table, base: Option<$name>) -> Result<$name, Vec<&'static str>> {
                if let Some(b) = base {
                    return Ok($name {
                        $($field: t.$field.unwrap_or(b.$field),)*
                    });
                }
                let mut missing: Vec<&'static str> = Vec::new();
                $(
                    $crate::__inline_missing!(missing, t.$field, $field $(, $default)?);
                )*
                if !missing.is_empty() {
                    return Err(missing);
                }
                Ok($name {
                    $($field: match t.$field {
                        Some(v) => v,
                        None => $crate::__inline_default!($field $(, $default)?),
                    },)*
                })
            }
            fn props() -> Vec<$crate::schema::Prop> {
                let shapes = vec![$($crate::__inline_shape!($ty $(, with $de)?),)*];
                let bounds: Vec<Option<(f64, f64)>> = vec![
                    $($crate::__option_bounds!($($lo, $hi)?),)*
                ];
                <Self as $crate::fields::Inline>::DOCS
                    .iter()
                    .zip(shapes)
                    .zip(bounds)
                    .map(|((d, s), b)| $crate::schema::Prop::declared(*d, s, b))
                    .collect()
            }
        }

        impl $crate::fields::Named for $name {
            fn name(&self) -> &str {
                &self.name
            }
        }
    };
}

/// One field's value inside [`inline!`]'s table: bounded, read by a function, or plain.
#[macro_export]
#[doc(hidden)]
macro_rules! __inline_value {
    ($map:ident, $ty:ty) => {
        $map.next_value::<$ty>()?
    };
    ($map:ident, $ty:ty, in $lo:literal, $hi:literal) => {
        $map.next_value_seed($crate::fields::Within::<$ty>::new($lo, $hi))?
    };
    ($map:ident, $ty:ty, with $de:path) => {{
        struct W($ty);
        impl<'de> ::serde::Deserialize<'de> for W {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<W, D::Error> {
                $de(d).map(W)
            }
        }
        $map.next_value::<W>()?.0
    }};
}

/// One field's shape inside [`inline!`]: traced from its type, or from its reading function.
#[macro_export]
#[doc(hidden)]
macro_rules! __inline_shape {
    ($ty:ty) => {
        $crate::schema::trace::<$ty>()
    };
    ($ty:ty, with $de:path) => {{
        struct W;
        impl<'de> ::serde::Deserialize<'de> for W {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<W, D::Error> {
                let _: $ty = $de(d)?;
                Ok(W)
            }
        }
        $crate::schema::trace::<W>()
    }};
}

/// Inside [`inline!`]: records a required field left out.
#[macro_export]
#[doc(hidden)]
macro_rules! __inline_missing {
    ($missing:ident, $given:expr, $field:ident) => {
        if $given.is_none() {
            $missing.push(stringify!($field));
        }
    };
    ($missing:ident, $given:expr, $field:ident, $default:expr) => {};
}

/// Inside [`inline!`]: a field's default (a required field was checked before).
#[macro_export]
#[doc(hidden)]
macro_rules! __inline_default {
    ($field:ident) => {
        return Err(vec![stringify!($field)])
    };
    ($field:ident, $default:expr) => {
        $default
    };
}

#[cfg(test)]
#[path = "fields_tests.rs"]
mod tests;
