#!/usr/bin/env python3
"""Issue 15's speed targets measured as a new user would: the whole `oddsmith run` process,
release build, each reference duel alone with `--no-exact --no-report`, on 1 and on 2 threads,
beside the raw stream measured in the same run.

    python3 benches/whole.py [RUNS] [DUEL ...]     # from the repository root; RUNS default 5

It builds the release CLI and the `raw` example first. Each run, for each duel, measures in
this order: the raw stream on 1 thread, the duel on 1 thread, the duel on 2 threads, the raw
stream on 2 threads (about 20 s a run for all five duels). Each duel is one matchup written to
a temporary scenario file (the bundled scenario's fighters and options, only the reference
matchup, no checks), run with enough trials for 1.5 to 2.5 s on one thread, timed from start
to exit (so start-up, loading and the summary are in the figure). The 2-thread figure is
scaled to the quiet machine's raw stream (QUIET_RAW) both ways `targets.py` does:

- by the 1-thread raw stream of the same run: x QUIET_RAW / raw(1 thread);
- by the 2-thread raw stream of the same run: x (2 x QUIET_RAW) / raw(2 threads).

It also prints each run's CPU time over wall time on 2 threads ("busy"): below 2 is time in
which one of our two threads was not running (not given a core, or asleep with nothing to do;
rayon's idle workers spin for a while before they sleep, so some waiting counts as running).

`targets.py` measures the same duels with criterion's engine benches, a million duels an
iteration (about 50 ms for Draft D1 on 2 threads, 300 ms for cards); this script's runs are
3 to 20 times longer, as the issue's own first figures were (Draft D1, 20 M duels, whole
process). QUIET_RAW is criterion's `dice/raw_u64_x1000` on the quiet machine; the `raw`
example's loop was never measured there.
Nothing here is run by CI; it needs a machine with nothing else running to mean anything.
"""

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from targets import (  # noqa: E402
    QUIET_RAW, TARGETS, figures, load_average, parse_args, span, target_line,
)

# The cards reference duel (`oddsmith_benches::cards_reference`): no bundled file holds it
# alone with the default options.
CARDS_REFERENCE = """\
name = "cards-reference"
ruleset = "cards"

[fighters.devon]
skill = 3
weapon = "sword"
combat_training = 2
backup = "dagger"
backup_skill = 2

[fighters.soldier]
skill = 2
weapon = "sword"
armor_mod = -1
backup = "dagger"
backup_skill = 2

[[matchup]]
name = "reference"
a = "devon"
b = "soldier"
"""

# Reference duel (targets.py's TARGETS) -> (bundled scenario, or None for CARDS_REFERENCE;
# matchup; trials).
DUELS = {
    "draft_d1": ("scenarios/draft/reference-duels.toml", "D1", 20_000_000),
    "gamecraft_d1": ("scenarios/gamecraft/reference-duel.toml", "D1", 6_000_000),
    "d20_reference": ("scenarios/d20/reference-duels.toml", "S2r", 4_000_000),
    "openrpg_r1": ("scenarios/openrpg/reference-duel.toml", "R1 Alda vs Bram", 12_000_000),
    "cards_reference": (None, "reference", 3_000_000),
}
assert DUELS.keys() == TARGETS.keys()

TARGET_DIR = os.environ.get("CARGO_TARGET_DIR", "target")
CLI = os.path.join(TARGET_DIR, "release", "oddsmith")
RAW = os.path.join(TARGET_DIR, "release", "examples", "raw")


def one_matchup(path, name):
    """The scenario text of `path` with only the matchup `name` and no check blocks: the text
    before the first `[[...]]` array table, then that matchup's block."""
    with open(path) as f:
        lines = f.read().splitlines()
    head, blocks, block = [], [], None
    for line in lines:
        if line.startswith("[["):
            block = [line]
            blocks.append(block)
        elif line.startswith("[") and block is not None:
            block = None
            head.append(line)
        elif block is not None:
            block.append(line)
        else:
            head.append(line)
    wanted = [b for b in blocks if b[0].strip() == "[[matchup]]"
              and any(l.strip() == f'name = "{name}"' for l in b)]
    if len(wanted) != 1:
        sys.exit(f"{path}: no single matchup named {name!r}")
    return "\n".join(head + wanted[0]) + "\n"


def timed(cmd):
    """Runs `cmd`; returns (wall seconds, CPU seconds of the child, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout


def raw(threads):
    return float(timed([RAW, str(threads)])[2])


def duel(path, trials, threads):
    """M duels/s of the whole process, and its CPU time over wall time."""
    wall, cpu, _ = timed([CLI, "run", path, "--trials", str(trials), "--threads", str(threads),
                          "--no-exact", "--no-report"])
    return trials / wall / 1e6, cpu / wall


def main():
    runs, names = parse_args(sys.argv[1:])
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "oddsmith"], check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "oddsmith-benches",
                    "--example", "raw"], check=True)
    tmp = tempfile.mkdtemp(prefix="oddsmith-whole-")
    files = {}
    for d in names:
        path, matchup, _ = DUELS[d]
        files[d] = os.path.join(tmp, f"{d}.toml")
        with open(files[d], "w") as f:
            f.write(CARDS_REFERENCE if path is None else one_matchup(path, matchup))
    results = []
    for k in range(runs):
        print(f"run {k + 1}/{runs} (load before: {load_average()})")
        r = {}
        for d in names:
            trials = DUELS[d][2]
            raw1 = raw(1)
            t1, _ = duel(files[d], trials, 1)
            t2, busy = duel(files[d], trials, 2)
            raw2 = raw(2)
            r[d] = {"raw1": raw1, "raw2": raw2, "busy": busy, "raw_speedup": raw2 / raw1,
                    **figures(t1, t2, raw1, raw2)}
            x = r[d]
            print(f"  {d:16} raw {raw1:4.0f} {raw2:5.0f} ({x['raw_speedup']:.2f}x)  "
                  f"{t1:6.2f} {t2:6.2f} M/s  {x['speedup']:.2f}x  busy {busy:.2f}  "
                  f"scaled {x['by_raw1']:6.2f} (1-thread raw) {x['by_raw2']:6.2f} (2-thread raw)")
            sys.stdout.flush()
        results.append(r)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n{runs} runs, whole process, 2 threads, M duels/s scaled to the quiet machine "
          f"({QUIET_RAW:.0f} M words/s):")
    for d in names:
        pick = lambda key: [r[d][key] for r in results]
        sp = pick("speedup")
        print(target_line(d, results))
        print(f"  {'':16} unscaled {span(pick('t2'))}; speed-up {span(sp)} "
              f"({'met' if statistics.median(sp) >= 1.9 else 'short'} against 1.9); "
              f"raw stream's {span(pick('raw_speedup'))}; busy {span(pick('busy'))}")


if __name__ == "__main__":
    main()
