#!/usr/bin/env python3
"""The browser page's figures (issue 37): duels per second in the page (headless Chromium,
1 worker and all cores) beside the native CLI on the same files, and the time from an edit to
the first number for every bundled scenario.

usage: python3 benches/web.py [--dist web/dist] [--trials N] [--native BIN] [--repeat R]

It serves `--dist` (built by `web/build.sh`) on loopback, drives Chromium through
chromedriver (WebDriver over plain HTTP, no Python packages needed) and prints Markdown
tables. `--native BIN` is an `oddsmith` binary (a release build) timed on the same files with
`--threads 1` and `--threads <cores>`. Not a test: figures depend on the machine and its load,
so the script prints the load average beside them.
"""

import argparse
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# One scenario per ruleset (single runs, several matchups where the file has them).
SCENARIOS = [
    "scenarios/draft/skill-gap.toml",
    "scenarios/gamecraft/reference-duel.toml",
    "scenarios/d20/armor-vs-dex.toml",
    "scenarios/openrpg/reference-duel.toml",
    "scenarios/cards/devon-vs-soldier.toml",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(dist):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".js": "text/javascript"}

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=dist))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv.server_address[1]


class Driver:
    """A WebDriver session on a chromedriver started here."""

    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]
        self.call("POST", f"/session/{self.sid}/timeouts", {"script": 3_600_000})

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=3600) as r:
            return json.load(r)["value"]

    def goto(self, url):
        self.call("POST", f"/session/{self.sid}/url", {"url": url})

    def js(self, script, *args):
        return self.call("POST", f"/session/{self.sid}/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        return self.call("POST", f"/session/{self.sid}/execute/async", {"script": script, "args": list(args)})

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.sid}")
        finally:
            self.proc.terminate()


# A run in the page: `trials` a matchup, no exact values, `workers` shards; the page's own clock.
PAGE_RUN = """
const [text, file, workers, trials, done] = arguments;
(async () => {
  const { check } = await oddsmithLocal.api("POST", "/api/check", { file, text });
  const t = performance.now();
  await oddsmithLocal.runJson(text, file, { workers, trials, exact: false });
  return { ms: performance.now() - t, runs: check.runs };
})().then(done, (e) => done({ error: String(e.message || e) }));
"""

# An edit's first number, as the explorer's page gets it: a new run of the edited text, timed
# from the request to the first answer shown (the first Monte Carlo stage or the exact values,
# whichever comes first).
FIRST_NUMBER = """
const [name, done] = arguments;
(async () => {
  const o = await oddsmithLocal.api("GET", "/api/open?bundled=" + encodeURIComponent(name));
  const text = o.text + "\\n# edited " + Math.random() + "\\n";
  const t = performance.now();
  const r = await oddsmithLocal.api("POST", "/api/run", { file: o.file, text });
  if (r.refused) return { refused: r.refused };
  let since = null, first = null, what = null;
  for (;;) {
    const s = await oddsmithLocal.api("GET", `/api/job?job=${r.job}` + (since === null ? "" : `&since=${since}`));
    if (first === null && (s.finished > 0 || s.exact_done)) {
      first = performance.now() - t;
      what = s.finished > 0 ? "Monte Carlo" : "exact";
    }
    if (s.done || s.replaced) return { first, what, done: performance.now() - t, stages: s.stages, error: s.error };
    since = s.version;
  }
})().then(done, (e) => done({ error: String(e.message || e) }));
"""


def native_run(binary, path, trials, threads):
    t = time.perf_counter()
    subprocess.run([binary, "run", path, "--trials", str(trials), "--no-exact", "--no-report", "--json",
                    "--threads", str(threads)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", default=os.path.join(ROOT, "web/dist"))
    ap.add_argument("--trials", type=int, default=200_000)
    ap.add_argument("--native", help="a release `oddsmith` binary to compare with")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each figure (the best is kept)")
    ap.add_argument("--skip-first", action="store_true", help="skip the edit-to-first-number table")
    a = ap.parse_args()
    wasm = os.path.join(a.dist, "oddsmith_bg.wasm")
    if not os.path.isfile(wasm):
        sys.exit(f"{a.dist} is not built: run web/build.sh")
    raw = open(wasm, "rb").read()
    import gzip
    print(f"wasm: {len(raw)} bytes, {len(gzip.compress(raw, 9))} gzipped (gzip -9)")
    font = os.path.join(a.dist, "DejaVuSans.ttf")
    if os.path.isfile(font):
        f = open(font, "rb").read()
        print(f"charts' font (fetched when the first chart is drawn): {len(f)} bytes, {len(gzip.compress(f, 9))} gzipped")
    cores = os.cpu_count() or 1
    print(f"cores: {cores}; load average before: {os.getloadavg()}")
    port = serve(a.dist)
    d = Driver()
    try:
        d.goto(f"http://127.0.0.1:{port}/index.html?no-sw")
        for _ in range(600):
            if d.js("return !!(window.oddsmith && window.oddsmith.check && window.oddsmith.check.summary);"):
                break
            time.sleep(0.1)
        print(f"\nduels/s, {a.trials} trials a matchup, no exact values, best of {a.repeat}:\n")
        print(f"| scenario | page, 1 worker | page, {cores} workers | native, 1 thread | native, {cores} threads | page ÷ native (1) |")
        print("|---|---|---|---|---|---|")
        for f in SCENARIOS:
            path = os.path.join(ROOT, f)
            text = open(path).read()
            row, per = [], {}
            for w in (1, cores):
                best = None
                for _ in range(a.repeat):
                    r = d.js_async(PAGE_RUN, text, path, w, a.trials)
                    if "error" in r:
                        sys.exit(f"{f}: {r['error']}")
                    best = r["ms"] if best is None else min(best, r["ms"])
                per[("page", w)] = r["runs"] * a.trials / (best / 1000)
            for th in (1, cores):
                if a.native:
                    best = min(native_run(a.native, path, a.trials, th) for _ in range(a.repeat))
                    per[("native", th)] = r["runs"] * a.trials / best
            fmt = lambda k: f"{per[k] / 1e6:.2f} M" if k in per else "—"
            ratio = f"{per[('page', 1)] / per[('native', 1)]:.2f}" if ("native", 1) in per else "—"
            print(f"| `{f[len('scenarios/'):-5]}` ({r['runs']} matchups) | {fmt(('page', 1))} | {fmt(('page', cores))} | "
                  f"{fmt(('native', 1))} | {fmt(('native', cores))} | {ratio} |", flush=True)
        if not a.skip_first:
            names = d.js_async("oddsmithLocal.api('GET', '/api/catalog').then((c) => arguments[0](c.bundled));")
            print(f"\nfirst number after an edit, every bundled scenario (aim 150 ms), {cores} workers:\n")
            print("| scenario | first number | from | preview done | stages |")
            print("|---|---|---|---|---|")
            firsts = []
            for n in names:
                r = d.js_async(FIRST_NUMBER, n)
                if r.get("refused") or r.get("error") or r.get("first") is None:
                    print(f"| `{n}` | — | {r.get('refused') or r.get('error') or 'no number'} | | |", flush=True)
                    continue
                firsts.append(r["first"])
                print(f"| `{n}` | {r['first']:.0f} ms | {r['what']} | {r['done']:.0f} ms | {', '.join(map(str, r['stages']))} |", flush=True)
            if firsts:
                firsts.sort()
                print(f"\nmedian {firsts[len(firsts) // 2]:.0f} ms, max {firsts[-1]:.0f} ms, "
                      f"{sum(x <= 150 for x in firsts)}/{len(firsts)} within 150 ms")
    finally:
        d.close()
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
