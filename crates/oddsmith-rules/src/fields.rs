//! Serde helpers shared by rulesets' scenario-side types.
//!
//! - `options!`: an options struct or nested option table: the struct, `Default`, a
//!   `Deserialize` with every key optional and `in LO..=HI` bounds checked while reading (so
//!   errors carry file:line:col), `DOCS` and `check_ranges`.
//! - `spec!`: a fighter spec with its `DOCS`; `check_params!`: a check's accepted names and
//!   `DOCS`.
//! - `Bounded`/`Within`, `de_range`; `Builtin` + `Entry<T>`: a built-in name or an inline table,
//!   one deserialiser.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor,
};
use serde::{Serialize, Serializer};

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
                    => ($deftext:literal, $doc:literal $(,)?),
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
                #[inline]
                fn max_rounds(&self) -> u32 {
                    self.max_rounds
                }
            }
        )?
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
/// Each field: `name: Type [as "toml_name"] => ("default as TOML", "one-line doc"),` (`as`
/// when serde renames the field). Bounds stay in the field's serde attributes
/// (`deserialize_with = "de_range::<_, LO, HI>"`). After the table, `requires = &[…];`
/// declares the fields read only with another setting
/// ([`Documented::REQUIRES`](crate::Documented::REQUIRES)).
#[macro_export]
#[doc(hidden)]
macro_rules! spec {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty $(as $toml:literal)?
                    => ($deftext:literal, $doc:literal $(,)?),
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
                let shapes = vec![$($crate::schema::trace::<$ty>(),)*];
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
        }
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
                },)*
            ];
        }

        impl $crate::Documented for $check {
            const DOCS: &'static [$crate::FieldDoc] = $module::DOCS;
            $(const REQUIRES: &'static [$crate::Requires] = $req;)?
        }
    };
}
