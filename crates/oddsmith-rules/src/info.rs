//! Self-description of a ruleset, for `oddsmith rulesets` and scenario authors.

use serde::Serialize;

/// One documented field or option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FieldDoc {
    /// The key as written in TOML.
    pub name: &'static str,
    /// The default, as TOML text ("required" when there is none).
    pub default: &'static str,
    /// One line: meaning, allowed values and the rule section it comes from.
    pub doc: &'static str,
    /// Whether the default is a reading of ambiguous text or a number the seed never gives
    /// (declared beside the field: `reading [...]`, `invented (LO, HI, "why")`).
    #[serde(skip_serializing_if = "Mark::is_none")]
    pub mark: Mark,
}

/// What a declared default rests on, when not plain text of the seed (issue 36): the marks
/// `oddsmith rulesets ID` shows and `oddsmith run --readings` varies, one factor at a time.
///
/// Declared inside the doc tuple of [`options!`](crate::options), [`spec!`](crate::spec) and
/// [`inline!`](crate::inline): `=> ("default", "doc", reading ["a", "b"])`,
/// `=> ("5", "doc", invented (3, 10, "why"))`, `=> ("0", "doc", placeholder (0, 2, "why"))`.
/// Values are TOML text as a scenario writes them (strings quoted, numbers bare).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mark {
    /// Plain text of the seed (or a choice with no reading behind it).
    #[serde(skip)]
    None,
    /// The seed's text allows several values: every alternative the ruleset's doc names,
    /// the default among them.
    Reading {
        /// Every alternative, as TOML text.
        values: &'static [&'static str],
    },
    /// The seed gives no number: a plausible range and why.
    Invented {
        /// Low end, as TOML text.
        low: &'static str,
        /// High end, as TOML text.
        high: &'static str,
        /// One line: why this range.
        why: &'static str,
    },
    /// A built-in item's statistic that stands in for one the seed does not give.
    Placeholder {
        /// Low end, as TOML text.
        low: &'static str,
        /// High end, as TOML text.
        high: &'static str,
        /// One line: what is missing and why this range.
        why: &'static str,
    },
}

impl Mark {
    /// No mark.
    pub const fn is_none(&self) -> bool {
        matches!(self, Mark::None)
    }

    /// `reading`, `invented`, `placeholder` (`""` for none): the JSON `kind`.
    pub const fn kind(&self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Reading { .. } => "reading",
            Mark::Invented { .. } => "invented",
            Mark::Placeholder { .. } => "placeholder",
        }
    }

    /// The values a readings study tries besides the default: every alternative reading, or
    /// the low and high ends of an invented number (TOML text).
    pub fn alternatives(&self) -> Vec<&'static str> {
        match *self {
            Mark::None => Vec::new(),
            Mark::Reading { values } => values.to_vec(),
            Mark::Invented { low, high, .. } | Mark::Placeholder { low, high, .. } => {
                vec![low, high]
            }
        }
    }

    /// One line for `oddsmith rulesets ID`: `reading: "a" | "b"`, `invented (not in the
    /// seed): 3 to 10 — why`.
    pub fn text(&self) -> Option<String> {
        match *self {
            Mark::None => None,
            Mark::Reading { values } => Some(format!("reading: {}", values.join(" | "))),
            Mark::Invented { low, high, why } => Some(format!(
                "invented (not in the seed): {low} to {high} — {why}"
            )),
            Mark::Placeholder { low, high, why } => Some(format!(
                "placeholder (not in the seed): {low} to {high} — {why}"
            )),
        }
    }
}

/// A built-in item's statistic that is a placeholder (the seed gives the item but not this
/// number): declared beside the equipment table, shown by `oddsmith rulesets ID
/// --equipment` and named in a report's "In short" when a fighter relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Placeholder {
    /// The built-in item (`short bow`).
    pub item: &'static str,
    /// The statistic's column (`force`): the field of the inline table (`weapon = { name =
    /// "short bow", force = 1 }`) that overrides it, which a readings study writes.
    pub field: &'static str,
    /// The built-in's value, as TOML text (checked against the equipment tables by a test).
    pub value: &'static str,
    /// The plausible range and why ([`Mark::Placeholder`]).
    pub mark: Mark,
}

/// A [`Placeholder`] (a `const fn`, for the equipment tables): the built-in `item`'s `field`
/// is `value` (TOML text), plausibly anywhere from `low` to `high`.
pub const fn placeholder(
    item: &'static str,
    field: &'static str,
    value: &'static str,
    low: &'static str,
    high: &'static str,
    why: &'static str,
) -> Placeholder {
    Placeholder {
        item,
        field,
        value,
        mark: Mark::Placeholder { low, high, why },
    }
}

/// A declaration table with one [`FieldDoc`] per entry: generated by
/// [`options!`](crate::options), [`spec!`](crate::spec) and [`check_params!`](crate::check_params),
/// so [`Ruleset::info`](crate::Ruleset::info) lists every option, field and check parameter.
pub trait Documented {
    /// Every entry's doc, in declaration order.
    const DOCS: &'static [FieldDoc];
    /// The settings of the table read only when another setting has some value (declared
    /// with `requires = …` in the same macro); checked for every ruleset by one generic check
    /// ([`Requires::unmet`]) and shown by `oddsmith rulesets ID` as "only with …".
    const REQUIRES: &'static [Requires] = &[];
}

/// What a [`Cond`] asks of the other setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Is {
    /// It is given (an optional item such as `off_hand`).
    Set,
    /// Its value is one of these (text as written without quotes: `until`, `true`, `0`).
    OneOf(&'static [&'static str]),
    /// Its value is none of these.
    NoneOf(&'static [&'static str]),
}

/// A condition on another setting: `field` (a dotted path in the same table; from a fighter,
/// `options.` + an option's key reaches the ruleset's options) and what it must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cond {
    /// Dotted path of the other setting.
    pub field: &'static str,
    /// What it must be.
    pub is: Is,
}

/// A [`Cond`] (a `const fn`, for the rulesets' `requires` tables).
pub const fn cond(field: &'static str, is: Is) -> Cond {
    Cond { field, is }
}

/// "`field` is read only with …": a setting whose value the rules read only when another
/// setting has some value. Given in a file where none of `only_with` holds, it is either
/// refused (`refuse`: the file is certainly wrong) or warned about (merely ineffective).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requires {
    /// Dotted path of the dependent setting (`tactics.hold`, `off_hand_skill`).
    pub field: &'static str,
    /// The setting is read when any of these holds.
    pub only_with: &'static [Cond],
    /// An error (exit 2) rather than a warning.
    pub refuse: bool,
    /// What the rules do instead, or what to write (one clause, may be empty).
    pub why: &'static str,
}

/// A [`Requires`] whose breach is a warning.
pub const fn warn(field: &'static str, only_with: &'static [Cond], why: &'static str) -> Requires {
    Requires {
        field,
        only_with,
        refuse: false,
        why,
    }
}

/// A [`Requires`] whose breach is an error.
pub const fn refuse(
    field: &'static str,
    only_with: &'static [Cond],
    why: &'static str,
) -> Requires {
    Requires {
        field,
        only_with,
        refuse: true,
        why,
    }
}

/// A value as a reader writes it: `"until"` quoted, `true` and numbers bare.
fn quoted(v: &str) -> String {
    let bare = v == "true" || v == "false" || v.parse::<f64>().is_ok();
    if bare {
        v.to_string()
    } else {
        format!("{v:?}")
    }
}

impl Cond {
    /// `off_hand`, `tactics.aim = "until"`, `options.distance ≠ 0`, `kind = "register" or "opposed"`.
    pub fn text(&self) -> String {
        let list =
            |vs: &[&str], sep: &str| vs.iter().map(|v| quoted(v)).collect::<Vec<_>>().join(sep);
        match self.is {
            Is::Set => format!("{} given", self.field),
            Is::OneOf(vs) => format!("{} = {}", self.field, list(vs, " or ")),
            Is::NoneOf(vs) => format!("{} other than {}", self.field, list(vs, " or ")),
        }
    }

    /// Whether the condition holds for the other setting's value: `None` when it is not given
    /// and has no default (an absent optional item), else its value as text (strings without
    /// quotes).
    pub fn holds(&self, value: Option<&str>) -> bool {
        match (self.is, value) {
            (Is::Set, v) => v.is_some(),
            (Is::OneOf(vs), Some(v)) => vs.contains(&v),
            (Is::NoneOf(vs), Some(v)) => !vs.contains(&v),
            (_, None) => false,
        }
    }
}

impl Requires {
    /// `only with tactics.wrestle = true` (alternatives joined by "or").
    pub fn only_with_text(&self) -> String {
        let alts: Vec<String> = self.only_with.iter().map(Cond::text).collect();
        format!("only with {}", alts.join(", or "))
    }

    /// The message when `field` is given but no condition holds, `values` giving the value in
    /// force of each [`Cond`]'s setting (`None`: not given): `None` when one holds.
    pub fn unmet(&self, values: &[Option<String>]) -> Option<String> {
        let met = self
            .only_with
            .iter()
            .zip(values)
            .any(|(c, v)| c.holds(v.as_deref()));
        if met {
            return None;
        }
        let here: Vec<String> = self
            .only_with
            .iter()
            .zip(values)
            .map(|(c, v)| match v {
                Some(v) => format!("{} is {}", c.field, quoted(v)),
                None => format!("{} is not given", c.field),
            })
            .collect();
        let mut m = format!(
            "{} is read {}, and here {}",
            self.field,
            self.only_with_text(),
            here.join(" and ")
        );
        if self.refuse {
            m += ": the setting would be silently ignored";
        } else {
            m += ": it has no effect";
        }
        if !self.why.is_empty() {
            m += &format!(" ({})", self.why);
        }
        Some(m)
    }
}

impl serde::Serialize for Requires {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Requires", 4)?;
        st.serialize_field("field", self.field)?;
        st.serialize_field("only_with", &self.only_with_text())?;
        st.serialize_field("severity", if self.refuse { "error" } else { "warning" })?;
        st.serialize_field("why", self.why)?;
        st.end()
    }
}

/// A [`FieldDoc`] (a `const fn`, for the rulesets' doc tables).
pub const fn doc(name: &'static str, default: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc {
        name,
        default,
        doc,
        mark: Mark::None,
    }
}

/// Everything a scenario author needs to know about a ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesetInfo {
    /// The ruleset id.
    pub id: &'static str,
    /// Human-readable title.
    pub title: &'static str,
    /// A short paragraph on what is modelled.
    pub summary: &'static str,
    /// Fighter fields (`[fighters.NAME]`).
    pub fighter_fields: Vec<FieldDoc>,
    /// Options (`[options]`) with the digest's defaults.
    pub options: Vec<FieldDoc>,
    /// Check parameters for `oddsmith check`.
    pub check_params: Vec<FieldDoc>,
    /// Fighter fields read only with another setting ("only with …").
    pub fighter_requires: Vec<Requires>,
    /// Options read only with another setting.
    pub option_requires: Vec<Requires>,
    /// Check parameters read only with another parameter.
    pub check_requires: Vec<Requires>,
    /// The inline tables fighter fields take (`weapon = { … }`), each field required or with
    /// its default; a table whose `name` is a built-in's inherits the fields it leaves out.
    pub tables: Vec<TableDoc>,
    /// Built-in items' statistics that are placeholders (not in the seed).
    pub placeholders: Vec<Placeholder>,
    /// Every marked setting (readings and invented numbers, issue 36): options as
    /// `options.PATH`, fighter fields as `fighters.*.KEY`, inline-table fields as
    /// `KEY.FIELD` (`weapon.magazine`), built-in items' as `ITEM.FIELD`.
    pub marks: Vec<Marked>,
}

/// A marked setting of a ruleset ([`RulesetInfo::marks`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Marked {
    /// Where it is set (`options.hp_base`, `fighters.*.health`, `weapon.magazine`,
    /// `short bow.force`).
    pub key: String,
    /// The default, as TOML text.
    pub default: &'static str,
    /// The mark.
    #[serde(flatten)]
    pub mark: Mark,
}

impl Marked {
    /// The option's path under `[options]`, for a marked option.
    pub fn option(&self) -> Option<&str> {
        self.key.strip_prefix("options.")
    }
    /// The fighter field's key, for a marked fighter field.
    pub fn fighter_field(&self) -> Option<&str> {
        self.key.strip_prefix("fighters.*.")
    }
}

/// Every marked setting of a ruleset, from its declarations (see [`RulesetInfo::marks`]).
pub fn marks(
    options: Vec<(String, FieldDoc)>,
    fighter: &[FieldDoc],
    tables: &[TableDoc],
    placeholders: &[Placeholder],
) -> Vec<Marked> {
    let mut out: Vec<Marked> = options
        .into_iter()
        .map(|(p, d)| Marked {
            key: format!("options.{p}"),
            default: d.default,
            mark: d.mark,
        })
        .collect();
    out.extend(
        fighter
            .iter()
            .filter(|d| !d.mark.is_none())
            .map(|d| Marked {
                key: format!("fighters.*.{}", d.name),
                default: d.default,
                mark: d.mark,
            }),
    );
    for t in tables {
        out.extend(
            t.fields
                .iter()
                .filter(|d| !d.mark.is_none())
                .map(|d| Marked {
                    key: format!("{}.{}", t.keys.first().copied().unwrap_or(t.what), d.name),
                    default: d.default,
                    mark: d.mark,
                }),
        );
    }
    out.extend(placeholders.iter().map(|p| Marked {
        key: format!("{}.{}", p.item, p.field),
        default: p.value,
        mark: p.mark,
    }));
    out
}

/// The fields of an inline table (a weapon, an armour…) that fighter fields take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableDoc {
    /// The fighter fields that take it (`weapon`, `off_hand`, `backup`).
    pub keys: Vec<&'static str>,
    /// What an entry is (`weapon`).
    pub what: &'static str,
    /// Every field of the table, with its default (`required`: unless inherited).
    pub fields: &'static [FieldDoc],
}
