// The oddsmith explorer page: a form generated from the ruleset's declarations, the TOML
// beside it (edits go both ways through the server's comment-keeping TOML editor), live
// validation, exact values, and a Monte Carlo preview polled stage by stage.
"use strict";

const BOOT = JSON.parse(document.getElementById("boot").textContent);
const PAGE = Math.random().toString(36).slice(2) + Date.now().toString(36);
const $ = (id) => document.getElementById(id);

const st = {
  text: "", file: "scenario.toml", mtime: null, doc: null, ruleset: null, decl: null,
  check: null, job: 0, b: new Map(), errors: [], editSeq: 0,
};
window.oddsmith = st; // for tests and the curious

async function api(method, url, body) {
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
  sel.addEventListener("change", () => sel.value && openFrom(sel.value));
  $("toml").addEventListener("input", () => { st.text = $("toml").value; changed(); });
  $("file").addEventListener("change", () => { st.file = $("file").value; st.mtime = null; });
  $("save").addEventListener("click", save);
  $("report").addEventListener("click", report);
  $("share").addEventListener("click", share);
  const shared = await fromHash();
  if (shared) return setText(shared, "shared.toml", null, true);
  if (cat.file) return openFrom("file:" + cat.file);
  return openFrom("bundled:" + (cat.bundled.find((n) => n === "draft/skill-gap") || cat.bundled[0]));
}

async function openFrom(what) {
  const [kind, name] = [what.slice(0, what.indexOf(":")), what.slice(what.indexOf(":") + 1)];
  try {
    const q = new URLSearchParams({ [kind]: name });
    const o = await api("GET", "/api/open?" + q);
    st.b.clear();
    st.source = what;
    setText(o.text, o.file, o.mtime, true);
    status("opened " + o.source);
  } catch (e) { status(e.message, true); }
}

function setText(text, file, mtime, fresh) {
  st.text = text;
  if (file) { st.file = file; $("file").value = file; }
  if (fresh) st.mtime = mtime;
  $("toml").value = text;
  changed(true);
}

// ---- validation, exact values and the preview -----------------------------------------

let debounce = null;
function changed(now) {
  clearTimeout(debounce);
  st.editSeq++;
  st.editedAt = performance.now();
  st.firstNumberMs = null;
  debounce = setTimeout(refresh, now ? 0 : 250);
}

async function refresh() {
  const seq = st.editSeq;
  const text = st.text;
  let r;
  try { r = await api("POST", "/api/check", { text, file: st.file }); }
  catch (e) { return status(e.message, true); }
  if (seq !== st.editSeq) return; // a newer edit is on its way
  st.check = r.check;
  st.doc = r.doc;
  st.errors = r.check.errors;
  if (r.check.ruleset && r.check.ruleset !== st.ruleset) {
    st.decl = await api("GET", "/api/ruleset/" + encodeURIComponent(r.check.ruleset)).catch(() => null);
    st.ruleset = r.check.ruleset;
  }
  renderForm();
  renderErrors();
  $("summary").textContent = r.check.summary;
  $("notes").textContent = (r.check.notes || []).join(" · ");
  renderExact(r.check.exact);
  if (st.errors.length) { status("invalid: fix the marked field", true); return; }
  if (r.check.exact.length) st.firstNumberMs = performance.now() - st.editedAt;
  startRun(seq);
}

async function startRun(seq) {
  let r;
  const b = [...st.b.entries()].map(([k, v]) => ({ path: JSON.parse(k), value: v }));
  try { r = await api("POST", "/api/run", { page: PAGE, text: st.text, file: st.file, b }); }
  catch (e) { return status(e.message, true); }
  if (seq !== st.editSeq) return;
  st.job = r.job;
  status("running " + r.stages.map(k).join(" → ") + " trials");
  poll(r.job);
}

const pts = (x) => (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(100 * x).toFixed(2);
const k = (n) => (n >= 1000 ? n / 1000 + "k" : String(n));

async function poll(job) {
  let seen = 0;
  while (st.job === job) {
    let s;
    try { s = await api("GET", `/api/job?page=${PAGE}&job=${job}`); }
    catch (e) { return status(e.message, true); }
    if (s.replaced) return;
    if (s.finished > seen) {
      seen = s.finished;
      if (st.firstNumberMs == null) st.firstNumberMs = performance.now() - st.editedAt;
      renderRun(s);
    }
    if (s.done) {
      if (s.error) status(s.error, true);
      else if (!s.cancelled) status(`done: ${k(s.stages[s.stages.length - 1])} trials in ${(s.ms[s.ms.length - 1] / 1000).toFixed(1)} s`);
      return;
    }
    await new Promise((res) => setTimeout(res, 80));
  }
}

function renderExact(rows) {
  const body = $("answers").tBodies[0];
  const matchups = (st.doc && st.doc.matchup) || [];
  body.replaceChildren(...matchups.map((m) => {
    const x = rows.find((r) => r.matchup === m.name);
    return el("tr", { "data-matchup": m.name },
      el("td", {}, m.name, m.name === `${m.a} vs ${m.b}` ? null : el("div", { class: "muted" }, `${m.a} vs ${m.b}`)),
      el("td", { class: "exact" }, x ? pct(x.p_a_win) : "—"),
      el("td", { class: "mc" }, "…"), el("td", { class: "ci" }, ""),
      el("td", { class: "draw" }, x ? pct(x.p_draw) : ""));
  }));
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
    tr.querySelector(".ci").replaceChildren(el("div", {}, `${pct(lo)} – ${pct(hi)}`), bar(m.p_a_win, lo, hi));
    if (tr.querySelector(".draw").textContent === "") tr.querySelector(".draw").textContent = pct(m.p_draw);
  }
  renderSweeps(doc.study && doc.study.sweeps);
  renderAb(s.ab);
}

// ---- sweeps: a curve with its band and a slider that moves the point -------------------

function renderSweeps(sweeps) {
  const box = $("sweeps");
  box.replaceChildren();
  for (const [i, sw] of (sweeps || []).entries()) {
    if (sw.y) continue; // two-dimensional sweeps: see the report's heat map
    const pts = sw.points;
    const wrap = el("div", { class: "sweep" }, el("h3", {}, `Sweep: ${sw.name} — ${sw.x.target} (${sw.matchup})`));
    const svg = curve(pts);
    const out = el("div", { class: "sweep-value" });
    const slider = el("input", { type: "range", min: 0, max: pts.length - 1, step: 1, value: st.sweepAt?.[i] ?? Math.floor(pts.length / 2), "data-sweep": i });
    const show = () => {
      const j = +slider.value;
      (st.sweepAt ||= {})[i] = j;
      const p = pts[j];
      svg.querySelector(".dot").setAttribute("cx", xs(j, pts.length));
      svg.querySelector(".dot").setAttribute("cy", ys(p.p_a_win.p));
      out.textContent = `${sw.x.target} = ${p.x}: P(A wins) ${pct(p.p_a_win.p)} (95 % ${pct(p.p_a_win.lo)} – ${pct(p.p_a_win.hi)})`;
    };
    slider.addEventListener("input", show);
    wrap.append(svg, slider, out);
    box.append(wrap);
    show();
  }
}

const W = 360, H = 170, PAD = 30;
const xs = (j, n) => PAD + (n > 1 ? (j * (W - PAD - 8)) / (n - 1) : (W - PAD) / 2);
const ys = (p) => 8 + (1 - p) * (H - 28);

function curve(pts) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const add = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [a, v] of Object.entries(attrs)) e.setAttribute(a, v); svg.append(e); return e; };
  for (const p of [0, 0.5, 1]) {
    add("line", { x1: PAD, x2: W - 8, y1: ys(p), y2: ys(p), stroke: "#d9dee4" });
    add("text", { x: 2, y: ys(p) + 4, "font-size": 10, fill: "#66707c" }).textContent = p * 100 + "%";
  }
  const n = pts.length;
  const band = pts.map((p, j) => `${xs(j, n)},${ys(p.p_a_win.hi)}`).concat(pts.map((p, j) => `${xs(j, n)},${ys(p.p_a_win.lo)}`).reverse());
  add("polygon", { points: band.join(" "), fill: "#2f6fb3", opacity: 0.18 });
  add("polyline", { points: pts.map((p, j) => `${xs(j, n)},${ys(p.p_a_win.p)}`).join(" "), fill: "none", stroke: "#2f6fb3", "stroke-width": 2 });
  pts.forEach((p, j) => { add("text", { x: xs(j, n), y: H - 4, "font-size": 10, "text-anchor": "middle", fill: "#66707c" }).textContent = p.x; });
  add("circle", { class: "dot", r: 5, fill: "#1d232b", cx: 0, cy: 0 });
  return svg;
}

// ---- the house-rule B column -------------------------------------------------------------

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
      el("td", {}, `${(100 * -d.hi).toFixed(2)} … ${(100 * -d.lo).toFixed(2)}`),
      el("td", {}, d.decisive ? "different" : "no clear difference"));
  });
  box.replaceChildren(
    el("h3", {}, "House rule: A (the file) vs B (the values in the B column), common random numbers"),
    el("table", { class: "num", id: "ab-table" },
      el("thead", {}, el("tr", {}, ...["matchup", "P(A wins) in A", "in B", "B − A", "95 % interval (pts)", "verdict"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)),
    el("p", { class: "verdict" }, ...(c.verdicts || []).map((v) => el("div", {}, typeof v === "string" ? v : v.text || JSON.stringify(v)))));
}

// ---- the form ------------------------------------------------------------------------------

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
  try {
    const r = await api("POST", "/api/edit", { text: st.text, ops });
    st.text = r.text;
    $("toml").value = r.text;
    changed();
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
  const kind = typeof value === "boolean" || /^(true|false)$/.test(decl.default) ? "bool"
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
  } else if (kind === "table") {
    e = el("input", { type: "text", value: JSON.stringify(value), readonly: "", title: "edit this table in the TOML" });
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
    f.append(row([top], { name: top, default: "", doc: "" }, doc[top], true));
  }
  // Fighters.
  const fighters = doc.fighters || {};
  f.append(el("h3", {}, "Fighters", el("button", { class: "small", onclick: addFighter }, "+ add")));
  for (const [name, spec] of Object.entries(fighters)) {
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
  const names = Object.keys(fighters);
  (doc.matchup || []).forEach((m, i) => {
    const pick = (side) => {
      const s = el("select", { "data-path": `matchup.${i}.${side}` }, ...names.map((n) => el("option", { value: n }, n)));
      s.value = m[side];
      s.addEventListener("change", () => edit([{ op: "set", path: ["matchup", i, side], value: s.value }]));
      return s;
    };
    f.append(el("div", { class: "row" }, el("label", {}, m.name), el("span", {}, pick("a"), " vs ", pick("b")),
      el("button", { class: "small", onclick: () => edit([{ op: "set", path: ["matchup", i], value: null }]) }, "remove")));
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
  for (const s of ["sweep", "balance", "tournament", "check", "assert"]) {
    if (doc[s]) f.append(el("p", { class: "muted" }, `[${s}] sections: edit them in the TOML`));
  }
  if (focus) f.querySelector(`[data-path="${CSS.escape(focus)}"]`)?.focus();
}

function freeName(base, taken) {
  let n = base, i = 2;
  while (taken[n]) n = `${base}-${i++}`;
  return n;
}

function addFighter() {
  const fighters = st.doc.fighters || {};
  const first = Object.keys(fighters)[0];
  const name = freeName("fighter", fighters);
  if (first) copyFighter(first, name);
  else edit([{ op: "set", path: ["fighters", name], value: {} }]);
}

function copyFighter(from, to) {
  edit([{ op: "copy", from: ["fighters", from], to: ["fighters", to || freeName(from + "-copy", st.doc.fighters)] }]);
}

function addMatchup() {
  const names = Object.keys(st.doc.fighters || {});
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
    const r = await api("POST", "/api/save", { file: $("file").value, text: st.text, mtime: st.mtime, force: force === true });
    st.mtime = r.mtime;
    status("saved " + r.file);
  } catch (e) {
    if (e.status === 409 && confirm(e.message + "\n\nOverwrite it?")) return save(true);
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
