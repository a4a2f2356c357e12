// The oddsmith explorer page: a form generated from the ruleset's declarations, the TOML
// beside it (edits go both ways through the server's comment-keeping TOML editor), live
// validation, a Monte Carlo preview that refines stage by stage with exact values streamed
// beside it, and the report's own charts (sweeps with sliders that mark the point).
"use strict";

const BOOT = JSON.parse(document.getElementById("boot").textContent);
const PAGE = Math.random().toString(36).slice(2) + Date.now().toString(36);
const $ = (id) => document.getElementById(id);

const st = {
  text: "", file: "scenario.toml", version: null, doc: null, ruleset: null, decl: null,
  check: null, job: 0, b: new Map(), errors: [], editSeq: 0,
};
window.oddsmith = st; // for tests and the curious

// Without a server (the static page of `web/`, the engine in WebAssembly) the same questions
// are answered in the page by `web/engine.js`.
const LOCAL = BOOT.engine === "wasm" ? window.oddsmithLocal : null;

async function api(method, url, body) {
  if (LOCAL) return LOCAL.api(method, url, body);
  const opt = { method, headers: {} };
  if (body !== undefined) {
    opt.headers["content-type"] = "application/json";
    opt.headers["x-oddsmith-token"] = BOOT.token;
    opt.body = JSON.stringify(body);
  }
  const r = await fetch(url, opt);
  const v = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw Object.assign(new Error(v.error || r.statusText), { status: r.status });
  return v;
}

/// Whether a failed request may succeed when sent again: the server unreachable for a moment
/// or busy (a network error has no status; 503 is the explorer's "busy"). The engine in the
/// page (WebAssembly) has no network to lose.
const transient = (e) => !LOCAL && (e.status === undefined || e.status >= 500);

/// `api` sent again after a transient failure while `current()` holds (a page whose request
/// failed once would otherwise show nothing more until the next edit), waiting 0.5 s, 1 s,
/// then 2 s between tries (within the server's patience with a page that stops polling) and
/// saying so in the status line.
async function persistent(current, method, url, body) {
  let said = null;
  for (let wait = 500; ; wait = Math.min(2 * wait, 2000)) {
    try {
      const r = await api(method, url, body);
      if (said !== null && $("status").textContent === said) status("");
      return r;
    } catch (e) {
      if (!transient(e) || !current()) throw e;
      said = `${e.message}: trying again`;
      status(said, true);
      await new Promise((res) => setTimeout(res, wait));
      if (!current()) throw e;
    }
  }
}

function status(msg, bad) {
  const s = $("status");
  s.textContent = msg;
  s.className = bad ? "bad" : "";
}

const pct = (p) => (p == null ? "—" : (100 * p).toFixed(2) + " %");
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
};

// ---- opening -------------------------------------------------------------------------

async function init() {
  const cat = await api("GET", "/api/catalog");
  const sel = $("open");
  const g1 = el("optgroup", { label: "Bundled scenarios" });
  for (const n of cat.bundled) g1.append(el("option", { value: "bundled:" + n }, n));
  const g2 = el("optgroup", { label: "New from template" });
  for (const r of cat.rulesets) g2.append(el("option", { value: "template:" + r.id }, r.id + " — " + r.title));
  sel.append(el("option", { value: "" }, "…"), g1, g2);
  if (cat.file) sel.prepend(el("option", { value: "file:" + cat.file }, cat.file));
  sel.addEventListener("change", () => (sel.value ? openFrom(sel.value) : showSource()));
  $("toml").addEventListener("input", () => { st.text = $("toml").value; changed(); });
  $("file").addEventListener("change", () => { st.file = $("file").value; st.version = null; });
  $("save").addEventListener("click", save);
  $("report").addEventListener("click", report);
  $("share").addEventListener("click", share);
  if (LOCAL) {
    // No folder to write to: the file and the report are downloads.
    $("save").textContent = "Download TOML";
    $("save").title = "Download the TOML";
    $("report").textContent = "HTML report";
    $("report").title = "Run at the file's trials and download the report as one HTML file";
  }
  const shared = await fromHash();
  if (shared) { st.source = "shared:"; showSource("the shared link"); return setText(shared, "shared.toml", null, true); }
  if (cat.file) return openFrom("file:" + cat.file);
  return openFrom("bundled:" + (cat.bundled.find((n) => n === "draft/skill-gap") || cat.bundled[0]));
}

let opening = 0;
async function openFrom(what) {
  const mine = ++opening;
  const [kind, name] = [what.slice(0, what.indexOf(":")), what.slice(what.indexOf(":") + 1)];
  try {
    const q = new URLSearchParams({ [kind]: name });
    const o = await api("GET", "/api/open?" + q);
    if (mine !== opening) return; // a later open (the page's first file, then a pick) wins
    st.b.clear();
    st.source = what;
    showSource();
    setText(o.text, o.file, o.version, true);
    status("opened " + o.source);
  } catch (e) { status(e.message, true); }
}

/// Shows the open file (`st.source`) as the Open list's choice, listing it first when the list
/// has no such entry (a shared link, a file saved under a new name).
function showSource(label) {
  const sel = $("open");
  if (!st.source) return;
  let o = [...sel.options].find((x) => x.value === st.source);
  if (!o) {
    o = el("option", { value: st.source, "data-current": "" }, label || st.source.replace(/^file:/, ""));
    sel.querySelectorAll("option[data-current]").forEach((x) => x.remove());
    sel.prepend(o);
  }
  sel.value = st.source;
}

function setText(text, file, version, fresh) {
  st.text = text;
  if (file) { st.file = file; $("file").value = file; }
  if (fresh) st.version = version;
  $("toml").value = text;
  changed(true);
}

// ---- validation, exact values and the preview -----------------------------------------

let debounce = null;
/// The text changed (`at`: when the user made the change, if not now).
function changed(now, at) {
  clearTimeout(debounce);
  st.editSeq++;
  st.editedAt = at ?? performance.now();
  st.job = 0; // the running job's answers are for the old text: its poll stops
  st.jobDone = false;
  st.firstNumberMs = null;
  st.numberIn = new Promise((res) => (st.numberResolve = res));
  debounce = setTimeout(refresh, now ? 0 : 250);
}

/// Records the time from the edit to the first number on the page (exact or Monte Carlo).
function numberShown() {
  if (st.firstNumberMs == null) st.firstNumberMs = performance.now() - st.editedAt;
  st.numberResolve?.();
}

async function refresh() {
  const seq = st.editSeq;
  const text = st.text;
  const since = () => Math.round(performance.now() - st.editedAt);
  // Where the time between the edit and its first number goes (ms since the edit), for the
  // browser test's report.
  st.timing = {};
  // The preview starts beside the check (the server validates it again and refuses an
  // invalid text), so its first number does not wait for the form to be drawn.
  const run = startRun(seq);
  let r;
  try { r = await persistent(() => seq === st.editSeq, "POST", "/api/check", { text, file: st.file }); }
  catch (e) { return seq === st.editSeq && status(e.message, true); }
  if (seq !== st.editSeq) return; // a newer edit is on its way
  st.timing.checked = since();
  st.check = r.check;
  st.doc = r.doc;
  st.order = (r.order && r.order.fighters) || [];
  st.errors = r.check.errors;
  // While the text has errors, what the page shows below the answers is of an earlier text:
  // greyed until the next valid text's numbers replace it.
  $("results-pane").classList.toggle("stale", st.errors.length > 0);
  $("summary").textContent = r.check.summary;
  const warned = (r.check.warnings || []).map(w =>
    "warning: line " + w.line + ":" + w.column + (w.field ? " " + w.field : "") + ": " + w.message);
  $("notes").textContent = warned.concat(r.check.notes || []).join(" · ");
  renderRows();
  // The numbers first: the poll starts as soon as the run is under way, and the form (which
  // already shows a value typed into it) is redrawn once the first number is in, or after
  // 150 ms at most.
  if (!st.errors.length) {
    const job = await run;
    if (seq !== st.editSeq) return;
    if (job && job.error) status(job.error, true); // e.g. more work than the explorer's limit
    else if (job) {
      st.timing.running = since();
      status("running " + job.stages.map(k).join(" → ") + " trials");
      await Promise.race([st.numberIn, new Promise((res) => setTimeout(res, 150))]);
      if (seq !== st.editSeq) return;
    }
  }
  if (r.check.ruleset && r.check.ruleset !== st.ruleset) {
    st.decl = await api("GET", "/api/ruleset/" + encodeURIComponent(r.check.ruleset)).catch(() => null);
    st.ruleset = r.check.ruleset;
  }
  if (seq !== st.editSeq) return;
  renderForm();
  renderErrors();
  st.timing.form = since();
  st.renderedSeq = seq; // the form and the rows show this edit
  if (st.errors.length) status("invalid: fix the marked field", true);
}

/// Starts the preview of edit `seq` (cancelling the page's previous one): the job, or
/// `{error}` when the server refuses the text, or `null` when a newer edit came.
async function startRun(seq) {
  const b = [...st.b.entries()].map(([k, v]) => ({ path: JSON.parse(k), value: v }));
  let r;
  try { r = await persistent(() => seq === st.editSeq, "POST", "/api/run", { page: PAGE, text: st.text, file: st.file, b }); }
  catch (e) { if (seq === st.editSeq) status(e.message, true); return null; }
  if (seq !== st.editSeq) return null;
  if (r.refused) return { error: r.refused }; // shown unless the check finds errors
  st.job = r.job;
  st.jobDone = false;
  // Followed at once: the server cancels a job its page stops asking for.
  poll(r.job);
  return r;
}

// A closed page's job is cancelled at once (the server would notice within seconds anyway).
addEventListener("pagehide", () => {
  if (LOCAL) return LOCAL.api("POST", "/api/cancel", { page: PAGE });
  fetch("/api/cancel", {
    method: "POST", keepalive: true,
    headers: { "content-type": "application/json", "x-oddsmith-token": BOOT.token },
    body: JSON.stringify({ page: PAGE }),
  }).catch(() => {});
});
// Back from the browser's page cache: the job was cancelled as the page left; run it again.
addEventListener("pageshow", (e) => { if (e.persisted && st.text) changed(true); });

const pts = (x) => (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(100 * x).toFixed(2);
const k = (n) => (n >= 1000 ? n / 1000 + "k" : String(n));

/// Follows the job: each answer waits on the server until something new is published.
async function poll(job) {
  let seen = 0, version = 0, exactSeen = 0, charted = 0, told = false;
  renderReadings(null);
  while (st.job === job) {
    let s;
    try { s = await persistent(() => st.job === job, "GET", `/api/job?page=${PAGE}&job=${job}&since=${version}`); }
    catch (e) { return st.job === job && status(e.message, true); }
    if (s.replaced || st.job !== job) return;
    // The page was asleep (a frozen tab) and the server cancelled its job: run it again.
    if (s.abandoned) return changed(true);
    version = s.version;
    // What the page last heard of its job, for a test that times out to print.
    st.heard = { job, version, finished: s.finished, stages: s.stages, exact: s.exact.length, exact_done: s.exact_done, readings_done: s.readings_done, done: s.done, cancelled: s.cancelled, error: s.error, ms: s.ms };
    if (s.exact.length > exactSeen || s.exact_done) {
      exactSeen = s.exact.length;
      if (exactSeen) numberShown();
      renderExact(s.exact, s.exact_done);
    }
    if (s.finished > seen) {
      seen = s.finished;
      numberShown();
      renderRun(s);
    }
    // Charts cost the server up to a few hundred milliseconds to draw: after the first stage
    // and the last, not in between (the numbers above refine at every stage), and not held
    // back by the readings study still running beside them.
    if (seen > charted && (charted === 0 || s.finished === s.stages.length || s.done)) {
      charted = seen;
      loadCharts(job, s.result);
    }
    // An engine without the readings study (`readings_done` absent) shows no panel.
    if (!("readings_done" in s)) $("depends").replaceChildren();
    else if (s.readings_done || s.done) renderReadings(s.readings, true);
    // The preview is done once its last stage is in (the readings may still be coming).
    const last = s.finished === s.stages.length;
    if (last) st.jobDone = true; // the preview's numbers are final
    if ((last || s.done) && !told) {
      if (s.error) status(s.error, true);
      else if (last) { told = true; status(`done: ${k(s.stages[s.stages.length - 1])} trials in ${(s.ms[s.ms.length - 1] / 1000).toFixed(1)} s`); }
    }
    if (s.done) {
      st.jobDone = true;
      if (s.error && !told) status(s.error, true);
      return;
    }
  }
}

/// One row per matchup of the file, waiting for its numbers.
function renderRows() {
  const body = $("answers").tBodies[0];
  const matchups = (st.doc && st.doc.matchup) || [];
  body.replaceChildren(...matchups.map((m) => el("tr", { "data-matchup": m.name },
    el("td", {}, m.name, m.name === `${sideLabel(m.a)} vs ${sideLabel(m.b)}` ? null : el("div", { class: "muted" }, `${sideLabel(m.a)} vs ${sideLabel(m.b)}`)),
    el("td", { class: "exact", title: "solving…" }, "…"),
    el("td", { class: "mc" }, "…"), el("td", { class: "ci" }, ""),
    el("td", { class: "draw" }, ""))));
}

function renderExact(rows, done) {
  for (const tr of $("answers").tBodies[0].rows) {
    const x = rows.find((r) => r.matchup === tr.dataset.matchup);
    const td = tr.querySelector(".exact");
    if (x) {
      td.textContent = pct(x.p_a_win);
      td.title = "exact";
      tr.querySelector(".draw").textContent = pct(x.p_draw);
    } else if (done) {
      td.textContent = "—";
      td.title = "no exact solution for this matchup (see the notes); Monte Carlo only";
    }
  }
}

function bar(p, lo, hi) {
  return el("div", { class: "bar", title: `${pct(lo)} – ${pct(hi)}` },
    el("i", { style: `left:${100 * lo}%;width:${Math.max(0.5, 100 * (hi - lo))}%` }),
    el("b", { style: `left:calc(${100 * p}% - 1px)` }));
}

function renderRun(s) {
  const doc = s.result;
  const stage = s.stages[s.finished - 1];
  $("stage").textContent = `Monte Carlo: ${k(stage)} trials per run (stage ${s.finished} of ${s.stages.length}, ${s.ms[s.finished - 1]} ms)`;
  for (const m of doc.matchups || []) {
    const tr = [...$("answers").tBodies[0].rows].find((r) => r.dataset.matchup === m.name);
    if (!tr) continue;
    tr.querySelector(".mc").textContent = pct(m.p_a_win);
    const [lo, hi] = m.p_a_win_ci95;
    tr.querySelector(".ci").replaceChildren(el("div", {}, `${(100 * lo).toFixed(2)} – ${pct(hi)}`), bar(m.p_a_win, lo, hi));
    if (tr.querySelector(".draw").textContent === "") tr.querySelector(".draw").textContent = pct(m.p_draw);
  }
  renderAb(s.ab);
}

// ---- the report's charts, and sliders on the sweeps' ---------------------------------------

/// An SVG drawn by the server, shown as an image (its text cannot run as page content).
function svgImage(svg, alt) {
  const img = el("img", { class: "chart", alt, title: "click: full size", src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg) });
  img.addEventListener("click", () => img.classList.toggle("full"));
  return img;
}

/// A chart as the page shows it: the image, or why it could not be drawn.
function chartBody(c) {
  return c.error ? el("div", { class: "chart-error" }, `${c.title}: could not be drawn (${c.error})`) : svgImage(c.svg, c.title);
}

let chartsBusy = null;
/// The charts of the job's latest stage (one request at a time; the latest stage wins).
async function loadCharts(job, doc) {
  if (chartsBusy) { chartsBusy.again = { job, doc }; return; }
  chartsBusy = {};
  try {
    const r = await persistent(() => st.job === job, "GET", `/api/charts?page=${PAGE}&job=${job}&width=${chartWidth()}`);
    if (st.job === job) renderCharts(job, doc, r.charts);
    // The report's sections on the results (a group fight's members, …); an engine without
    // them has none.
    const sec = await api("GET", `/api/sections?page=${PAGE}&job=${job}`).catch(() => ({ sections: [] }));
    if (st.job === job) renderSections(job, sec.sections || []);
  } catch (e) { status(e.message, true); }
  const again = chartsBusy.again;
  chartsBusy = null;
  if (again && st.job === again.job) loadCharts(again.job, again.doc);
}

/// Charts are shown this much larger than drawn: the chart code's smallest labels come out
/// at 10.5 px in its SVG, shown at 11.5 px.
const CHART_ZOOM = 1.1;

/// The width charts are drawn at: the answers' column (shown at its full width, CHART_ZOOM
/// times larger), so their text keeps its size where the report's charts, much wider, would
/// be shrunk to fit.
function chartWidth() {
  const pane = $("results-pane");
  const cs = getComputedStyle(pane);
  const column = pane.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return Math.max(320, Math.floor(column / CHART_ZOOM));
}

/// The report's own sections about the results, one folded block each (open as the user left
/// them), under the answers.
function renderSections(job, sections) {
  const box = $("sections");
  box.dataset.job = job;
  box.replaceChildren(...sections.map((x) => {
    const d = fold("section:" + x.title, x.title);
    d.classList.add("report-section");
    d.dataset.section = x.title;
    const body = el("div", { class: "report-html" });
    body.innerHTML = x.html; // the report's own rendering: its text is escaped
    body.querySelector("h2")?.remove(); // the summary line is the title
    d.append(body);
    return d;
  }));
}

// ---- the "depends on" panel: the readings study, filled in the background -----------------

const pp = (x) => (100 * x).toFixed(1);

/// The readings study (`null` while it runs): per matchup whether its verdict holds under
/// every reading, the factors that move it (largest first) and the others in one line.
function renderReadings(r, done) {
  const box = $("depends");
  if (!done) {
    box.replaceChildren(el("h3", {}, "Depends on"), el("p", { class: "muted" }, "trying every reading of the rules and every invented number, one at a time…"));
    box.dataset.state = "running";
    return;
  }
  box.dataset.state = "done";
  if (!r) {
    box.replaceChildren(el("h3", {}, "Depends on"), el("p", { class: "muted" }, "no reading or invented number of the rules changes these matchups' fighters or options"));
    return;
  }
  if (r.error) { box.replaceChildren(el("h3", {}, "Depends on"), el("p", { class: "chart-error" }, r.error)); return; }
  const parts = [el("h3", { title: "oddsmith run FILE --readings: each reading paired with the default on the same random numbers" }, "Depends on")];
  for (const m of r.readings || []) {
    const base = m.baseline_exact ?? m.baseline.p;
    const shown = m.readings.filter((x) => x.matters);
    const quiet = m.readings.filter((x) => !x.matters);
    const sec = el("div", { class: "reading", "data-matchup": m.matchup },
      el("div", {}, el("b", {}, m.matchup), `: P(A wins) ${pp(base)} % as read by default; the verdict `,
        el("span", { class: m.robust ? "holds" : "depends" }, m.robustness)));
    if (shown.length) {
      sec.append(el("table", { class: "num readings" },
        el("thead", {}, el("tr", {}, ...["reading", "P(A wins)", "change (pts, 95 %)", "verdict"].map((h) => el("th", {}, h)))),
        el("tbody", {}, ...shown.map((x) => {
          const exact = x.exact_delta != null;
          const d = exact ? x.exact_delta : x.delta.diff;
          return el("tr", { "data-factor": x.factor, "data-value": x.value },
            el("td", { class: "factor", title: `${x.kind}: ${x.factor} (default ${x.baseline_value})` }, x.label, el("small", {}, ` ${x.kind}`)),
            el("td", {}, `${pp(x.exact ?? x.p_a_win.p)} %`),
            el("td", {}, el("span", { class: "delta" }, (d > 0 ? "+" : d < 0 ? "−" : "") + pp(Math.abs(d))),
              el("small", {}, exact ? " exact" : ` [${pp(x.delta.lo)}, ${pp(x.delta.hi)}]`)),
            el("td", {}, x.verdict_holds ? "holds" : "flips"));
        }))));
    }
    if (quiet.length) {
      // Summed up in one line (the report's rule), the values folded away.
      const d = fold(`quiet:${m.matchup}`, `${shown.length ? `${quiet.length} more` : `All ${quiet.length}`} ${quiet.length === 1 ? "reading moves" : "readings move"} it less than 2 points or not significantly`);
      d.classList.add("small-factors");
      d.append(el("div", { class: "muted" }, quiet.map((x) => x.label).join(", ")));
      sec.append(d);
    }
    parts.push(sec);
  }
  for (const l of r.lines || []) parts.push(el("p", {}, l));
  for (const b of r.balance_readings || []) parts.push(el("p", { class: "muted" }, `balance under ${b.factor} = ${b.value}: ${b.solved ?? "no crossing in the range"}`));
  for (const p of r.placeholders || []) parts.push(el("p", { class: "muted" }, `placeholder: ${p}`));
  box.replaceChildren(...parts);
}

function renderCharts(job, doc, charts) {
  const sweeps = (doc.study && doc.study.sweeps) || [];
  const box = $("sweeps");
  box.replaceChildren(...charts.filter((c) => c.sweep != null && sweeps[c.sweep])
    .map((c) => sweepFigure(job, c, sweeps[c.sweep])));
  const others = charts.filter((c) => c.sweep == null);
  const more = $("charts");
  const open = more.open || !more.dataset.seen;
  more.dataset.seen = "1";
  more.replaceChildren(el("summary", {}, `Charts of the report (${others.length})`),
    ...others.map((c) => el("figure", { "data-stem": c.stem }, c.caption ? el("figcaption", {}, c.caption) : null, chartBody(c))));
  more.open = open;
}

/// A sweep's chart with one slider per axis: moving it marks the point on the report's chart.
function sweepFigure(job, c, sw) {
  const i = c.sweep;
  const nx = sw.x.values.length, ny = sw.y ? sw.y.values.length : 1;
  const at = (st.sweepAt ||= {})[i] ?? { x: Math.floor(nx / 2), y: Math.floor(ny / 2) };
  const img = c.error ? el("img", { class: "chart", alt: c.title, hidden: "" }) : svgImage(c.svg, c.title);
  const out = el("div", { class: "sweep-value" });
  const slider = (axis, n) => {
    const s = el("input", { type: "range", min: 0, max: n - 1, step: 1, value: at[axis], "data-sweep": i, "data-axis": axis, title: (axis === "x" ? sw.x : sw.y).target });
    s.addEventListener("input", () => { at[axis] = +s.value; show(); });
    return el("label", { class: "slider" }, el("span", {}, (axis === "x" ? sw.x : sw.y).target), s);
  };
  let busy = false, again = false;
  const show = async () => {
    st.sweepAt[i] = at;
    const p = sw.points[at.y * nx + at.x];
    if (!p) return;
    const where = `${sw.x.target} = ${label(sw.x, p.x)}` + (sw.y ? `, ${sw.y.target} = ${label(sw.y, p.y)}` : "");
    // Where the point is solved, the exact value speaks and Monte Carlo is its check.
    const mc = `${pct(p.p_a_win.p)} (95 % ${pct(p.p_a_win.lo)} – ${pct(p.p_a_win.hi)})`;
    out.textContent = `${where}: P(A wins) ` +
      (p.exact_p_a_win != null ? `${pct(p.exact_p_a_win)} exact (Monte Carlo ${mc})` : mc);
    out.dataset.at = at.y * nx + at.x;
    if (busy) { again = true; return; }
    busy = true;
    try {
      const r = await api("GET", `/api/sweep?page=${PAGE}&job=${job}&sweep=${i}&at=${at.y * nx + at.x}&width=${chartWidth()}`);
      if (r.chart && !r.chart.error) { img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(r.chart.svg); img.dataset.at = at.y * nx + at.x; }
    } catch (e) { status(e.message, true); }
    busy = false;
    if (again) { again = false; show(); }
  };
  const wrap = el("div", { class: "sweep", "data-sweep": i }, el("h3", {}, `Sweep: ${sw.name} (${sw.matchup})`), img, c.error ? chartBody(c) : null,
    slider("x", nx), sw.y ? slider("y", ny) : null, out);
  show();
  return wrap;
}

/// An axis value as the report writes it (the text of a text or true/false axis).
function label(axis, v) {
  const l = axis.labels && axis.labels[v];
  return l != null ? l : String(v);
}

// ---- the house-rule B column -------------------------------------------------------------

/// The verdict on one paired difference (`d.diff` is file − house rule), in the comparison's
/// terms: a favoured variant when significant and at least the practical threshold `t`. The
/// server has already chosen the figure that speaks (`d.exact`: both variants solved, the
/// exact difference; else the paired Monte Carlo one), so this only words it. The variants are
/// "the file" and "the house rule" (the B column), never "A" and "B", which name the sides.
function abVerdict(d, t) {
  const pt = (x) => (100 * x).toFixed(2);
  const tt = `${(100 * t).toFixed(1)}-point threshold`;
  const way = (up) => `side A wins ${up ? "more" : "less"} often under the house rule`;
  if (d.decisive) return way(d.diff < 0) + (d.exact ? " (exact)" : "");
  if (d.exact) {
    if (d.diff === 0) return "no difference (exact)";
    return `${way(d.diff < 0)}: ${pt(Math.abs(d.diff))} pts exactly, under the ${tt}`;
  }
  if (d.lo > 0 || d.hi < 0) {
    const [lo, hi] = d.hi < 0 ? [-d.hi, -d.lo] : [d.lo, d.hi];
    return `${way(d.hi < 0)}: ${pt(lo)}–${pt(hi)} pts, under the ${tt}`;
  }
  if (d.lo >= -t && d.hi <= t) return `no difference of ${(100 * t).toFixed(1)} pts or more`;
  return "undecided: more trials would tell";
}

/// The Monte Carlo check beside an exact difference: `; Monte Carlo −2.10, +0.4 se` (house
/// rule − file).
function mcCheck(d) {
  const m = d.monte_carlo_check;
  if (!m) return "";
  const z = -m.z; // house rule − file, as the column
  return `; Monte Carlo ${pts(-m.monte_carlo.diff)}, ${(z >= 0 ? "+" : "") + z.toFixed(1)} standard errors from exact`;
}

function renderAb(ab) {
  const box = $("ab");
  if (!ab || !ab.comparison) { box.replaceChildren(); return; }
  const c = ab.comparison;
  const rows = (c.archetypes || []).map((a) => {
    const d = a.p_a_win;
    return el("tr", {},
      el("td", {}, a.archetype),
      el("td", {}, pct(d.values[0])), el("td", {}, pct(d.values[1])),
      el("td", { class: "diff" }, pts(-d.diff) + " pts"),
      el("td", {}, d.exact ? "exact" + mcCheck(d) : `${(100 * -d.hi).toFixed(2)} … ${(100 * -d.lo).toFixed(2)}`),
      el("td", { class: "verdict-cell" }, abVerdict(d, c.practical_threshold)));
  });
  box.replaceChildren(
    el("h3", {}, "House rule: the file against the file with the B column's values, on common random numbers"),
    el("table", { class: "num", id: "ab-table" },
      el("thead", {}, el("tr", {}, ...["matchup", "P(side A wins): file", "house rule", "house − file", "95 % interval (pts)", "verdict"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)),
    el("p", { class: "verdict" }, ...(c.verdicts || []).map((v) => el("div", {}, typeof v === "string" ? v : v.text || JSON.stringify(v)))));
}

// ---- the form ------------------------------------------------------------------------------

/// The fighters' names in the file's order (a parsed document lists them by name).
function fighterNames() {
  const have = Object.keys((st.doc && st.doc.fighters) || {});
  const first = (st.order || []).filter((n) => have.includes(n));
  return first.concat(have.filter((n) => !first.includes(n)));
}

const key = (path) => JSON.stringify(path);
st.open = new Set();

/// A folded section that stays open or closed across re-renders.
function fold(id, title) {
  const d = el("details", { "data-fold": id }, el("summary", {}, title));
  d.open = st.open.has(id);
  d.addEventListener("toggle", () => (d.open ? st.open.add(id) : st.open.delete(id)));
  return d;
}

async function edit(ops) {
  const at = performance.now();
  try {
    const r = await api("POST", "/api/edit", { text: st.text, ops });
    st.text = r.text;
    $("toml").value = r.text;
    changed(true, at); // a form change is one discrete edit: no need to wait for more keys
  } catch (e) { status(e.message, true); }
}

/// The equipment table whose title names `field` (`weapons (weapon = "…")`).
function table(field) {
  return (st.decl?.equipment || []).find((t) => t.title.includes(`(${field} = `) || t.title.includes(`; ${field} = `));
}

function stats(t, name) {
  const r = t && t.rows.find((r) => r.name === name);
  return r ? t.columns.filter((c) => c !== "name").map((c) => `${c} ${r[c]}`).join(" · ") : "";
}

function input(path, decl, value, onchange) {
  const t = table(decl.name);
  const kind = decl.json && typeof value !== "boolean" && typeof value !== "number" && typeof value !== "string" ? "json"
    : typeof value === "boolean" || /^(true|false)$/.test(decl.default) ? "bool"
    : typeof value === "number" || (value === undefined && /^-?\d+(\.\d+)?$/.test(decl.default)) ? "number"
    : value !== undefined && typeof value === "object" ? "table" : "text";
  let e;
  if (kind === "bool") {
    e = el("input", { type: "checkbox" });
    e.checked = value === undefined ? decl.default === "true" : value;
    e.addEventListener("change", () => onchange(e.checked));
  } else if (kind === "number") {
    e = el("input", { type: "number", step: "any", value: value ?? "", placeholder: decl.default });
    e.addEventListener("change", () => onchange(e.value === "" ? null : Number(e.value)));
  } else if (kind === "json") {
    // Lists, tables and free values, written as JSON (`[3, 9]`, `{ "knight": 10 }`, `"sword"`).
    e = el("input", { type: "text", value: value === undefined ? "" : JSON.stringify(value), placeholder: "JSON, e.g. [1, 2, 3]", spellcheck: "false" });
    e.addEventListener("change", () => {
      if (e.value.trim() === "") return onchange(null);
      let v;
      try { v = JSON.parse(e.value); } catch { v = /^-?\d+(\.\d+)?$/.test(e.value.trim()) ? Number(e.value) : e.value; }
      onchange(v);
    });
  } else if (kind === "table") {
    e = el("input", { type: "text", value: JSON.stringify(value), readonly: "", title: "edit this table in the TOML" });
  } else if (decl.choices) {
    e = el("select", {}, el("option", { value: "" }, "(none)"), ...decl.choices.map((c) => el("option", { value: c }, c)));
    if (value !== undefined && !decl.choices.includes(value)) e.append(el("option", { value }, value));
    e.value = value ?? "";
    e.addEventListener("change", () => onchange(e.value === "" ? null : e.value));
  } else if (t) {
    e = el("select", {}, el("option", { value: "" }, `(${decl.default})`));
    for (const r of t.rows) e.append(el("option", { value: r.name }, r.name));
    if (value !== undefined && !t.rows.some((r) => r.name === value)) e.append(el("option", { value }, value));
    e.value = value ?? "";
    e.addEventListener("change", () => onchange(e.value === "" ? null : e.value));
  } else {
    e = el("input", { type: "text", value: value ?? "", placeholder: decl.default });
    e.addEventListener("change", () => onchange(e.value === "" ? null : e.value));
  }
  e.dataset.path = path.join(".");
  return e;
}

function row(path, decl, value, noB) {
  const bKey = key(path);
  const inB = st.b.has(bKey);
  const e = input(path, decl, value, (v) => edit([{ op: "set", path, value: v }]));
  const r = el("div", { class: "row", "data-field": path.join(".") },
    el("label", { title: decl.doc }, decl.name), e,
    noB ? el("span") : el("button", { class: "small" + (inB ? " on" : ""), title: "Put this field in the B column (house rule)", "data-b": path.join("."),
      onclick: () => { if (inB) st.b.delete(bKey); else st.b.set(bKey, value ?? defaultValue(decl)); renderForm(); changed(true); } }, "B"));
  const t = table(decl.name);
  if (t && typeof value === "string") r.append(el("div", { class: "stats" }, stats(t, value)));
  if (inB) {
    const be = input(path, decl, st.b.get(bKey), (v) => { st.b.set(bKey, v); changed(true); });
    be.dataset.path = "B." + path.join(".");
    r.append(el("div", { class: "bval" }, "B: ", be));
  }
  return r;
}

function defaultValue(d) {
  if (/^(true|false)$/.test(d.default)) return d.default === "true";
  if (/^-?\d+(\.\d+)?$/.test(d.default)) return Number(d.default);
  return d.default.replace(/^"|"$/g, "");
}

function renderForm() {
  const f = $("form");
  const focus = document.activeElement?.dataset?.path;
  f.replaceChildren();
  const doc = st.doc;
  if (!doc || !st.decl) { f.append(el("p", { class: "muted" }, doc ? "pick a ruleset" : "the TOML does not parse: fix it on the right")); return; }
  const info = st.decl.info;
  f.append(el("h2", {}, `${info.title} `, el("small", {}, info.id)));
  for (const top of ["name", "trials", "seed"]) {
    const r = row([top], { name: top, default: "", doc: "" }, doc[top], true);
    if (top === "trials" && doc.precision != null) {
      // A precision target: each matchup runs until its interval is that narrow.
      const cap = doc.trials != null ? `at most ${doc.trials.toLocaleString("en")} trials` : "trials as needed";
      r.querySelector("input").placeholder = `precision ${doc.precision}`;
      r.append(el("div", { class: "stats", "data-precision": doc.precision },
        `precision = ${doc.precision}: each matchup runs until its 95 % interval is ±${(100 * doc.precision).toFixed(2)} points (${cap}; the preview stops at ${k(st.check.trials)})`));
    }
    f.append(r);
  }
  // Fighters.
  const fighters = doc.fighters || {};
  f.append(el("h3", {}, "Fighters", el("button", { class: "small", onclick: addFighter }, "+ add")));
  for (const name of fighterNames()) {
    const spec = fighters[name];
    const box = el("div", { class: "fighter" }, el("h3", {}, name,
      el("button", { class: "small", onclick: () => copyFighter(name) }, "copy"),
      el("button", { class: "small", onclick: () => edit([{ op: "set", path: ["fighters", name], value: null }]) }, "remove")));
    for (const d of info.fighter_fields) {
      const v = spec[d.name];
      const r = row(["fighters", name, d.name], d, v);
      if (v === undefined && d.default !== "required") {
        const det = box.querySelector("details") || box.appendChild(fold("more:" + name, "more fields"));
        det.append(r);
      } else box.append(r);
    }
    f.append(box);
  }
  // Matchups.
  f.append(el("h3", {}, "Matchups", el("button", { class: "small", onclick: addMatchup }, "+ add")));
  (doc.matchup || []).forEach((m, i) => {
    const box = el("div", { class: "matchup", "data-matchup": i },
      el("div", { class: "entry-head" }, el("b", {}, m.name || `${sideLabel(m.a)} vs ${sideLabel(m.b)}`),
        el("button", { class: "small", onclick: () => edit([{ op: "set", path: ["matchup", i], value: null }]) }, "remove")),
      sideEditor(i, "a", m.a), sideEditor(i, "b", m.b));
    f.append(box);
  });
  // Options, with the file's own values first.
  f.append(el("h3", {}, "Options"));
  const opts = doc.options || {};
  const more = fold("options", "every option (defaults)");
  for (const d of info.options) {
    const r = row(["options", d.name], d, opts[d.name]);
    if (opts[d.name] === undefined && !st.b.has(key(["options", d.name]))) more.append(r); else f.append(r);
  }
  f.append(more);
  renderStudy(f, doc);
  if (focus) f.querySelector(`[data-path="${CSS.escape(focus)}"]`)?.focus();
}

// ---- study sections, from the scenario schema (the declarations `oddsmith schema` writes) ----

const STUDY = {
  sweep: "one or two fields or options varied over a range, every point on the same random numbers",
  balance: "the value of one field or option that makes a matchup fair (or hits a target)",
  tournament: "every fighter against every other, with costs and fairness",
  check: "a table of check success chances",
  assert: "expected ranges the run must meet",
};

function renderStudy(f, doc) {
  const props = st.decl.schema?.properties || {};
  f.append(el("h3", {}, "Study"));
  const m = (doc.matchup || [])[0];
  for (const [s, about] of Object.entries(STUDY)) {
    const sch = props[s];
    if (!sch) continue;
    const box = el("div", { class: "study", "data-section": s });
    if (sch.type === "array") {
      const items = doc[s] || [];
      const starter = { name: `${s} ${items.length + 1}`, ...(m && s !== "check" ? { matchup: m.name } : {}) };
      box.append(el("h3", { title: about }, `${s} (${items.length})`,
        el("button", { class: "small", "data-add": s, onclick: () => edit([{ op: "push", path: [s], value: starter }]) }, "+ add")));
      items.forEach((item, i) => box.append(objectBox([s, i], sch.items, item, item.name || `${s} ${i + 1}`)));
    } else {
      const v = doc[s];
      const starter = m ? { matchup: m.name } : { name: s };
      box.append(el("h3", { title: about }, s, v
        ? el("button", { class: "small", onclick: () => edit([{ op: "set", path: [s], value: null }]) }, "remove")
        : el("button", { class: "small", "data-add": s, onclick: () => edit(Object.entries(starter).map(([k, x]) => ({ op: "set", path: [s, k], value: x }))) }, "+ add")));
      if (v) box.append(objectBox([s], sch, v, null));
    }
    box.append(el("div", { class: "muted" }, about));
    f.append(box);
  }
}

/// The names a study key picks from: fighters, matchups, fighter fields or options.
function choices(name) {
  const info = st.decl.info, doc = st.doc;
  if (name === "fighter") return fighterNames();
  if (name === "matchup") return (doc.matchup || []).map((m) => m.name);
  if (name === "field") return info.fighter_fields.map((d) => d.name);
  if (name === "option") return info.options.map((d) => d.name);
  return null;
}

/// The keys of a study table: the ones written first, the rest folded; nested tables (a
/// sweep's y axis, a check's rows and columns) as their own boxes.
function objectBox(path, sch, value, title) {
  const box = el("div", { class: "entry", "data-path": path.join(".") });
  if (title != null) {
    box.append(el("div", { class: "entry-head" }, el("b", {}, title),
      el("button", { class: "small", onclick: () => edit([{ op: "set", path, value: null }]) }, "remove")));
  }
  const more = fold("more:" + path.join("."), "more keys");
  for (const [name, p] of Object.entries(sch.properties || {})) {
    const v = value[name];
    if (p.type === "object" && p.properties) {
      const sub = objectBox([...path, name], p, v && typeof v === "object" ? v : {}, null);
      const d = fold("sub:" + [...path, name].join("."), name);
      d.append(sub);
      (v === undefined ? more : box).append(d);
      continue;
    }
    const decl = { name, default: "", doc: p.description || "", json: p.type === "array" || p.type === "object" || !p.type, choices: choices(name) };
    const r = row([...path, name], decl, v, true);
    (v === undefined ? more : box).append(r);
  }
  if (more.children.length > 1) box.append(more);
  return box;
}

// ---- a matchup's sides: a fighter, or a list of members (groups) ----------------------------

/// The targeting policies a member may take, from the ruleset's scenario schema (none: the
/// ruleset fields no groups, and a side is one fighter).
function targetPolicies() {
  const side = st.decl?.schema?.properties?.matchup?.items?.properties?.a;
  const list = (side?.anyOf || []).find((x) => x.type === "array");
  const member = (list?.items?.anyOf || []).find((x) => x.type === "object");
  return member ? member.properties?.target?.enum || [] : null;
}

/// A side as members `{fighter, count, target}` (a name is one member).
function members(side) {
  if (side == null) return [];
  if (!Array.isArray(side)) return [{ fighter: side, count: 1 }];
  return side.map((m) => (typeof m === "string" ? { fighter: m, count: 1 } : { count: 1, ...m }));
}

/// The side as the file writes it: one fighter alone is its name (a duel's side); a member
/// with neither count nor target is its name (`["shaman"]`); else `{ fighter, count, target }`.
function sideValue(list) {
  const written = list.map((m) => {
    const o = { fighter: m.fighter };
    if (m.count > 1) o.count = m.count;
    if (m.target) o.target = m.target;
    return Object.keys(o).length === 1 ? m.fighter : o;
  });
  return written.length === 1 && typeof written[0] === "string" ? written[0] : written;
}

const sideLabel = (side) => members(side).map((m) => (m.count > 1 ? `${m.fighter}×${m.count}` : m.fighter)).join(" + ");

/// Side `side` of matchup `i`: one row per member (fighter, count, whom it attacks), and a
/// button adding a member where the ruleset fields groups.
function sideEditor(i, side, value) {
  const list = members(value);
  const policies = targetPolicies();
  const names = fighterNames();
  const path = ["matchup", i, side];
  const write = (next) => edit([{ op: "set", path, value: sideValue(next) }]);
  const box = el("div", { class: "side", "data-side": `matchup.${i}.${side}`, "data-field": `matchup.${i}.${side}` }, el("span", { class: "side-name" }, side.toUpperCase()));
  list.forEach((m, j) => {
    const at = `matchup.${i}.${side}.${j}`;
    const who = el("select", { "data-path": j === 0 && list.length === 1 ? `matchup.${i}.${side}` : `${at}.fighter` }, ...names.map((n) => el("option", { value: n }, n)));
    if (!names.includes(m.fighter)) who.append(el("option", { value: m.fighter }, m.fighter));
    who.value = m.fighter;
    who.addEventListener("change", () => write(list.map((x, k) => (k === j ? { ...x, fighter: who.value } : x))));
    const member = el("div", { class: "member", "data-member": at }, who);
    if (policies) {
      const count = el("input", { type: "number", min: 1, step: 1, value: m.count ?? 1, "data-path": `${at}.count`, title: "how many of this fighter" });
      count.addEventListener("change", () => write(list.map((x, k) => (k === j ? { ...x, count: Math.max(1, Math.round(Number(count.value) || 1)) } : x))));
      const target = el("select", { "data-path": `${at}.target`, title: "whom they attack" },
        el("option", { value: "" }, "(fighter's own)"), ...policies.map((p) => el("option", { value: p }, p.replace(/_/g, " "))));
      target.value = m.target || "";
      target.addEventListener("change", () => write(list.map((x, k) => (k === j ? { ...x, target: target.value || undefined } : x))));
      member.append(" × ", count, " ", target);
      if (list.length > 1) {
        member.append(el("button", { class: "small", title: "remove this member", onclick: () => write(list.filter((_, k) => k !== j)) }, "×"));
      }
    }
    box.append(member);
  });
  if (policies) {
    box.append(el("button", { class: "small", "data-add-member": `matchup.${i}.${side}`, title: "add a member to this side (a group fight)",
      onclick: () => write(list.concat([{ fighter: list[list.length - 1]?.fighter || names[0], count: 1 }])) }, "+ member"));
  }
  return box;
}

function freeName(base, taken) {
  let n = base, i = 2;
  while (taken[n]) n = `${base}-${i++}`;
  return n;
}

function addFighter() {
  const fighters = st.doc.fighters || {};
  const first = fighterNames()[0];
  const name = freeName("fighter", fighters);
  if (first) copyFighter(first, name);
  else edit([{ op: "set", path: ["fighters", name], value: {} }]);
}

function copyFighter(from, to) {
  edit([{ op: "copy", from: ["fighters", from], to: ["fighters", to || freeName(from + "-copy", st.doc.fighters)] }]);
}

function addMatchup() {
  const names = fighterNames();
  if (names.length < 1) return status("add a fighter first", true);
  const a = names[0], b = names[1] || names[0];
  edit([{ op: "push", path: ["matchup"], value: { name: `${a} vs ${b} ${(st.doc.matchup || []).length + 1}`, a, b } }]);
}

function renderErrors() {
  $("errors").replaceChildren(...st.errors.map((d) => el("li", {}, (d.line ? `line ${d.line}:${d.column}: ` : "") + (d.field ? d.field + ": " : "") + d.message)));
  for (const d of st.errors) {
    if (!d.field) continue;
    const r = $("form").querySelector(`[data-field="${CSS.escape(d.field)}"]`);
    if (r) { r.classList.add("error"); r.append(el("div", { class: "msg" }, d.message)); }
  }
}

// ---- save, report, share ------------------------------------------------------------------

async function save(force) {
  try {
    const r = await api("POST", "/api/save", { file: $("file").value, text: st.text, version: st.version, force: force === true });
    if (r.changed) {
      if (confirm(r.changed + "\n\nOverwrite it?")) return save(true);
      return status(r.changed + " (not saved)", true);
    }
    st.version = r.version;
    if (!LOCAL) { st.source = "file:" + r.file; showSource(); }
    status("saved " + r.file);
  } catch (e) {
    status(e.message, true);
  }
}

async function report() {
  status("writing the report…");
  try {
    const r = await api("POST", "/api/report", { text: st.text, file: $("file").value });
    const a = el("a", { href: r.url, target: "_blank" }, "open the report");
    $("status").replaceChildren("report written to " + r.folder + " — ", a);
  } catch (e) { status(e.message, true); }
}

async function share() {
  const bytes = new TextEncoder().encode(st.text);
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const z = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  for (const c of z) bin += String.fromCharCode(c);
  const b64 = btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  location.hash = "s=" + b64;
  try { await navigator.clipboard.writeText(location.href); status("link copied"); } catch { status("the link is in the address bar"); }
}

async function fromHash() {
  const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (!m) return null;
  try {
    const bin = atob(m[1].replace(/-/g, "+").replace(/_/g, "/"));
    const z = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const stream = new Blob([z]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return await new Response(stream).text();
  } catch { status("the link's scenario could not be read", true); return null; }
}

init().catch((e) => status(e.message, true));
