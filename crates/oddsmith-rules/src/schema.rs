//! The shape of scenario-file values, for `oddsmith schema` (a JSON Schema of scenario files).
//!
//! Nothing here is written by hand per ruleset. A fighter spec ([`spec!`](crate::spec)) and an
//! options table ([`options!`](crate::options)) implement [`Declared`]: each field's name, doc,
//! default text and bounds come from the declaration itself; the shape of its type comes from
//! [`trace`], which runs the type's own `Deserialize` against a probing deserializer and
//! records what it asks for (a bool, an integer of some width, one of an enum's variant names,
//! a sequence, a table and its keys, …). A value read with `deserialize_any` that turns out to
//! be a table (a [`crate::fields::Entry`]: a built-in name or an inline table) becomes
//! [`Shape::NameOrTable`].

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::FieldDoc;

/// The shape of a value in a scenario file.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Anything (a value read by a hand-written deserializer that is not a table).
    Any,
    /// `true` or `false`.
    Bool,
    /// An integer within the range of its Rust type.
    Int {
        /// Smallest value the type holds.
        min: i64,
        /// Largest value the type holds (saturated at `i64::MAX`).
        max: i64,
    },
    /// A number.
    Float,
    /// Text.
    Str,
    /// One of these names (a unit-variant enum).
    Enum(&'static [&'static str]),
    /// The value or nothing (an `Option`: the key may be left out).
    Optional(Box<Shape>),
    /// An array of values of one shape.
    Array(Box<Shape>),
    /// A table with free keys and values of one shape.
    Map(Box<Shape>),
    /// A built-in's name or an inline table of this shape.
    NameOrTable(Box<Shape>),
    /// A built-in's name or an inline table declared with [`inline!`](crate::inline): a table
    /// whose `name` is one of `names` inherits that built-in's fields (so its required fields
    /// are required only under another name).
    Builtin {
        /// The built-ins' names.
        names: Vec<&'static str>,
        /// The table (an [`Shape::Object`]).
        table: Box<Shape>,
    },
    /// A table with named keys.
    Object {
        /// The keys, in declaration order.
        props: Vec<Prop>,
        /// Unknown keys are refused.
        closed: bool,
    },
    /// A placeholder filled by the caller (see [`FighterSlot`], [`OptionsSlot`]).
    Slot(&'static str),
}

/// One key of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Prop {
    /// The key as written in TOML.
    pub name: &'static str,
    /// Its declared doc and default text, when it has a declaration.
    pub doc: Option<FieldDoc>,
    /// Its shape.
    pub shape: Shape,
    /// Declared bounds (`in LO..=HI`, `de_range::<_, LO, HI>`).
    pub bounds: Option<(f64, f64)>,
    /// The key must be given (its documented default is `required`).
    pub required: bool,
}

impl Prop {
    /// A declared field: doc, default and bounds from the declaration, shape from the type.
    pub fn declared(doc: FieldDoc, shape: Shape, bounds: Option<(f64, f64)>) -> Prop {
        Prop {
            name: doc.name,
            required: doc.default == "required",
            doc: Some(doc),
            shape,
            bounds,
        }
    }
}

/// A type whose fields are declared with their docs ([`spec!`](crate::spec),
/// [`options!`](crate::options)).
pub trait Declared {
    /// Every field, in declaration order.
    fn props() -> Vec<Prop>;
    /// The inline tables its fields take (a fighter spec's weapon, armour…), for `oddsmith
    /// rulesets`.
    fn tables() -> Vec<crate::TableDoc> {
        Vec::new()
    }
}

/// `declared` and, after them, the keys `T`'s `Deserialize` also accepts (serde aliases such
/// as `armor` for `armour`), with their traced shape and no doc of their own.
pub fn with_aliases<T: DeserializeOwned>(mut declared: Vec<Prop>) -> Vec<Prop> {
    if let Shape::Object { props, .. } = trace::<T>() {
        for p in props {
            if !declared.iter().any(|d| d.name == p.name) {
                declared.push(p);
            }
        }
    }
    declared
}

/// The bounds in a field's attributes as [`stringify!`] writes them: the `LO, HI` of
/// `deserialize_with = "de_range::<_, LO, HI>"`, if any.
pub fn attr_bounds(attrs: &str) -> Option<(f64, f64)> {
    // `de_range::<_, LO, HI>` or `de_opt_range::<_, LO, HI>`.
    let rest = &attrs[attrs.find("range::<_,")? + "range::<_,".len()..];
    let (lo, rest) = rest.split_once(',')?;
    let (hi, _) = rest.split_once('>')?;
    Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?))
}

/// Stands for a fighter spec in a scenario file's envelope ([`Shape::Slot`]`("fighter")`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FighterSlot;

/// Stands for the options table in a scenario file's envelope ([`Shape::Slot`]`("options")`).
#[derive(Clone, Copy, Debug, Default)]
pub struct OptionsSlot;

macro_rules! slot {
    ($t:ident, $name:literal) => {
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $t;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($name)
                    }
                    fn visit_unit<E: de::Error>(self) -> Result<$t, E> {
                        Ok($t)
                    }
                }
                d.deserialize_unit_struct($name, V)
            }
        }
    };
}
slot!(FighterSlot, "fighter");
slot!(OptionsSlot, "options");

/// The shape of `T` as its `Deserialize` reads it.
pub fn trace<T: DeserializeOwned>() -> Shape {
    shape_at(
        &|t: &Trace| {
            let _ = T::deserialize(Probe(t));
        },
        &mut Vec::new(),
    )
}

/// The shape at the end of `plan` (the keys chosen at each table on the way down): one run of
/// the type's `Deserialize` per table, since a run stops at the first value it reaches.
fn shape_at(run: &dyn Fn(&Trace), plan: &mut Vec<&'static str>) -> Shape {
    let t = Trace {
        plan: plan.clone(),
        depth: Cell::new(0),
        links: RefCell::new(Vec::new()),
        end: RefCell::new(None),
        anys: Cell::new(0),
    };
    run(&t);
    let mut shape = match t.end.into_inner() {
        Some(End::Leaf(s)) => s,
        Some(End::Fields(names, closed)) => Shape::Object {
            props: names
                .iter()
                .map(|&name| {
                    plan.push(name);
                    let shape = shape_at(run, plan);
                    plan.pop();
                    Prop {
                        name,
                        doc: None,
                        shape,
                        bounds: None,
                        required: false,
                    }
                })
                .collect(),
            closed,
        },
        None => Shape::Any,
    };
    for link in t.links.into_inner().into_iter().rev() {
        shape = match link {
            Link::Optional => Shape::Optional(Box::new(shape)),
            Link::Array => Shape::Array(Box::new(shape)),
            Link::Map => Shape::Map(Box::new(shape)),
            Link::NameOrTable => Shape::NameOrTable(Box::new(shape)),
        };
    }
    shape
}

/// A wrapper met on the way to the value.
enum Link {
    Optional,
    Array,
    Map,
    NameOrTable,
}

/// Where a run stopped.
enum End {
    Leaf(Shape),
    Fields(&'static [&'static str], bool),
}

/// One run's record.
struct Trace {
    plan: Vec<&'static str>,
    /// Tables passed so far.
    depth: Cell<usize>,
    /// Wrappers met past the end of the plan.
    links: RefCell<Vec<Link>>,
    end: RefCell<Option<End>>,
    /// `deserialize_any` calls past the end of the plan (a recursive value stops at the second).
    anys: Cell<u32>,
}

impl Trace {
    fn at_end(&self) -> bool {
        self.depth.get() >= self.plan.len()
    }
    fn link(&self, l: Link) {
        if self.at_end() {
            self.links.borrow_mut().push(l);
        }
    }
    fn stop<T>(&self, s: Shape) -> Result<T, Stop> {
        if self.at_end() {
            *self.end.borrow_mut() = Some(End::Leaf(s));
        }
        Err(Stop(None))
    }
}

/// Ends a run; carries the field list of an unknown-key error.
#[derive(Debug)]
struct Stop(Option<&'static [&'static str]>);

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("schema probe")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Stop(None)
    }
    fn unknown_field(_: &str, expected: &'static [&'static str]) -> Self {
        Stop(Some(expected))
    }
    fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Self {
        Stop(Some(expected))
    }
}

/// The probing deserializer.
struct Probe<'a>(&'a Trace);

macro_rules! leaf {
    ($($method:ident => $shape:expr,)*) => {$(
        fn $method<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Stop> {
            self.0.stop($shape)
        }
    )*};
}

macro_rules! int {
    ($($method:ident: $t:ty,)*) => {$(
        fn $method<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Stop> {
            self.0.stop(Shape::Int {
                min: i64::try_from(<$t>::MIN).unwrap_or(i64::MIN),
                max: i64::try_from(<$t>::MAX).unwrap_or(i64::MAX),
            })
        }
    )*};
}

/// The key a run offers a table whose keys it does not know yet.
const PROBE_KEY: &str = "\u{0}oddsmith-schema-probe";

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Stop;

    leaf! {
        deserialize_bool => Shape::Bool,
        deserialize_f32 => Shape::Float,
        deserialize_f64 => Shape::Float,
        deserialize_char => Shape::Str,
        deserialize_str => Shape::Str,
        deserialize_string => Shape::Str,
        deserialize_identifier => Shape::Str,
        deserialize_bytes => Shape::Any,
        deserialize_byte_buf => Shape::Any,
        deserialize_unit => Shape::Any,
        deserialize_ignored_any => Shape::Any,
    }

    int! {
        deserialize_i8: i8,
        deserialize_i16: i16,
        deserialize_i32: i32,
        deserialize_i64: i64,
        deserialize_u8: u8,
        deserialize_u16: u16,
        deserialize_u32: u32,
        deserialize_u64: u64,
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        let t = self.0;
        if !t.at_end() {
            return v.visit_map(Table { t, fields: None });
        }
        t.anys.set(t.anys.get() + 1);
        if t.anys.get() > 1 {
            return t.stop(Shape::Any);
        }
        let n = t.links.borrow().len();
        t.link(Link::NameOrTable);
        let r = v.visit_map(Table { t, fields: None });
        if !matches!(*t.end.borrow(), Some(End::Fields(..))) {
            t.links.borrow_mut().truncate(n);
            *t.end.borrow_mut() = Some(End::Leaf(Shape::Any));
        }
        r
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.0.link(Link::Optional);
        v.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _v: V,
    ) -> Result<V::Value, Stop> {
        self.0.stop(Shape::Slot(name))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Stop> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.0.link(Link::Array);
        v.visit_seq(Items(self.0))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Stop> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        v.visit_map(Table {
            t: self.0,
            fields: None,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Stop> {
        v.visit_map(Table {
            t: self.0,
            fields: Some(fields),
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, Stop> {
        self.0.stop(Shape::Enum(variants))
    }
}

/// A sequence offering one element.
struct Items<'a>(&'a Trace);

impl<'de> de::SeqAccess<'de> for Items<'_> {
    type Error = Stop;
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Stop> {
        seed.deserialize(Probe(self.0)).map(Some)
    }
}

/// A table offering the plan's next key, or [`PROBE_KEY`] past the end of the plan.
struct Table<'a> {
    t: &'a Trace,
    /// The keys, when `deserialize_struct` named them.
    fields: Option<&'static [&'static str]>,
}

impl<'de> MapAccess<'de> for Table<'_> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        let t = self.t;
        if !t.at_end() {
            let key = t.plan[t.depth.get()];
            t.depth.set(t.depth.get() + 1);
            return seed.deserialize(key.into_deserializer()).map(Some);
        }
        match seed.deserialize(PROBE_KEY.into_deserializer()) {
            Err(Stop(Some(names))) => {
                *t.end.borrow_mut() = Some(End::Fields(names, true));
                Err(Stop(None))
            }
            Err(_) => t.stop(Shape::Any),
            Ok(k) => match self.fields {
                // A struct that ignores unknown keys.
                Some(names) => {
                    *t.end.borrow_mut() = Some(End::Fields(names, false));
                    Err(Stop(None))
                }
                None => {
                    t.link(Link::Map);
                    Ok(Some(k))
                }
            },
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Stop> {
        seed.deserialize(Probe(self.t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Mode {
        Fast,
        SlowAndSteady,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        #[serde(rename = "str")]
        strength: u8,
        mode: Mode,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        inner: Option<Inner>,
        list: Vec<(i32, i32)>,
        by_name: BTreeMap<String, f64>,
        text: String,
    }

    #[test]
    fn traces_tables_enums_options_and_maps() {
        let inner = Shape::Object {
            props: vec![
                Prop {
                    name: "str",
                    doc: None,
                    shape: Shape::Int { min: 0, max: 255 },
                    bounds: None,
                    required: false,
                },
                Prop {
                    name: "mode",
                    doc: None,
                    shape: Shape::Enum(&["fast", "slow_and_steady"]),
                    bounds: None,
                    required: false,
                },
            ],
            closed: true,
        };
        let Shape::Object { props, closed } = trace::<Outer>() else {
            panic!("a table")
        };
        assert!(!closed, "Outer takes unknown keys");
        let shapes: Vec<_> = props.iter().map(|p| (p.name, p.shape.clone())).collect();
        let int32 = Shape::Int {
            min: i32::MIN.into(),
            max: i32::MAX.into(),
        };
        assert_eq!(
            shapes,
            [
                ("inner", Shape::Optional(Box::new(inner))),
                // A list of pairs.
                (
                    "list",
                    Shape::Array(Box::new(Shape::Array(Box::new(int32))))
                ),
                ("by_name", Shape::Map(Box::new(Shape::Float))),
                ("text", Shape::Str),
            ]
        );
    }

    #[test]
    fn a_builtin_entry_is_a_name_or_a_table() {
        let Shape::Object { props, .. } = trace::<crate::cards::FighterSpec>() else {
            panic!("a table")
        };
        let weapon = &props
            .iter()
            .find(|p| p.name == "weapon")
            .expect("weapon")
            .shape;
        let Shape::NameOrTable(table) = weapon else {
            panic!("{weapon:?}")
        };
        let Shape::Object { props, closed } = &**table else {
            panic!("{table:?}")
        };
        assert!(closed);
        assert!(props.iter().any(|p| p.name == "max_damage"));
        // A recursive value (a TOML table of TOML values) stops instead of looping.
        assert_eq!(trace::<toml::Table>(), Shape::Map(Box::new(Shape::Any)));
    }

    #[test]
    fn bounds_come_from_the_attribute_text() {
        let a = stringify!(#[serde(default, deserialize_with = "de_range::<_, -5, 10>")]);
        assert_eq!(attr_bounds(a), Some((-5.0, 10.0)));
        assert_eq!(attr_bounds(stringify!(#[serde(default)])), None);
    }

    #[test]
    fn every_ruleset_declares_its_fields_and_options() {
        struct V;
        impl crate::RulesetVisitor for V {
            type Output = ();
            fn visit<R: crate::Ruleset>(self) {
                let info = R::info();
                let names = |p: Vec<Prop>| {
                    let mut v: Vec<_> = p.into_iter().map(|p| p.name).collect();
                    v.sort_unstable();
                    v
                };
                let documented = |p: Vec<Prop>| {
                    p.into_iter()
                        .filter(|p| p.doc.is_some())
                        .map(|p| p.name)
                        .collect::<Vec<_>>()
                };
                let docs = |d: Vec<FieldDoc>| d.into_iter().map(|d| d.name).collect::<Vec<_>>();
                assert_eq!(
                    documented(R::FighterSpec::props()),
                    docs(info.fighter_fields)
                );
                assert_eq!(documented(R::Options::props()), docs(info.options));
                // The traced spec has the same keys, aliases included: the declaration and
                // serde agree.
                let Shape::Object { props, closed } = trace::<R::FighterSpec>() else {
                    panic!("{}: a table", R::ID)
                };
                assert!(closed, "{}: unknown fighter keys are refused", R::ID);
                assert_eq!(names(props), names(R::FighterSpec::props()), "{}", R::ID);
            }
        }
        for id in crate::RULESET_IDS {
            crate::visit(id, V).expect("registered");
        }
    }
}
