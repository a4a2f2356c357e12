#!/usr/bin/env bash
# Runs an oddsmith scenario as N shards on a Slurm cluster, then merges them.
#
#   deploy/slurm/submit.sh SCENARIO.toml N [RUN OPTIONS…]
#   deploy/slurm/submit.sh scenarios/studies/draft-skill-sweep.toml 64 --trials 100000000 --seed 11
#
# It submits two jobs: an array of N tasks (shards.sbatch: task I runs `oddsmith run
# SCENARIO --shard I+1/N`) and a merge job (merge.sbatch) that starts once every task has
# succeeded (--dependency=afterok) and is cancelled if one fails. Everything goes into one run
# folder (RUN_DIR):
#   RUN_DIR/shards/shard-K-of-N.json   the shard files
#   RUN_DIR/logs/shard-I.out, merge.out the jobs' output
#   RUN_DIR/result.json, result.txt    the merged results (the single run's, bit for bit)
#   RUN_DIR/report/                    the merged report folder
#   RUN_DIR/jobs.env                   ARRAY_JOB=…, MERGE_JOB=…, SHARDS=N (for scripts)
#
# RUN OPTIONS are `oddsmith run` options: --trials, --seed, --no-exact, --max-work, --yes.
# Give --trials (a run to a --precision target cannot be sharded).
#
# Environment:
#   ODDSMITH        the oddsmith binary, on a path the compute nodes see (default: the one
#                   on PATH)
#   ODDSMITH_RUNS   where run folders are made, on a shared file system (default:
#                   ./oddsmith-runs)
#   CPUS_PER_SHARD  CPUs (threads) per shard task (default 1; numbers never depend on it)
#   SHARDS_AT_ONCE  at most this many shard tasks at a time (default: as many as fit)
#   SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, …  read by sbatch itself
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() {
    echo "submit.sh: $*" >&2
    exit 2
}
[ $# -ge 2 ] || die "usage: submit.sh SCENARIO.toml N [RUN OPTIONS…]"
scenario=$1
n=$2
shift 2
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a whole number of shards, 1 or more (got '$n')"
[ -f "$scenario" ] || die "no scenario file $scenario"
for opt in "$@"; do
    case $opt in
    --shard | --shard=* | --shard-out | --shard-out=*) die "$opt: the scripts choose the shards" ;;
    --threads | --threads=*) die "$opt: set CPUS_PER_SHARD instead" ;;
    --precision | --precision=*) die "$opt: a run to a precision target cannot be sharded; give --trials" ;;
    --json | --out | --out=* | --no-report) die "$opt: the merge job writes result.json, result.txt and report/" ;;
    esac
done

# Absolute paths: the jobs run in another folder, maybe on another machine.
scenario=$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")
oddsmith=${ODDSMITH:-$(command -v oddsmith || true)}
[ -n "$oddsmith" ] || die "no oddsmith on PATH: set ODDSMITH=/path/to/oddsmith (a path the compute nodes see)"
case $oddsmith in
*/*) oddsmith=$(cd "$(dirname "$oddsmith")" && pwd)/$(basename "$oddsmith") ;;
esac

# Refuse a broken scenario now rather than in N tasks.
"$oddsmith" validate "$scenario" >/dev/null

runs=${ODDSMITH_RUNS:-$PWD/oddsmith-runs}
mkdir -p "$runs"
runs=$(cd "$runs" && pwd)
stem=$(basename "${scenario%.*}")
dir=$runs/$stem-$(date -u +%Y%m%dT%H%M%SZ)-$$
mkdir -p "$dir/shards" "$dir/logs"

array=$(sbatch --parsable \
    --array="0-$((n - 1))${SHARDS_AT_ONCE:+%$SHARDS_AT_ONCE}" \
    --cpus-per-task="${CPUS_PER_SHARD:-1}" \
    --output="$dir/logs/shard-%a.out" \
    --export=ALL,ODDSMITH="$oddsmith" \
    "$here/shards.sbatch" "$scenario" "$n" "$dir" "$@")
array=${array%%;*} # --parsable prints "id" or "id;cluster"
merge=$(sbatch --parsable \
    --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
    --output="$dir/logs/merge.out" \
    --export=ALL,ODDSMITH="$oddsmith" \
    "$here/merge.sbatch" "$dir" "$n")
merge=${merge%%;*}
printf 'ARRAY_JOB=%s\nMERGE_JOB=%s\nSHARDS=%s\n' "$array" "$merge" "$n" >"$dir/jobs.env"

cat <<MSG
run folder: $dir
shards:     array job $array ($n tasks), logs in $dir/logs/
merge:      job $merge, once every shard has succeeded: $dir/result.json, result.txt, report/
watch:      squeue -j $array,$merge
MSG
