//! Messages for people: "did you mean" suggestions for every name lookup, and serde's wording
//! ("invalid type: string \"six\", expected i32", "unknown variant `rest`", "untagged enum
//! Num") put in plain words ("expected a whole number, got text \"six\"").
//!
//! [`humanize`] rewrites a message; every located scenario error goes through it, and the CLI
//! runs `oddsmith check`'s parameter errors through it too. [`suggest`] is the one edit-distance
//! rule.

/// The candidate closest to `name` by edit distance, if close enough to be a likely typo (the
/// one rule, shared with the rulesets' inline tables).
pub use oddsmith_rules::fields::suggest;

/// `unknown {what} "{name}"; did you mean "{s}"?` when a candidate is close, else the full list
/// (`unknown {what} "{name}"; expected one of: a, b, c`).
pub fn unknown_name<'a>(
    what: &str,
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> String {
    match suggest(name, candidates.clone()) {
        Some(s) => format!("unknown {what} {name:?}; did you mean {s:?}?"),
        None => {
            let all: Vec<&str> = candidates.into_iter().collect();
            format!(
                "unknown {what} {name:?}; expected one of: {}",
                all.join(", ")
            )
        }
    }
}

/// A message in plain words, with a suggestion where a name was not found (see the module doc).
/// Messages that match no known wording are returned unchanged.
pub fn humanize(message: &str) -> String {
    if let Some(m) = rewrite(message) {
        return m;
    }
    // A message under a prefix, such as `check parameter skil: unknown parameter; …`.
    if let Some((head, tail)) = message.split_once(": ") {
        if let (Some(param), Some(list)) = (
            head.strip_prefix("check parameter "),
            tail.strip_prefix("unknown parameter; expected one of: "),
        ) && let Some(s) = suggest(param, list.split(", "))
        {
            return format!("{head}: unknown parameter; did you mean {s:?}?");
        }
        if let Some(m) = rewrite(tail) {
            return format!("{head}: {m}");
        }
    }
    message.to_string()
}

fn rewrite(m: &str) -> Option<String> {
    if m == "wanted string or table" {
        return Some("expected a name in quotes or a table { … }".into());
    }
    unknown_serde(m)
        .or_else(|| invalid_type(m))
        .or_else(|| untagged(m))
        .or_else(|| unknown_listed(m))
}

/// The names in serde's lists: "one of `a`, `b`", "`a` or `b`", "`a`".
fn backticked(list: &str) -> Vec<&str> {
    list.split('`').skip(1).step_by(2).collect()
}

/// serde's "unknown field `x`, expected one of `a`, `b`" and "unknown variant `x`, expected …".
fn unknown_serde(m: &str) -> Option<String> {
    let (kind, rest) = if let Some(r) = m.strip_prefix("unknown field `") {
        ("field", r)
    } else {
        ("value", m.strip_prefix("unknown variant `")?)
    };
    let (name, rest) = rest.split_once('`')?;
    // serde's wording goes on with ", expected …" or ", there are no fields"; a message this
    // module already wrote (`unknown field `x`; did you mean …`) is left as it is.
    if !rest.starts_with(',') {
        return None;
    }
    if rest.contains("there are no fields") {
        return Some(format!(
            "unknown field `{name}`: this table takes no fields"
        ));
    }
    let names = backticked(rest.split_once("expected")?.1);
    let q = |s: &str| {
        if kind == "field" {
            format!("`{s}`")
        } else {
            format!("{s:?}")
        }
    };
    Some(
        match suggest(name, names.iter().copied()).or_else(|| short_form(name, &names)) {
            Some(s) => format!("unknown {kind} {}; did you mean {}?", q(name), q(s)),
            None => format!(
                "unknown {kind} {}; expected one of: {}",
                q(name),
                names.join(", ")
            ),
        },
    )
}

/// The abbreviation among `names` that a long name was written for (`strength` → `str`,
/// `constitution` → `con`): a name of three letters or more that begins the written one.
fn short_form<'a>(name: &str, names: &[&'a str]) -> Option<&'a str> {
    let lower = name.to_lowercase();
    names
        .iter()
        .copied()
        .filter(|n| n.len() >= 3 && n.len() < lower.len() && lower.starts_with(n))
        .max_by_key(|n| n.len())
}

/// serde's "invalid type: string \"six\", expected i32" and "invalid value: integer `-1`,
/// expected u64".
fn invalid_type(m: &str) -> Option<String> {
    let rest = m
        .strip_prefix("invalid type: ")
        .or_else(|| m.strip_prefix("invalid value: "))?;
    let (got, expected) = rest.rsplit_once(", expected ")?;
    Some(format!(
        "expected {}, got {}",
        expected_words(expected),
        got_words(got)
    ))
}

/// What serde expected, in words.
fn expected_words(e: &str) -> String {
    let e = e.trim();
    match e {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".into(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a string" | "a borrowed string" | "a character" => "text in quotes".into(),
        "a map" => "a table { … }".into(),
        "a sequence" => "a list [ … ]".into(),
        _ if e.starts_with("struct ") => "a table { … }".into(),
        _ if e.starts_with("a sequence") || e.starts_with("an array") => "a list [ … ]".into(),
        _ if e.starts_with("a tuple of size ") || e.starts_with("a tuple") => {
            format!(
                "a list [ … ] of {}",
                e.trim_start_matches("a tuple of size ")
            )
        }
        _ => e.to_string(),
    }
}

/// What was found, in words: `string "six"` → `text "six"`, ``integer `3` `` → `3`.
fn got_words(g: &str) -> String {
    let strip = |p: &str| g.strip_prefix(p).map(|v| v.trim_matches('`').to_string());
    if let Some(v) = g.strip_prefix("string ") {
        format!("text {v}")
    } else if let Some(v) = strip("integer ").or_else(|| strip("floating point ")) {
        format!("the number {v}")
    } else if let Some(v) = strip("boolean ") {
        v
    } else {
        match g {
            "map" => "a table".into(),
            "sequence" => "a list".into(),
            other => other.into(),
        }
    }
}

/// serde's "data did not match any variant of untagged enum X".
fn untagged(m: &str) -> Option<String> {
    let name = m.strip_prefix("data did not match any variant of untagged enum ")?;
    Some(
        match name.trim() {
            "Num" => "expected a number",
            "Value" | "Scalar" => "expected a number, true/false or text in quotes",
            _ => "expected another kind of value (see `oddsmith rulesets ID` for this key)",
        }
        .into(),
    )
}

/// Our own `unknown {what} "name"; {lead}: a, b, c[ (hint)]`: the list replaced by a
/// suggestion when one is close (the hint kept).
fn unknown_listed(m: &str) -> Option<String> {
    let rest = m.strip_prefix("unknown ")?;
    let (what, rest) = rest.split_once(" \"")?;
    let (name, rest) = rest.split_once("\"; ")?;
    let (_lead, list) = rest.split_once(": ")?;
    // A closing hint such as " (or give a table { … })"; items may carry their own
    // parenthesised notes (`chain (table A)`), which are not part of the name.
    let (list, hint) = match list.rfind(" (or ") {
        Some(i) => (&list[..i], &list[i..]),
        None => (list, ""),
    };
    let s = suggest(
        name,
        list.split(", ").map(|i| i.split(" (").next().unwrap_or(i)),
    )?;
    Some(format!(
        "unknown {what} \"{name}\"; did you mean {s:?}?{hint}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let weapons = ["long sword", "two handed sword", "dagger"];
        assert_eq!(
            suggest("two handed swrod", weapons),
            Some("two handed sword")
        );
        assert_eq!(suggest("Dager", weapons), Some("dagger"));
        assert_eq!(suggest("halberd", weapons), None);
        assert_eq!(suggest("armor", ["armour", "shield"]), Some("armour"));
        assert_eq!(suggest("x", ["y"]), Some("y"), "one edit is always allowed");
        assert_eq!(suggest("ab", ["xy"]), None);
    }

    #[test]
    fn rewrites_serde_wording() {
        assert_eq!(
            humanize("invalid type: string \"six\", expected i32"),
            "expected a whole number, got text \"six\""
        );
        assert_eq!(
            humanize("invalid value: integer `-1`, expected u64"),
            "expected a whole number, 0 or more, got the number -1"
        );
        assert_eq!(
            humanize("invalid type: floating point `1.5`, expected a boolean"),
            "expected true or false, got the number 1.5"
        );
        assert_eq!(
            humanize("unknown variant `rest`, expected `keep` or `reset`"),
            "unknown value \"rest\"; did you mean \"reset\"?"
        );
        assert_eq!(
            humanize("unknown variant `zzz`, expected one of `keep`, `reset`"),
            "unknown value \"zzz\"; expected one of: keep, reset"
        );
        assert_eq!(
            humanize("unknown field `skil`, expected one of `skill`, `weapon`"),
            "unknown field `skil`; did you mean `skill`?"
        );
        assert_eq!(
            humanize("data did not match any variant of untagged enum Num"),
            "expected a number"
        );
        assert_eq!(humanize("must not be empty"), "must not be empty");
    }

    #[test]
    fn suggests_in_our_own_lists() {
        assert_eq!(
            humanize(
                "unknown weapon \"two handed swrod\"; built-in weapons: dagger, two handed sword (or give a table { impact = 2 })"
            ),
            "unknown weapon \"two handed swrod\"; did you mean \"two handed sword\"? (or give a table { impact = 2 })"
        );
        assert_eq!(
            humanize("check parameter skil: unknown parameter; expected one of: skill, modifier"),
            "check parameter skil: unknown parameter; did you mean \"skill\"?"
        );
        assert_eq!(
            humanize(
                "check parameter difficulty: unknown level \"hardd\"; expected one of: easy, hard"
            ),
            "check parameter difficulty: unknown level \"hardd\"; did you mean \"hard\"?"
        );
        let far = "unknown weapon \"halberd\"; built-in weapons: dagger, mace";
        assert_eq!(humanize(far), far, "no close name: the list stays");
        assert_eq!(
            unknown_name("fighter", "knigt", ["knight", "brute"]),
            "unknown fighter \"knigt\"; did you mean \"knight\"?"
        );
        assert_eq!(
            unknown_name("fighter", "zed", ["knight", "brute"]),
            "unknown fighter \"zed\"; expected one of: knight, brute"
        );
    }
}
