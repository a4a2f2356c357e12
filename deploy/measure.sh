#!/usr/bin/env bash
# The measurements behind the scale model in docs/scale-out.md: shard overhead (CPU time of N
# shards summed against one run) and merge cost (wall time, CPU time and peak memory of
# `oddsmith merge` over 10, 100 and 1,000 shard files).
#
#   cargo build --release -p oddsmith
#   deploy/measure.sh [ODDSMITH_BINARY]        (default: target/release/oddsmith)
#
# Environment: SCENARIO (default scenarios/draft/reference-duels.toml), TRIALS (the shard
# overhead run, default 6000000 per matchup), MERGE_TRIALS (the shard sets for the merge,
# default 10000000), SHARDS (default "1 2 8 32"), MERGES (default "10 100 1000").
# Every run is one thread, --no-exact, --seed 1; shards run one after another. CPU time
# (user + sys) is what the model uses: other work on the machine barely moves it, while wall
# time follows the load. Needs GNU time (/usr/bin/time).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/oddsmith}
scenario=${SCENARIO:-$root/scenarios/draft/reference-duels.toml}
trials=${TRIALS:-6000000}
merge_trials=${MERGE_TRIALS:-10000000}
[ -x "$bin" ] || {
    echo "no oddsmith binary at $bin" >&2
    exit 2
}
tmp=$(mktemp -d /tmp/oddsmith-measure.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
opts=(--trials "$trials" --seed 1 --no-exact --threads 1)

# Runs a command under GNU time; prints "user+sys wall peak_rss_kib".
measure() {
    /usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        exit 1
    }
    awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 }' "$tmp/time"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
echo "binary: $bin ($("$bin" --version))"
echo "scenario: ${scenario#"$root"/}"
echo
echo "## Shard overhead (${trials} trials per matchup, 1 thread each)"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
read -r cpu wall rss < <(measure "$bin" run "$scenario" "${opts[@]}" --json --no-report)
single=$cpu
echo "one run: cpu ${cpu} s, wall ${wall} s, peak RSS ${rss} KiB"
# One `time` over the loop of N shard processes: GNU time reports the children's CPU time
# summed and the largest child's peak RSS.
shards() { # N TRIALS OUT_DIR
    for k in $(seq 1 "$1"); do
        "$bin" run "$scenario" --trials "$2" --seed 1 --no-exact --threads 1 \
            --shard "$k/$1" --shard-out "$3/s$k.json" >/dev/null
    done
}
export -f shards
export bin scenario
for n in ${SHARDS:-1 2 8 32}; do
    mkdir -p "$tmp/o$n"
    read -r cpu wall rss < <(measure bash -c 'shards "$@"' - "$n" "$trials" "$tmp/o$n")
    echo "N = $n: shards' cpu summed ${cpu} s ($(awk -v t="$cpu" -v s="$single" 'BEGIN { printf "%+.1f %%", 100 * (t - s) / s }') against one run), wall summed ${wall} s, largest shard peak RSS ${rss} KiB"
    rm -rf "$tmp/o$n"
done
echo "load after: $(uptime | sed 's/.*load average/load average/')"
echo
echo "## Merge cost (shards of ${merge_trials} trials per matchup)"
for n in ${MERGES:-10 100 1000}; do
    mkdir -p "$tmp/m$n"
    read -r gen _ _ < <(measure bash -c 'shards "$@"' - "$n" "$merge_trials" "$tmp/m$n")
    size=$(du -sk "$tmp/m$n" | cut -f1)
    echo "load: $(uptime | sed 's/.*load average/load average/')"
    read -r cpu wall rss < <(measure "$bin" merge "$tmp/m$n"/s*.json --json --no-report)
    read -r rcpu rwall rrss < <(measure "$bin" merge "$tmp/m$n"/s*.json --out "$tmp/report-$n")
    echo "$n shards (${size} KiB of shard files; making them took cpu ${gen} s): merge --json --no-report: wall ${wall} s, cpu ${cpu} s, peak RSS ${rss} KiB; with the report: wall ${rwall} s, cpu ${rcpu} s, peak RSS ${rrss} KiB"
    rm -rf "$tmp/m$n" "$tmp/report-$n"
done
