#!/usr/bin/env python3
"""Checks both peer scripts against oddsmith's exact values for D1 (within 4 sigma).

Usage (from the repository root):
  python3 benches/peers/agree.py [ODDSMITH_BINARY] [TRIALS] [SEED]
Runs `ODDSMITH run scenarios/draft/reference-duels.toml --json --no-report --trials 1000` for the
exact values of matchup D1, then draft_d1.py and draft_d1_numpy.py at TRIALS (default 1,000,000),
and prints each script's z-scores for P(A wins) and mean rounds. Standard library only; the numpy
script is run with the same interpreter as this one (use /usr/bin/python3 for Debian's numpy).
"""
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/oddsmith"
trials = sys.argv[2] if len(sys.argv) > 2 else "1000000"
seed = sys.argv[3] if len(sys.argv) > 3 else "1"

doc = json.loads(subprocess.run(
    [binary, "run", "scenarios/draft/reference-duels.toml", "--json", "--no-report", "--trials", "1000"],
    check=True, capture_output=True, text=True).stdout)
d1 = next(m for m in doc["matchups"] if m["name"] == "D1")
exact_p, exact_rounds = d1["exact"]["p_a_win"], d1["exact"]["mean_rounds"]
print(f"oddsmith exact D1: P(A wins) {exact_p:.6f}, mean rounds {exact_rounds:.6f}")

ok = True
for script in ["draft_d1.py", "draft_d1_numpy.py"]:
    out = subprocess.run([sys.executable, os.path.join(here, script), trials, seed],
                         check=True, capture_output=True, text=True).stdout
    p = float(re.search(r"P\(A wins\)\s+([\d.]+)", out).group(1))
    mean, sd = map(float, re.search(r"mean rounds\s+([\d.]+)\s+\(sd ([\d.]+)", out).groups())
    n = int(trials)
    sp = (exact_p * (1 - exact_p) / n) ** 0.5
    sr = sd / n ** 0.5
    zp, zr = (p - exact_p) / sp, (mean - exact_rounds) / sr
    good = abs(zp) <= 4 and abs(zr) <= 4
    ok &= good
    print(f"{script:20s} P(A wins) {p:.6f} (sigma {sp:.6f}, z {zp:+.2f})   "
          f"mean rounds {mean:.6f} (sigma {sr:.6f}, z {zr:+.2f})   {'ok' if good else 'DISAGREES'}")
sys.exit(0 if ok else 1)
