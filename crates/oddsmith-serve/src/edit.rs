//! Form edits applied to the scenario's TOML text with `toml_edit`, so the comments and the
//! layout of everything not edited survive; and the house-rule A/B comparison file built from
//! a scenario and the values moved into its B column.

use serde::Deserialize;
use serde_json::Value as Json;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

/// An edit failed: the text does not parse or a path does not lead to a table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct EditError(pub String);

/// One step of a path: a key, or an index into an array of tables (`[[matchup]]`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Step {
    /// A table key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// One form edit.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Sets the value at `path` (creating tables on the way); `null` removes the key.
    Set {
        /// Where.
        path: Vec<Step>,
        /// The value (number, text, true/false, list, or an object for an inline table).
        value: Json,
    },
    /// Copies the item at `from` to `to` (a fighter copied under a new name).
    Copy {
        /// The item copied.
        from: Vec<Step>,
        /// Where the copy goes.
        to: Vec<Step>,
    },
    /// Appends a table to the array of tables at `path` (a new `[[matchup]]`).
    Push {
        /// The array of tables.
        path: Vec<Step>,
        /// The new table's keys.
        value: Json,
    },
}

/// Applies `ops` in order to `text`.
pub fn apply(text: &str, ops: &[Op]) -> Result<String, EditError> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| EditError(format!("the TOML does not parse: {e}")))?;
    for op in ops {
        match op {
            Op::Set { path, value } => set(doc.as_table_mut(), path, value)?,
            Op::Copy { from, to } => {
                let item = get(doc.as_table(), from)?.clone();
                put(doc.as_table_mut(), to, Some(item))?;
            }
            Op::Push { path, value } => {
                let Json::Object(m) = value else {
                    return Err(EditError("push: the value must be an object".into()));
                };
                let mut t = Table::new();
                for (k, v) in m {
                    t.insert(k, Item::Value(to_toml(v)?));
                }
                match get_mut(doc.as_table_mut(), path)? {
                    Some(Item::ArrayOfTables(a)) => {
                        a.push(t);
                        continue;
                    }
                    Some(_) => {
                        return Err(EditError(format!("{}: not a list of tables", dotted(path))));
                    }
                    None => {}
                }
                let mut a = toml_edit::ArrayOfTables::new();
                a.push(t);
                put(doc.as_table_mut(), path, Some(Item::ArrayOfTables(a)))?;
            }
        }
    }
    Ok(doc.to_string())
}

/// `fighters.knight.skill`.
fn dotted(path: &[Step]) -> String {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => k.clone(),
            Step::Index(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn set(root: &mut Table, path: &[Step], value: &Json) -> Result<(), EditError> {
    let item = if value.is_null() {
        None
    } else {
        Some(Item::Value(to_toml(value)?))
    };
    put(root, path, item)
}

/// Puts `item` at `path` (removes the key for `None`), creating tables on the way. A value
/// replacing a value keeps the old one's decoration (the comment after it).
fn put(root: &mut Table, path: &[Step], item: Option<Item>) -> Result<(), EditError> {
    let Some((last, parents)) = path.split_last() else {
        return Ok(());
    };
    let mut at: &mut dyn toml_edit::TableLike = root;
    for (i, step) in parents.iter().enumerate() {
        let here = dotted(&path[..=i]);
        let next: &mut Item = match step {
            Step::Key(k) => {
                if at.get(k).is_none() {
                    if item.is_none() {
                        return Ok(());
                    }
                    let mut t = Table::new();
                    t.set_implicit(true);
                    at.insert(k, Item::Table(t));
                }
                at.get_mut(k).expect("just inserted")
            }
            Step::Index(_) => return Err(EditError(format!("{here}: not a table"))),
        };
        // An index step after this key picks one table of an array of tables.
        if let Item::ArrayOfTables(a) = next {
            return descend_array(a, &path[i + 1..], item, &here);
        }
        at = match next {
            Item::Table(t) => t,
            Item::Value(Value::InlineTable(t)) => t,
            _ => return Err(EditError(format!("{here}: not a table"))),
        };
    }
    let Step::Key(k) = last else {
        return Err(EditError(format!("{}: expected a key", dotted(path))));
    };
    match item {
        None => {
            at.remove(k);
        }
        Some(Item::Value(mut v)) => {
            if let Some(Item::Value(old)) = at.get(k) {
                *v.decor_mut() = old.decor().clone();
            }
            at.insert(k, Item::Value(v));
        }
        Some(it) => {
            at.insert(k, it);
        }
    }
    Ok(())
}

fn descend_array(
    a: &mut toml_edit::ArrayOfTables,
    rest: &[Step],
    item: Option<Item>,
    here: &str,
) -> Result<(), EditError> {
    match rest.split_first() {
        Some((Step::Index(i), rest)) => {
            let n = a.len();
            if rest.is_empty() {
                if item.is_none() && *i < n {
                    a.remove(*i);
                    return Ok(());
                }
                return Err(EditError(format!(
                    "{here}.{i}: expected a key after the index"
                )));
            }
            let t = a.get_mut(*i).ok_or_else(|| {
                EditError(format!("{here}: there are {n} entries, not {}", i + 1))
            })?;
            put(t, rest, item)
        }
        _ => Err(EditError(format!(
            "{here}: a list of tables needs an index"
        ))),
    }
}

fn get<'a>(root: &'a Table, path: &[Step]) -> Result<&'a Item, EditError> {
    let mut item: &Item = root
        .get(key(path.first(), path)?)
        .ok_or_else(|| EditError(format!("{}: no such entry", dotted(path))))?;
    for step in &path[1..] {
        let next = match step {
            Step::Key(k) => item.get(k.as_str()),
            Step::Index(i) => item.get(*i),
        };
        item = next.ok_or_else(|| EditError(format!("{}: no such entry", dotted(path))))?;
    }
    Ok(item)
}

fn get_mut<'a>(root: &'a mut Table, path: &[Step]) -> Result<Option<&'a mut Item>, EditError> {
    let mut item: Option<&mut Item> = root.get_mut(key(path.first(), path)?);
    for step in &path[1..] {
        item = match (item, step) {
            (Some(it), Step::Key(k)) => it.get_mut(k.as_str()),
            (Some(it), Step::Index(i)) => it.get_mut(*i),
            (None, _) => None,
        };
    }
    Ok(item)
}

fn key<'a>(s: Option<&'a Step>, path: &[Step]) -> Result<&'a str, EditError> {
    match s {
        Some(Step::Key(k)) => Ok(k),
        _ => Err(EditError(format!(
            "{}: a path starts with a key",
            dotted(path)
        ))),
    }
}

/// A JSON value as a TOML value (an object becomes an inline table).
fn to_toml(v: &Json) -> Result<Value, EditError> {
    Ok(match v {
        Json::Bool(b) => Value::from(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => Value::from(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::from(s.as_str()),
        Json::Array(a) => {
            let mut arr = Array::new();
            for x in a {
                arr.push(to_toml(x)?);
            }
            Value::Array(arr)
        }
        Json::Object(m) => {
            // What the table is about first (`{ fighter = "goblin", count = 2 }`), then the
            // rest in name order (a JSON object carries no order).
            let mut t = InlineTable::new();
            let lead = |k: &str| !FIRST_KEYS.contains(&k);
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by_key(|k| (lead(k), FIRST_KEYS.iter().position(|f| f == k)));
            for k in keys {
                t.insert(k, to_toml(&m[k])?);
            }
            Value::InlineTable(t)
        }
        Json::Null => return Err(EditError("null is not a TOML value".into())),
    })
}

/// Keys written first in an inline table: the ones naming what the table is about.
const FIRST_KEYS: [&str; 2] = ["name", "fighter"];

/// The names of the text's `[fighters]`, in the order the file writes them (a parsed
/// document's tables are sorted by name; the page shows the designer's order). Empty when the
/// text does not parse.
pub fn fighter_order(text: &str) -> Vec<String> {
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return Vec::new();
    };
    let Some(f) = doc.get("fighters").and_then(Item::as_table_like) else {
        return Vec::new();
    };
    let mut names: Vec<(Option<isize>, usize, String)> = f
        .iter()
        .enumerate()
        .map(|(i, (k, item))| {
            // A `[fighters.NAME]` header has its place in the file; keys inside one
            // `[fighters]` table (and dotted keys) keep the table's own order.
            let pos = item.as_table().and_then(Table::position);
            (pos, i, k.to_string())
        })
        .collect();
    names.sort_by_key(|(pos, i, _)| (pos.unwrap_or(0), *i));
    names.into_iter().map(|(_, _, n)| n).collect()
}

/// The scenario's top-level keys that stay at the top of a comparison file.
const ENVELOPE: [&str; 4] = ["name", "description", "trials", "seed"];
/// The study sections a comparison part may not hold (and `precision`, which a comparison
/// file does not take).
const NOT_IN_PART: [&str; 6] = [
    "sweep",
    "balance",
    "tournament",
    "assert",
    "check",
    "precision",
];

/// The names of the house-rule comparison's two variants: the file as written, and the file
/// with the B column's values (not `A` and `B`, which a verdict would confuse with the sides:
/// "side A wins 2.6 points more often under house rule than under file"). In name order, as
/// the comparison lists its variants.
pub const AB_VARIANTS: [&str; 2] = ["file", "house rule"];

/// The house-rule comparison file of scenario `text` (variant `file`) against variant
/// `house rule` (the same with `b` set: the B column's paths and values), run on common random
/// numbers by the comparison machinery. `None` when `b` is empty.
pub fn ab_comparison(text: &str, b: &[(Vec<Step>, Json)]) -> Result<Option<String>, EditError> {
    if b.is_empty() {
        return Ok(None);
    }
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| EditError(format!("the TOML does not parse: {e}")))?;
    let mut out = DocumentMut::new();
    let mut a = Table::new();
    for (k, item) in doc.iter() {
        if ENVELOPE.contains(&k) {
            out.insert(k, item.clone());
        } else if !NOT_IN_PART.contains(&k) {
            a.insert(k, item.clone());
        }
    }
    let mut compare = Table::new();
    compare.insert("alpha", toml_edit::value(0.05));
    compare.insert("practical_threshold", toml_edit::value(0.02));
    out.insert("compare", Item::Table(compare));
    let ruleset = a.get("ruleset").cloned();
    let mut bt = Table::new();
    if let Some(r) = ruleset {
        bt.insert("ruleset", r);
    }
    bt.insert("from", toml_edit::value(AB_VARIANTS[0]));
    for (path, v) in b {
        set(&mut bt, path, v)?;
    }
    let mut variants = Table::new();
    variants.set_implicit(true);
    variants.insert(AB_VARIANTS[0], Item::Table(a));
    variants.insert(AB_VARIANTS[1], Item::Table(bt));
    out.insert("variants", Item::Table(variants));
    Ok(Some(out.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn k(s: &str) -> Vec<Step> {
        s.split('.')
            .map(|p| match p.parse() {
                Ok(i) => Step::Index(i),
                Err(_) => Step::Key(p.into()),
            })
            .collect()
    }

    const TEXT: &str = "# my duel\nname = \"x\" # the name\nruleset = \"draft\"\n\n[fighters.knight]\nskill = 6 # veteran\nweapon = \"long sword\"\n\n[[matchup]]\nname = \"m\"\na = \"knight\"\nb = \"knight\"\n";

    #[test]
    fn fighters_come_in_file_order() {
        let text = "[fighters.zed]\nskill = 1\n[[matchup]]\na = \"zed\"\nb = \"amy\"\n[fighters.amy]\nskill = 2\n[fighters.mo]\nskill = 3\n";
        assert_eq!(fighter_order(text), ["zed", "amy", "mo"]);
        let inline = "[fighters]\nzed = { skill = 1 }\namy = { skill = 2 }\n";
        assert_eq!(fighter_order(inline), ["zed", "amy"]);
        assert!(fighter_order("[fighters").is_empty());
    }

    #[test]
    fn a_member_is_written_fighter_first() {
        let t = apply(
            TEXT,
            &[Op::Set {
                path: k("matchup.0.b"),
                value: json!([{ "target": "random", "count": 2, "fighter": "knight" }, "knight"]),
            }],
        )
        .unwrap();
        assert!(
            t.contains(
                "b = [{ fighter = \"knight\", count = 2, target = \"random\" }, \"knight\"]"
            ),
            "{t}"
        );
    }

    #[test]
    fn set_keeps_comments_and_layout() {
        let t = apply(
            TEXT,
            &[Op::Set {
                path: k("fighters.knight.skill"),
                value: json!(8),
            }],
        )
        .unwrap();
        assert_eq!(
            t,
            TEXT.replace("skill = 6 # veteran", "skill = 8 # veteran")
        );
    }

    #[test]
    fn set_creates_tables_and_removes_keys() {
        let t = apply(
            TEXT,
            &[
                Op::Set {
                    path: k("options.wound_penalties"),
                    value: json!(false),
                },
                Op::Set {
                    path: k("fighters.knight.weapon"),
                    value: json!(null),
                },
                Op::Set {
                    path: k("matchup.0.name"),
                    value: json!("n"),
                },
            ],
        )
        .unwrap();
        let v: toml::Value = toml::from_str(&t).unwrap();
        assert_eq!(v["options"]["wound_penalties"].as_bool(), Some(false));
        assert!(v["fighters"]["knight"].get("weapon").is_none());
        assert_eq!(v["matchup"][0]["name"].as_str(), Some("n"));
        assert!(t.starts_with("# my duel\n"));
    }

    #[test]
    fn copy_and_push() {
        let t = apply(
            TEXT,
            &[
                Op::Copy {
                    from: k("fighters.knight"),
                    to: k("fighters.squire"),
                },
                Op::Push {
                    path: k("matchup"),
                    value: json!({"name": "k vs s", "a": "knight", "b": "squire"}),
                },
            ],
        )
        .unwrap();
        let v: toml::Value = toml::from_str(&t).unwrap();
        assert_eq!(v["fighters"]["squire"]["skill"].as_integer(), Some(6));
        assert_eq!(v["matchup"].as_array().unwrap().len(), 2);
        // Removing a matchup by index.
        let t = apply(
            &t,
            &[Op::Set {
                path: k("matchup.0"),
                value: json!(null),
            }],
        )
        .unwrap();
        let v: toml::Value = toml::from_str(&t).unwrap();
        assert_eq!(v["matchup"][0]["name"].as_str(), Some("k vs s"));
    }

    #[test]
    fn bad_paths_are_errors() {
        assert!(
            apply(
                TEXT,
                &[Op::Set {
                    path: k("name.x"),
                    value: json!(1)
                }]
            )
            .is_err()
        );
        assert!(
            apply(
                TEXT,
                &[Op::Copy {
                    from: k("fighters.nobody"),
                    to: k("fighters.x")
                }]
            )
            .is_err()
        );
        assert!(apply("a = [", &[]).is_err());
    }

    #[test]
    fn ab_comparison_has_both_variants() {
        let c = ab_comparison(TEXT, &[(k("options.exhaustion"), json!(true))])
            .unwrap()
            .unwrap();
        let v: toml::Value = toml::from_str(&c).unwrap();
        assert_eq!(v["name"].as_str(), Some("x"));
        assert!(v.get("compare").is_some());
        assert_eq!(
            v["variants"]["file"]["fighters"]["knight"]["skill"].as_integer(),
            Some(6)
        );
        let house = &v["variants"]["house rule"];
        assert_eq!(house["from"].as_str(), Some("file"));
        assert_eq!(house["ruleset"].as_str(), Some("draft"));
        assert_eq!(house["options"]["exhaustion"].as_bool(), Some(true));
        assert_eq!(ab_comparison(TEXT, &[]).unwrap(), None);
    }
}
