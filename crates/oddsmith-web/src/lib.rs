//! oddsmith in the browser: the explorer's engine (`oddsmith::web`, the CLI's own pipeline
//! without its `native` feature) behind `wasm-bindgen` for `web/`'s page and its Web Workers.
//! Everything goes in and out as strings (JSON or TOML), so the JS side is plain `JSON.parse`.
//!
//! A run is cut into shards (the `--shard K/N` units): each worker instance computes one with
//! [`run_shard`], one instance sums them with [`merge`] (as `oddsmith merge` does) and keeps
//! the result for its charts ([`charts`], [`sweep_chart`]) and the self-contained HTML report
//! ([`report_html`]), drawn with the font the page hands to [`use_font`]. No IO, no clock:
//! the numbers are those of the native CLI, bit for bit.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use oddsmith::web::{self, CliEngine};
use oddsmith_report::model::ReportData;
use oddsmith_serve::edit::{self, Op, Step};
use oddsmith_serve::{Engine, bundled};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The last merged run of this instance: what its charts and report are drawn from.
    static LAST: RefCell<Option<ReportData>> = const { RefCell::new(None) };
}

/// `trials` from JS: a negative number is "the file's own".
fn trials_of(t: f64) -> Option<u64> {
    (t >= 0.0).then_some(t as u64)
}

/// An error as the JS exception's message.
fn fail(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// The page's catalogue: `{bundled: [names], rulesets: [{id, title, summary}], file: null}`.
#[wasm_bindgen]
pub fn catalog() -> String {
    let names: Vec<&str> = bundled::BUNDLED.iter().map(|(n, _)| *n).collect();
    json!({ "bundled": names, "rulesets": CliEngine.rulesets(), "file": null }).to_string()
}

/// The bundled scenario `name` (`draft/skill-gap`).
#[wasm_bindgen]
pub fn bundled_text(name: &str) -> Option<String> {
    bundled::bundled(name).map(str::to_string)
}

/// One ruleset's declarations, equipment and schema (JSON), or `null`.
#[wasm_bindgen]
pub fn ruleset(id: &str) -> String {
    CliEngine.ruleset(id).unwrap_or(Value::Null).to_string()
}

/// The `oddsmith init` starter scenario of ruleset `id`.
#[wasm_bindgen]
pub fn template(id: &str) -> Option<String> {
    CliEngine.template(id)
}

/// Validates the text as `oddsmith validate` does: `{check, doc, order}` (JSON), `doc` being
/// the TOML as JSON (or `null` when it does not parse), `order.fighters` the fighters' names
/// in the file's order.
#[wasm_bindgen]
pub fn check(file: &str, text: &str) -> String {
    let checked = CliEngine.check(file, text);
    let doc = toml::from_str::<toml::Value>(text).ok();
    let order = json!({ "fighters": edit::fighter_order(text) });
    json!({ "check": checked, "doc": doc, "order": order }).to_string()
}

/// Applies the page's form edits (`ops`, JSON) to the TOML text, keeping its comments.
#[wasm_bindgen]
pub fn edit_text(text: &str, ops: &str) -> Result<String, JsError> {
    let ops: Vec<Op> = serde_json::from_str(ops).map_err(fail)?;
    edit::apply(text, &ops).map_err(|e| fail(e.0))
}

/// The house-rule A/B comparison file of the text with the B values `b` (JSON list of
/// `{path, value}`), or `undefined` when there are none.
#[wasm_bindgen]
pub fn ab_comparison(text: &str, b: &str) -> Result<Option<String>, JsError> {
    let b: Vec<Value> = serde_json::from_str(b).map_err(fail)?;
    let mut pairs = Vec::new();
    for x in b {
        let path: Vec<Step> = serde_json::from_value(x["path"].clone()).map_err(fail)?;
        pairs.push((path, x["value"].clone()));
    }
    edit::ab_comparison(text, &pairs).map_err(|e| fail(e.0))
}

/// Every matchup's exact outcome (JSON list of `{matchup, p_a_win, p_b_win, p_draw}`) where
/// the ruleset solves it.
#[wasm_bindgen]
pub fn exact(file: &str, text: &str) -> Result<String, JsError> {
    let mut rows = Vec::new();
    let never = Arc::new(AtomicBool::new(false));
    CliEngine
        .exact(file, text, &never, &mut |r| rows.push(r))
        .map_err(fail)?;
    serde_json::to_string(&rows).map_err(fail)
}

/// Shard `k` of `n` of the run (`trials` < 0: the file's): its accumulators (JSON).
#[wasm_bindgen]
pub fn run_shard(
    file: &str,
    text: &str,
    trials: f64,
    exact: bool,
    k: u32,
    n: u32,
) -> Result<String, JsError> {
    web::run_shard(file, text, trials_of(trials), exact, k.into(), n.into())
        .map_err(|e| fail(format!("{e:#}")))
}

/// Sums the shards (`shards`: JSON list of [`run_shard`] answers) and finishes the run: the
/// run's JSON document, exactly as `oddsmith run --json` prints it (without its newline).
/// The result is kept for [`charts`] and [`report_html`].
#[wasm_bindgen]
pub fn merge(
    file: &str,
    text: &str,
    trials: f64,
    exact: bool,
    shards: &str,
) -> Result<String, JsError> {
    let shards: Vec<String> = serde_json::from_str(shards).map_err(fail)?;
    let data = web::merged(file, text, trials_of(trials), exact, &shards)
        .map_err(|e| fail(format!("{e:#}")))?;
    let doc = oddsmith_report::format::json_pretty(&data.run).map_err(fail)?;
    LAST.with(|l| *l.borrow_mut() = Some(data));
    Ok(doc)
}

/// Registers the charts' font: the bytes of the report's bundled `DejaVuSans.ttf` (the page
/// serves it beside the wasm and hands it over before the first chart). The wasm does not
/// embed it, which keeps a third off its download; with it, the charts measure their text as
/// the native build does, so the SVG is the native one.
#[wasm_bindgen]
pub fn use_font(bytes: Vec<u8>) -> Result<(), JsError> {
    oddsmith_report::charts::use_font(Box::leak(bytes.into_boxed_slice())).map_err(fail)
}

/// The whole run in this instance (`trials` < 0: the file's), for what cannot be cut into
/// shards (a `[balance]` search): the run's JSON document as `oddsmith run --json` prints it.
/// The result is kept for [`charts`] and [`report_html`], as [`merge`]'s is.
#[wasm_bindgen]
pub fn run_whole(file: &str, text: &str, trials: f64, exact: bool) -> Result<String, JsError> {
    let data =
        web::whole(file, text, trials_of(trials), exact).map_err(|e| fail(format!("{e:#}")))?;
    let doc = oddsmith_report::format::json_pretty(&data.run).map_err(fail)?;
    LAST.with(|l| *l.borrow_mut() = Some(data));
    Ok(doc)
}

/// The charts of the last merged run (JSON list of `{stem, title, sweep, svg, error}`).
#[wasm_bindgen]
pub fn charts() -> String {
    LAST.with(|l| {
        let v = l.borrow().as_ref().map(web::charts).unwrap_or_default();
        serde_json::to_string(&v).unwrap_or_default()
    })
}

/// The report's sections on the results of the last merged run (JSON list of `{title, html}`).
#[wasm_bindgen]
pub fn sections() -> String {
    LAST.with(|l| {
        let v = l.borrow().as_ref().map(web::sections).unwrap_or_default();
        serde_json::to_string(&v).unwrap_or_default()
    })
}

/// The readings study of the text (`oddsmith run FILE --readings`'s, at the file's trials and
/// seed; the explorer's "depends on" panel): JSON, `null` when there is none. One worker runs
/// it whole (it is not cut into shards).
#[wasm_bindgen]
pub fn readings(file: &str, text: &str) -> Result<String, JsError> {
    let never = Arc::new(AtomicBool::new(false));
    let v = CliEngine.readings(file, text, &never).map_err(fail)?;
    serde_json::to_string(&v).map_err(fail)
}

/// The chart of sweep `sweep` of the last merged run with point `at` marked (JSON or `null`).
#[wasm_bindgen]
pub fn sweep_chart(sweep: u32, at: u32) -> String {
    LAST.with(|l| {
        let c = l
            .borrow()
            .as_ref()
            .and_then(|d| web::sweep_chart(d, sweep as usize, at as usize));
        serde_json::to_string(&c).unwrap_or_default()
    })
}

/// The report's page of the last merged run as one self-contained HTML file.
#[wasm_bindgen]
pub fn report_html() -> Result<String, JsError> {
    LAST.with(|l| match l.borrow().as_ref() {
        Some(d) => web::report_html(d).map_err(fail),
        None => Err(JsError::new("no run to report yet")),
    })
}
