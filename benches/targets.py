#!/usr/bin/env python3
"""Issue 15's speed targets, measured: runs the reference duels' criterion benches RUNS times
and prints each run and the median against the targets, under both normalisations.

    python3 benches/targets.py [RUNS] [DUEL ...]     # from the repository root; RUNS default 5

Each run is, for each named duel, one `cargo bench` of the raw stream at 1 and 2 threads
(criterion runs it first) and then the duel at 1 and 2 threads (about 2.5 minutes for all five
duels), so each duel is scaled by the raw stream measured just before it. Criterion's own figure (its slope estimate,
what it prints as `thrpt`) is read from `$CARGO_TARGET_DIR/criterion` (default
`target/criterion`). The targets hold on the quiet machine, whose raw stream gave
QUIET_RAW words/s; a busy host slows every loop, so each run's 2-thread figure is scaled:

- by the 1-thread raw stream of the same run: x 985 / raw(1 thread), the reading the notes
  have used since 2026-11-25;
- by the 2-thread raw stream of the same run: x (2 x 985) / raw(2 threads), which also takes
  out the share of the second core the host withholds from every loop.

Nothing here is run by CI; it needs a machine with nothing else running to mean anything.
"""

import json
import os
import statistics
import subprocess
import sys

# `dice/raw_u64_x1000` on the quiet machine of 2026-11-24 (M words/s).
QUIET_RAW = 985.0

# Reference duel -> 2-thread target in M duels/s: Draft D1's is named by the issue; the others
# are 3x their first measured figure (issue 15, item 2: gamecraft 1.8 and d20 1.3 named by the
# issue, openrpg 2.91 and cards 1.07 first measured in benches/README.md).
TARGETS = {
    "draft_d1": 25.0,
    "gamecraft_d1": 5.4,
    "d20_reference": 3.9,
    "openrpg_r1": 8.73,
    "cards_reference": 3.21,
}


def throughput(root, bench):
    """Criterion's throughput of `bench` in M elements/s (its slope estimate, else the mean)."""
    d = os.path.join(root, *bench.split("/"), "new")
    with open(os.path.join(d, "estimates.json")) as f:
        e = json.load(f)
    with open(os.path.join(d, "benchmark.json")) as f:
        elements = json.load(f)["throughput"]["Elements"]
    ns = (e.get("slope") or e["mean"])["point_estimate"]
    return elements / ns * 1e3


def bench(pattern):
    """One cargo bench of the benches `pattern` matches."""
    p = subprocess.run(
        ["cargo", "bench", "-q", "-p", "oddsmith-benches", "--bench", "bench_main", "--",
         pattern, "--warm-up-time", "1", "--measurement-time", "4"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    if p.returncode != 0:
        sys.exit(f"cargo bench failed:\n{p.stderr}")


def run(duels):
    """One run: for each duel, one cargo bench of the raw stream (criterion runs it first)
    and then the duel, so each duel is scaled by the raw stream measured just before it;
    returns this run's figures."""
    root = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")
    out = {}
    raws = []
    for d in duels:
        bench(f"{d}/threads|dice/raw_u64_x1000|dice/raw_u64_threads")
        raw1 = throughput(root, "dice/raw_u64_x1000")
        raw2 = throughput(root, "dice_raw_u64_threads/2")
        raws.append((raw1, raw2, raw2 / throughput(root, "dice_raw_u64_threads/1")))
        t1, t2 = throughput(root, f"{d}/threads_1"), throughput(root, f"{d}/threads_2")
        out[d] = {"raw1": raw1, **figures(t1, t2, raw1, raw2)}
    out["raw1"] = statistics.median(r[0] for r in raws)
    out["raw2"] = statistics.median(r[1] for r in raws)
    out["raw_speedup"] = statistics.median(r[2] for r in raws)
    return out


def figures(t1, t2, raw1, raw2):
    """A duel's figures from its 1- and 2-thread rates and the raw stream's 1- and 2-thread
    rates of the same run: the speed-up and the 2-thread rate under both normalisations."""
    return {
        "t1": t1,
        "t2": t2,
        "speedup": t2 / t1,
        "by_raw1": t2 * QUIET_RAW / raw1,
        "by_raw2": t2 * 2 * QUIET_RAW / raw2,
    }


def load_average():
    """The 1-, 5- and 15-minute load averages, as printed before each run."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def target_line(d, results):
    """The summary's line for duel `d`: its target and both normalisations over `results`
    (each run's figures by duel), each with its verdict on the median."""
    t = TARGETS[d]
    out = []
    for key, name in (("by_raw1", "1-thread"), ("by_raw2", "2-thread")):
        xs = [r[d][key] for r in results]
        verdict = "met" if statistics.median(xs) >= t else "short"
        out.append(f"by {name} raw {span(xs)} ({verdict})")
    return f"  {d:16} target {t:5.2f}: " + "; ".join(out)


def span(xs, fmt="{:.2f}"):
    return f"{fmt.format(min(xs))}–{fmt.format(max(xs))}, median {fmt.format(statistics.median(xs))}"


def parse_args(argv):
    """`[RUNS] [DUEL ...]` (also `whole.py`'s): the number of runs (5 unless given) and the
    duels named, all of TARGETS unless some are."""
    args = list(argv)
    runs = int(args.pop(0)) if args and args[0].isdigit() else 5
    duels = args or list(TARGETS)
    for d in duels:
        if d not in TARGETS:
            sys.exit(f"unknown duel {d!r}: one of {', '.join(TARGETS)}")
    return runs, duels


def main():
    runs, duels = parse_args(sys.argv[1:])
    results = []
    for k in range(runs):
        load = load_average()
        r = run(duels)
        results.append(r)
        print(f"run {k + 1}/{runs} (load before: {load}): raw (median over the duels' benches) "
              f"{r['raw1']:.0f} M words/s on 1 thread, {r['raw2']:.0f} on 2 ({r['raw_speedup']:.2f}x)")
        for d in duels:
            x = r[d]
            print(f"  {d:16} raw {x['raw1']:4.0f}  {x['t1']:7.2f} {x['t2']:7.2f} M/s  {x['speedup']:.2f}x  "
                  f"scaled {x['by_raw1']:6.2f} (1-thread raw) {x['by_raw2']:6.2f} (2-thread raw)")
        sys.stdout.flush()
    print(f"\n{runs} runs, 2 threads, M duels/s scaled to the quiet machine ({QUIET_RAW:.0f} M words/s):")
    print(f"  raw stream 1 thread {span([r['raw1'] for r in results], '{:.0f}')}; "
          f"its 2-thread speed-up {span([r['raw_speedup'] for r in results])}")
    for d in duels:
        sp = [r[d]["speedup"] for r in results]
        print(f"{target_line(d, results)}; speed-up {span(sp)}")


if __name__ == "__main__":
    main()
