// The explorer page without a server: the same page (crates/oddsmith-serve/src/page/app.js)
// asks its questions through `api(method, url, body)`; here they are answered by the oddsmith
// engine compiled to WebAssembly, in Web Workers, never on the page's thread.
//
// - one "aux" worker answers the quick questions (catalogue, check, form edits) and sums a
//   run's shards (`merge`, as `oddsmith merge` does), keeping the result for the charts and
//   the report;
// - a run uses one worker per core (navigator.hardwareConcurrency, capped at MAX_WORKERS),
//   each computing one shard (`--shard K/N`), so the numbers are those of `oddsmith run` on
//   the same file and seed, whatever the number of workers;
// - exact values are solved in their own worker, beside the Monte Carlo stages;
// - cancel (a newer edit, or the page closing) ends the job's workers at once.
"use strict";

(() => {
  const MAX_WORKERS = 16;
  // The preview's stages, as the explorer's server cuts them (server.rs `stages`).
  const STAGES = [20000, 200000];
  const FIRST_STAGE_DUELS = 10000;
  const MAX_WORK = 2e9;
  const LONG_POLL_MS = 2000;

  const params = new URLSearchParams(location.search);
  const cores = Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2));
  const local = {
    workers: Math.max(1, Math.min(MAX_WORKERS, Number(params.get("workers")) || cores)),
    live: 0, // workers alive (the cancel test reads it)
  };
  window.oddsmithLocal = local;

  const fetched = fetch("oddsmith_bg.wasm");
  const module = WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetched).catch(() => fetch("oddsmith_bg.wasm").then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b)))
    : fetched.then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b));

  /// A worker with one instance of the engine; `call` answers in order.
  class Engine {
    constructor() {
      this.w = new Worker("worker.js");
      this.next = 0;
      this.waiting = new Map();
      this.dead = false;
      local.live++;
      this.w.onmessage = (e) => {
        const p = this.waiting.get(e.data.id);
        this.waiting.delete(e.data.id);
        if (!p) return;
        if ("error" in e.data) p.reject(new Error(e.data.error));
        else p.resolve(e.data.ok);
      };
      this.w.onerror = (e) => { e.preventDefault(); this.fail(new Error(e.message || "the engine's worker failed")); };
      this.ready = module.then((m) => this.w.postMessage({ init: m }));
    }
    async call(fn, ...args) {
      await this.ready;
      if (this.dead) throw Object.assign(new Error("cancelled"), { cancelled: true });
      const id = ++this.next;
      return new Promise((resolve, reject) => {
        this.waiting.set(id, { resolve, reject });
        this.w.postMessage({ id, fn, args });
      });
    }
    fail(err) {
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
    }
    end() {
      if (this.dead) return;
      this.dead = true;
      local.live--;
      this.w.terminate();
      this.fail(Object.assign(new Error("cancelled"), { cancelled: true }));
    }
  }

  const aux = new Engine();
  const json = async (fn, ...args) => JSON.parse(await aux.call(fn, ...args));
  /// The engine holding the last run (what its charts and report are drawn from): `aux` after
  /// a merge of shards, the run's own worker after a whole run (kept until the next one).
  let holder = aux;
  const hold = (w) => {
    if (holder !== aux && holder !== w) holder.end();
    holder = w;
  };
  const held = async (fn, ...args) => (holder.dead ? null : JSON.parse(await holder.call(fn, ...args)));

  /// Runs the text in `n` shards, one worker each, and sums them in the aux worker: the run's
  /// JSON document as `oddsmith run --json` prints it. `job.engines` collects the workers so a
  /// cancel ends them.
  /// `n` = 0: the whole run in one worker (what cannot be sharded), which then holds it.
  async function sharded(job, file, text, trials, exact, n) {
    if (n === 0) {
      const w = new Engine();
      job.engines.push(w);
      try {
        const doc = await w.call("run_whole", file, text, trials, exact);
        hold(w);
        return doc;
      } catch (e) {
        w.end();
        throw e;
      }
    }
    const ws = Array.from({ length: n }, () => new Engine());
    job.engines.push(...ws);
    try {
      const shards = await Promise.all(ws.map((w, i) => w.call("run_shard", file, text, trials, exact, i + 1, n)));
      const doc = await aux.call("merge", file, text, trials, exact, JSON.stringify(shards));
      hold(aux);
      return doc;
    } finally {
      for (const w of ws) w.end();
    }
  }

  /// Workers for a run of a file whose checked TOML is `doc`: a `[balance]` search cannot be
  /// cut into shards (each step depends on the results before it), so it runs whole in one
  /// worker (0).
  const workersFor = (doc, n) => (doc && doc.balance ? 0 : n);

  // ---- jobs: what the server's `jobs` module does, for one page ----

  let jobs = 0;
  let current = null;

  function cancel() {
    if (!current) return;
    const j = current;
    current = null;
    j.cancelled = true;
    j.state.cancelled = true;
    j.state.done = true;
    for (const w of j.engines) w.end();
    bump(j);
  }

  function bump(j) {
    j.state.version++;
    for (const f of j.waiters.splice(0)) f();
  }

  function stages(trials, runs) {
    const share = FIRST_STAGE_DUELS / Math.max(1, runs);
    const first = [20000, 10000, 5000, 2000, 1000, 500].find((t) => t <= share) ?? 500;
    const v = [first, ...STAGES].filter((t) => t < trials);
    const out = v.filter((t, i) => i === 0 || t !== v[i - 1]);
    out.push(Math.max(1, trials));
    return out;
  }

  async function startRun(body) {
    cancel();
    const file = body.file || "scenario.toml";
    let ab;
    try { ab = await aux.call("ab_comparison", body.text, JSON.stringify(body.b || [])); }
    catch (e) { return { refused: e.message }; }
    const { check, doc } = await json("check", file, body.text);
    if (check.errors.length) return { refused: check.errors[0].message };
    const n = workersFor(doc, local.workers);
    const st = stages(check.trials, check.runs);
    const work = check.runs * check.trials;
    if (work > MAX_WORK) return { refused: `this file asks for ${work} duels (${check.runs} runs × ${check.trials} trials), more than the explorer's limit of ${MAX_WORK}; lower \`trials\`` };
    const id = ++jobs;
    const j = {
      id, engines: [], waiters: [], cancelled: false, t0: performance.now(),
      state: { job: id, version: 0, stages: st, finished: 0, result: null, ab: null, ms: [], exact: [], exact_done: false, exact_ms: null, readings: null, readings_done: false, done: false, cancelled: false, abandoned: false, error: null },
    };
    current = j;
    work_on(j, file, body.text, ab, st, n);
    return { job: id, stages: st };
  }

  async function work_on(j, file, text, ab, st, n) {
    const exactW = new Engine();
    j.engines.push(exactW);
    exactW.call("exact", file, text).then((rows) => {
      if (j.cancelled) return;
      j.state.exact = JSON.parse(rows);
      j.state.exact_done = true;
      j.state.exact_ms = Math.round(performance.now() - j.t0);
      bump(j);
    }).catch(() => {}).finally(() => exactW.end());
    // The readings study ("depends on" panel): in its own worker once the first stage is in;
    // the job is done when it is too.
    let readings = Promise.resolve();
    const startReadings = () => {
      const rw = new Engine();
      j.engines.push(rw);
      readings = rw.call("readings", file, text).then((v) => {
        if (j.cancelled) return;
        j.state.readings = JSON.parse(v);
      }).catch((e) => {
        if (!j.cancelled && !e.cancelled) j.state.readings = { error: e.message };
      }).finally(() => {
        rw.end();
        if (j.cancelled) return;
        j.state.readings_done = true;
        bump(j);
      });
    };
    try {
      for (const t of st) {
        const abDoc = ab ? await sharded(j, file, ab, t, false, n) : null;
        const doc = await sharded(j, file, text, t, false, n);
        if (j.cancelled) return;
        j.state.result = JSON.parse(doc);
        j.state.ab = abDoc && JSON.parse(abDoc);
        j.state.finished++;
        j.state.ms.push(Math.round(performance.now() - j.t0));
        bump(j);
        if (j.state.finished === 1) startReadings();
      }
    } catch (e) {
      if (j.cancelled || e.cancelled) return;
      j.state.error = e.message;
    }
    await readings;
    if (j.cancelled) return;
    j.state.done = true;
    bump(j);
  }

  async function jobState(q) {
    const j = current;
    if (!j || String(j.id) !== q.get("job")) return { replaced: true, message: "this job was replaced by a newer one" };
    const since = q.get("since");
    if (!j.state.done && since !== null && Number(since) === j.state.version) {
      await new Promise((res) => { j.waiters.push(res); setTimeout(res, LONG_POLL_MS); });
    }
    return JSON.parse(JSON.stringify(j.state));
  }

  // ---- downloads ----

  function download(name, blob) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  }

  /// The whole run at the file's own trials, exact values included (what `oddsmith run`
  /// prints with `--json`); `workers` shards.
  local.runJson = async (text, file = "scenario.toml", { workers = local.workers, exact = true, trials = -1 } = {}) => {
    const j = { engines: [] };
    local.lastRun = j;
    const n = workersFor((await json("check", file, text)).doc, workers);
    return sharded(j, file, text, trials, exact, n);
  };
  /// The report's charts of the last run (`runJson` or the preview's latest stage), as the
  /// page shows them: `[{stem, title, sweep, svg, error}]`.
  local.charts = () => held("charts");
  /// Ends the workers of the run started by `runJson` (the cancel test).
  local.cancelRun = () => { for (const w of local.lastRun?.engines || []) w.end(); };

  async function report(body) {
    const file = body.file || "scenario.toml";
    const { check } = await json("check", file, body.text);
    if (check.errors.length) throw new Error(check.errors[0].message);
    // At the file's trials as a fixed number: a run to a precision target cannot be cut into
    // shards (where it stops depends on every chunk before), so such a file's report is that
    // of `oddsmith run FILE --trials T` (T its trial cap).
    await local.runJson(body.text, file, { trials: check.trials });
    const html = await holder.call("report_html");
    const name = file.replace(/^.*[\\/]/, "").replace(/\.toml$/, "") + ".html";
    const blob = new Blob([html], { type: "text/html" });
    download(name, blob);
    return { url: URL.createObjectURL(blob), folder: `${name} (downloaded: one self-contained HTML file)` };
  }

  // ---- the server's API, answered here ----

  local.api = async (method, url, body) => {
    const u = new URL(url, "http://page");
    const q = u.searchParams;
    const p = u.pathname;
    if (p === "/api/catalog") return json("catalog");
    if (p.startsWith("/api/ruleset/")) {
      const v = await json("ruleset", decodeURIComponent(p.slice("/api/ruleset/".length)));
      if (v === null) throw Object.assign(new Error("no such ruleset"), { status: 404 });
      return v;
    }
    if (p === "/api/open") {
      if (q.has("bundled")) {
        const b = q.get("bundled");
        const text = await aux.call("bundled_text", b);
        if (text == null) throw Object.assign(new Error(`no bundled scenario ${b}`), { status: 404 });
        return { text, file: b.split("/").pop() + ".toml", version: null, source: `bundled ${b}` };
      }
      const id = q.get("template");
      const text = await aux.call("template", id);
      if (text == null) throw Object.assign(new Error(`no ruleset ${id}`), { status: 404 });
      return { text, file: `${id}-starter.toml`, version: null, source: `template ${id}` };
    }
    if (p === "/api/check") return json("check", body.file || "scenario.toml", body.text);
    if (p === "/api/edit") {
      try { return { text: await aux.call("edit_text", body.text, JSON.stringify(body.ops)) }; }
      catch (e) { throw Object.assign(e, { status: 400 }); }
    }
    if (p === "/api/run") return startRun(body);
    if (p === "/api/job") return jobState(q);
    if (p === "/api/cancel") { cancel(); return { cancelled: true }; }
    if (p === "/api/charts") return { charts: (current && String(current.id) === q.get("job") && await held("charts")) || [] };
    if (p === "/api/sections") return { sections: (current && String(current.id) === q.get("job") && await held("sections")) || [] };
    if (p === "/api/sweep") return { chart: await held("sweep_chart", Number(q.get("sweep")), Number(q.get("at"))) };
    if (p === "/api/save") {
      // No folder to write to: the TOML is downloaded.
      const name = (body.file || "scenario.toml").replace(/^.*[\\/]/, "");
      download(name.endsWith(".toml") ? name : name + ".toml", new Blob([body.text], { type: "application/toml" }));
      return { file: name + " (downloaded)", version: null };
    }
    if (p === "/api/report") return report(body);
    throw Object.assign(new Error(`not in the browser build: ${method} ${p}`), { status: 404 });
  };

  // Offline once loaded (a service worker needs http(s); file:// pages simply skip it).
  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol) && !params.has("no-sw")) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
})();
