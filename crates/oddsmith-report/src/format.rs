//! Every way a number or a name is written in a report, once: percentages, percentage points,
//! p-values, thousands, plain numbers, slugs, escaping, TOML values, and the polars column
//! helper. Terminal text, tables, charts and pages all format through here.

use oddsmith_study::Est;
#[cfg(feature = "tables")]
use polars::prelude::{Column, NamedFrom, Series};

/// A probability in percent, two decimals, no unit: `52.30`.
pub fn pct(p: f64) -> String {
    format!("{:.2}", 100.0 * p)
}

/// A probability in percent, two decimals, padded to five characters (terminal columns):
/// ` 5.20`.
pub fn pct_padded(p: f64) -> String {
    format!("{:5.2}", 100.0 * p)
}

/// A probability with its unit: `52.30 %`.
pub fn percent(p: f64) -> String {
    format!("{} %", pct(p))
}

/// A probability with four decimals and its unit, for exact values: `52.3046 %`.
pub fn percent_exact(p: f64) -> String {
    format!("{:.4} %", 100.0 * p)
}

/// A probability for chart labels: whole percentages without decimals (`50 %`), others with
/// one (`52.5 %`).
pub fn percent_short(v: f64) -> String {
    let p = 100.0 * v;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
    }
}

/// A probability and its interval for a page: `52.30 % [51.32, 53.28]`.
pub fn percent_ci(p: f64, lo: f64, hi: f64) -> String {
    format!("{} [{}, {}]", percent(p), pct(lo), pct(hi))
}

/// An estimate for a page: `52.30 % [51.32, 53.28]`.
pub fn est_page(e: &Est) -> String {
    percent_ci(e.p, e.lo, e.hi)
}

/// An estimate for the terminal: `52.30 [51.32 53.28]` (percent).
pub fn est(e: &Est) -> String {
    format!("{} [{} {}]", pct(e.p), pct(e.lo), pct(e.hi))
}

/// A probability and its interval in terminal columns: `52.30 [51.32 53.28]`, each padded
/// to five characters.
pub fn pct_ci_padded(p: f64, ci: [f64; 2]) -> String {
    format!(
        "{} [{} {}]",
        pct_padded(p),
        pct_padded(ci[0]),
        pct_padded(ci[1])
    )
}

/// A difference in percentage points, signed, two decimals: `+3.10`; one that rounds to zero
/// is written `+0.00`, never `-0.00`.
pub fn signed_points(d: f64) -> String {
    format!("{:+.2}", not_negative_zero(100.0 * d, 0.005))
}

/// `x`, or `0.0` when it would print as a negative zero at the precision whose half-step is
/// `half`.
fn not_negative_zero(x: f64, half: f64) -> f64 {
    if x.abs() < half { 0.0 } else { x }
}

/// A difference in percentage points with its interval: `+3.10 [+2.52<sep>+3.69]`.
pub fn points_ci(d: f64, lo: f64, hi: f64, sep: &str) -> String {
    format!(
        "{} [{}{sep}{}]",
        signed_points(d),
        signed_points(lo),
        signed_points(hi)
    )
}

/// A difference in percentage points with its interval, terminal style: `+3.10 [+2.52 +3.69]`.
pub fn points(d: f64, lo: f64, hi: f64) -> String {
    points_ci(d, lo, hi, " ")
}

/// A difference in percentage points, one decimal: `3.1`, `-0.4`, and `0.0` (never `-0.0`).
pub fn points_short(d: f64) -> String {
    format!("{:.1}", not_negative_zero(100.0 * d, 0.05))
}

/// A distance in standard errors, signed, one decimal (`+2.8`); one that rounds to zero is
/// written `+0.0`, never `-0.0`.
pub fn z_score(z: f64) -> String {
    format!("{:+.1}", if z.abs() < 0.05 { 0.0 } else { z })
}

/// A p-value: four decimals, or `<0.0001`.
pub fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// A JSON document, pretty-printed, with every negative zero written as `0.0` (a rounding
/// artefact such as a z-score of `-0.0` means nothing and trips up readers).
pub fn json_pretty<T: serde::Serialize + ?Sized>(v: &T) -> serde_json::Result<String> {
    let text = serde_json::to_string_pretty(v)?;
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut i = 0;
    while let Some(k) = text[i..].find("-0.0") {
        let at = i + k;
        let end = at + 4;
        let before = text[..at].trim_end().as_bytes().last().copied();
        let after = b.get(end).copied();
        let number_token = matches!(before, Some(b':' | b'[' | b','))
            && !matches!(after, Some(c) if c.is_ascii_digit() || c == b'e' || c == b'E');
        if number_token {
            out.push_str(&text[last..at]);
            out.push_str("0.0");
            last = end;
        }
        i = end;
    }
    out.push_str(&text[last..]);
    Ok(out)
}

/// `12,345`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value as written (swept values, costs, tick labels): whole numbers without decimals,
/// others with up to three; `-0` is written `0`.
pub fn num(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// `s` cut to at most `w` characters (with an ellipsis when cut).
pub fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Longest [`slug`] in bytes: with the prefixes and extensions the report adds, every file
/// name stays far below the 255 bytes file systems allow.
pub const MAX_SLUG: usize = 96;

/// A file or folder name made from a name: lower case, `a-z0-9-_` only, at most [`MAX_SLUG`]
/// bytes (a longer one is cut and ends in a hash of the whole name, so two long names that
/// share a beginning still get different files).
pub fn slug(name: &str) -> String {
    let s = slug_unbounded(name);
    if s.len() <= MAX_SLUG {
        return s;
    }
    // FNV-1a: stable across releases and platforms, unlike std's hasher.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let head = s[..MAX_SLUG - 17].trim_end_matches('-');
    format!("{head}-{hash:016x}")
}

fn slug_unbounded(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "scenario".into() } else { s }
}

/// Text escaped for HTML (element content and attribute values).
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Text escaped for a Markdown table cell or list item (`|` would end the cell).
pub fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

/// A JSON value written the way it would be in a scenario file (TOML inline syntax).
pub fn toml_text(v: &serde_json::Value) -> String {
    use serde_json::Value as V;
    match v {
        V::String(s) => format!("{s:?}"),
        V::Array(a) => format!(
            "[{}]",
            a.iter().map(toml_text).collect::<Vec<_>>().join(", ")
        ),
        V::Object(o) => {
            let f: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{k} = {}", toml_text(v)))
                .collect();
            format!("{{ {} }}", f.join(", "))
        }
        V::Null => "none".into(),
        other => other.to_string(),
    }
}

/// `PASS` or `FAIL`.
pub fn pass_fail(passed: bool) -> &'static str {
    if passed { "PASS" } else { "FAIL" }
}

/// `s` when `n` is not 1 (`1 assertion`, `2 assertions`).
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A named table column from a vector (polars' `Column::new` with a `&str` name).
#[cfg(feature = "tables")]
pub fn col<T, P>(name: &str, v: T) -> Column
where
    Series: NamedFrom<T, P>,
    P: ?Sized,
{
    Column::new(name.into(), v)
}

/// A named table column with one value per row: `col_by("p", &rows, |r| r.p)`.
#[cfg(feature = "tables")]
pub fn col_by<'a, R, T>(name: &str, rows: &'a [R], f: impl Fn(&'a R) -> T) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    col(name, rows.iter().map(f).collect::<Vec<T>>())
}

// Without `tables` there are no table columns: the names stay, so the sections' imports hold.
#[cfg(not(feature = "tables"))]
pub(crate) fn col() {}
#[cfg(not(feature = "tables"))]
pub(crate) fn col_by() {}

#[cfg(test)]
mod tests {
    #[test]
    fn small_negative_differences_print_as_zero() {
        assert_eq!(super::points_short(-0.0004), "0.0");
        assert_eq!(super::points_short(-0.0006), "-0.1");
        assert_eq!(super::signed_points(-0.00004), "+0.00");
        assert_eq!(super::signed_points(-0.00006), "-0.01");
        assert_eq!(super::signed_points(-0.0), "+0.00");
    }

    use super::*;

    #[test]
    fn json_has_no_negative_zero() {
        let v = serde_json::json!({"z": -0.0, "a": [-0.0, -0.05, -0.0e-3], "s": "-0.0,"});
        let t = json_pretty(&v).unwrap();
        assert!(t.contains("\"z\": 0.0"), "{t}");
        assert!(!t.contains("-0.0,") || t.contains("\"-0.0,\""), "{t}");
        assert!(t.contains("-0.05"), "{t}");
        assert!(t.contains("\"-0.0,\""), "strings untouched: {t}");
    }

    #[test]
    fn numbers() {
        assert_eq!(num(2.0), "2");
        assert_eq!(num(0.25), "0.25");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(1.23456), "1.235");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(pct_padded(0.052), " 5.20");
        assert_eq!(percent_ci(0.523, 0.5132, 0.5328), "52.30 % [51.32, 53.28]");
        assert_eq!(points(0.031, 0.0252, 0.0369), "+3.10 [+2.52 +3.69]");
        assert_eq!(p_value(0.00001), "<0.0001");
        assert_eq!(p_value(0.01234), "0.0123");
        assert_eq!(percent_short(0.5), "50 %");
        assert_eq!(percent_short(0.525), "52.5 %");
    }

    #[test]
    fn names_and_escapes() {
        assert_eq!(slug("Knight vs. Brute!"), "knight-vs-brute");
        assert_eq!(slug("???"), "scenario");
        let long = "a very long sweep name ".repeat(20);
        let (a, b) = (slug(&long), slug(&(long.clone() + "2")));
        assert!(a.len() <= MAX_SLUG && b.len() <= MAX_SLUG, "{a}");
        assert_ne!(a, b);
        assert!(a.starts_with("a-very-long-sweep-name-a-very"), "{a}");
        assert_eq!(html_escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(md_escape("a|b"), "a\\|b");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(
            toml_text(&serde_json::json!({"a": [1, "x"], "b": null})),
            "{ a = [1, \"x\"], b = none }"
        );
    }
}
