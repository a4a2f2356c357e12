#!/usr/bin/env bash
# The Slurm path, tested for real on this machine: starts a one-node Slurm cluster from
# Debian's packages (slurm-wlm, munge), submits shard arrays and their merge jobs with
# submit.sh, waits, and compares each merged result with a single run of the same binary,
# byte for byte (the JSON document and every CSV table of the report). Takes about a minute.
#
#   deploy/slurm/test-local.sh [ODDSMITH_BINARY]     (default: target/debug/oddsmith)
#
# It installs nothing (`.ci/run` installs the packages when missing). It needs root: it
# starts munged (with a fresh key), slurmctld and slurmd, all with their files in a
# temporary folder, on ports of their own, and stops them and removes the folder at the end.
# It prints "SKIPPED: <reason>" and exits 0 only when it cannot start the daemons: not root,
# or the packages are missing outside CI (with CI set, missing packages are a failure).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-${ODDSMITH:-${CARGO_TARGET_DIR:-$root/target}/debug/oddsmith}}

skip() {
    echo "SKIPPED: $*"
    exit 0
}

if [ "$(id -u)" != 0 ]; then
    skip "not root (the test starts munged, slurmctld and slurmd)"
fi
missing=
for c in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
if [ -n "$missing" ]; then
    if [ -n "${CI:-}" ]; then
        echo "FAILED: missing$missing (apt-get install slurm-wlm munge)" >&2
        exit 1
    fi
    skip "missing$missing (apt-get install slurm-wlm munge)"
fi
[ -x "$bin" ] || {
    echo "FAILED: no oddsmith binary at $bin (build it, or give its path)" >&2
    exit 1
}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

tmp=$(mktemp -d /tmp/oddsmith-slurm.XXXXXX)
chmod 755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/runs" "$tmp/single"
chmod 700 "$tmp/munge"

# Stop only the daemons this script started (by their pid files), then remove the folder.
cleanup() {
    local f pid
    for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
        pid=$(cat "$f" 2>/dev/null || true)
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
        pid=$(cat "$f" 2>/dev/null || true)
        for _ in $(seq 50); do
            [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
    done
    rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
    echo "FAILED: $*" >&2
    local f
    for f in "$tmp"/log/* "$tmp"/munge/munged.log "$tmp"/runs/*/logs/*.out; do
        [ -f "$f" ] || continue
        echo "--- $f (last lines)" >&2
        tail -n 15 "$f" >&2
    done
    exit 1
}

# --- munge: a fresh key, a private socket ---------------------------------------------------
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force \
    --key-file="$tmp/munge/munge.key" \
    --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" ||
    fail "munged did not start"

# --- slurm.conf: one node, this host, its real CPUs and memory -------------------------------
host=$(hostname -s)
# `slurmd -C` prints this machine's node line (CPUs, sockets, cores, threads, RealMemory).
node=$(slurmd -C | head -n 1)
case $node in NodeName=*) ;; *) fail "slurmd -C printed no node line: $node" ;; esac
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=oddsmith-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=17817
SlurmdPort=17818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerParameters=sched_min_interval=0
MinJobAge=600
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -i || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"

state=
for _ in $(seq 150); do
    state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "node $host is '$state', not idle, after 30 s"
echo "slurm: node $host idle ($node)"

# --- the runs: each sharded through Slurm, and once whole -----------------------------------
# name|scenario|shards|run options
runs=(
    "duels|scenarios/draft/reference-duels.toml|4|--trials 40000 --seed 11"
    "sweep|scenarios/studies/draft-skill-sweep.toml|3|--trials 20000 --seed 5 --no-exact"
)
declare -A dirs
for r in "${runs[@]}"; do
    IFS='|' read -r name scenario n opts <<<"$r"
    mkdir -p "$tmp/runs/$name"
    # shellcheck disable=SC2086 # the options are words
    ODDSMITH=$bin ODDSMITH_RUNS=$tmp/runs/$name "$here/submit.sh" "$root/$scenario" "$n" $opts ||
        fail "submit.sh $scenario $n failed"
    dirs[$name]=$(echo "$tmp/runs/$name"/*/)
done
# The single runs, on this machine while Slurm works.
for r in "${runs[@]}"; do
    IFS='|' read -r name scenario n opts <<<"$r"
    # shellcheck disable=SC2086
    "$bin" run "$root/$scenario" $opts --json --out "$tmp/single/$name" \
        >"$tmp/single/$name.json" 2>"$tmp/log/single-$name.log" ||
        fail "the single run of $scenario failed"
done

# Wait for every job to leave the queue (at most two minutes).
ids=
for name in "${!dirs[@]}"; do
    # shellcheck disable=SC1091
    . "${dirs[$name]}jobs.env"
    ids="$ids${ids:+,}$ARRAY_JOB,$MERGE_JOB"
done
for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$ids" -o %i 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h -j "$ids" -o %i)" ] || fail "jobs $ids still queued after two minutes: $(squeue -j "$ids")"

# --- compare -------------------------------------------------------------------------------
for r in "${runs[@]}"; do
    IFS='|' read -r name scenario n opts <<<"$r"
    d=${dirs[$name]}
    # shellcheck disable=SC1091
    . "${d}jobs.env"
    done_tasks=$(scontrol -o show job "$ARRAY_JOB" | grep -c 'JobState=COMPLETED' || true)
    [ "$done_tasks" = "$n" ] || fail "$name: $done_tasks of $n shard tasks COMPLETED"
    scontrol -o show job "$MERGE_JOB" | grep -q 'JobState=COMPLETED' ||
        fail "$name: the merge job did not complete: $(scontrol -o show job "$MERGE_JOB")"
    shards=$(find "$d/shards" -name 'shard-*.json' | wc -l)
    [ "$shards" = "$n" ] || fail "$name: $shards shard files, expected $n"
    cmp "$tmp/single/$name.json" "${d}result.json" ||
        fail "$name: the merged JSON differs from the single run's"
    csvs=0
    for f in "$tmp/single/$name"/tables/*.csv; do
        cmp "$f" "${d}report/tables/$(basename "$f")" ||
            fail "$name: tables/$(basename "$f") differs from the single run's"
        csvs=$((csvs + 1))
    done
    [ "$csvs" -gt 0 ] || fail "$name: the single run wrote no CSV table"
    echo "ok: $name ($scenario $opts): $n shards as Slurm array job $ARRAY_JOB, merge job $MERGE_JOB;" \
        "result.json and $csvs CSV tables equal the single run's, byte for byte"
done
echo "slurm test passed"
