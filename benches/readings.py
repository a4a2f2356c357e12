#!/usr/bin/env python3
"""The readings study's cost (issue 36): one bundled scenario per ruleset, run plain and with
`--readings`, by a release `oddsmith` binary, wall-clock seconds of the whole process.

    python3 benches/readings.py [--bin target/release/oddsmith] [--trials N] [--repeat R]

For each file it prints the matchups, the factor values of the readings study (per matchup,
summed), the duels the study simulates (trials x the sum over matchups of 1 + its factor
values), the plain run's and the readings run's seconds (medians over R runs) and their
ratio, as a Markdown table, with the load average beside it. Not a test: the figures depend
on the machine and its load; run it with nothing else running.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCENARIOS = [
    "scenarios/cards/spear-vs-sword.toml",
    "scenarios/d20/armor-vs-dex.toml",
    "scenarios/draft/sword-and-shield-vs-greatsword.toml",
    "scenarios/gamecraft/ammunition.toml",
    "scenarios/openrpg/reference-duel.toml",
]


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return dt, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/oddsmith"))
    ap.add_argument("--trials", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    base = [a.bin, "run", "--trials", str(a.trials), "--no-report", "--json", "--yes"]
    print(f"load average before: {os.getloadavg()[0]:.2f}; {a.bin}; --trials {a.trials}; medians of {a.repeat}\n")
    print("| scenario | matchups | factor values | readings duels | plain run | with `--readings` | ratio |")
    print("|---|---|---|---|---|---|---|")
    for f in SCENARIOS:
        plain, readings, out = [], [], ""
        for _ in range(a.repeat):
            plain.append(timed(base[:2] + [f] + base[2:])[0])
            dt, out = timed(base[:2] + [f] + base[2:] + ["--readings"])
            readings.append(dt)
        v = json.loads(out)
        ms = v["study"]["readings"]
        factors = sum(len(m["readings"]) for m in ms)
        duels = a.trials * sum(1 + len(m["readings"]) for m in ms)
        p, r = statistics.median(plain), statistics.median(readings)
        name = f.removeprefix("scenarios/").removesuffix(".toml")
        print(f"| `{name}` | {len(ms)} | {factors} | {duels:,} | {p:.2f} s | {r:.2f} s | {r / p:.1f}x |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
