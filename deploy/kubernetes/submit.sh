#!/usr/bin/env bash
# Runs an oddsmith scenario as N shards on Kubernetes (an Indexed Job), then merges them.
#
#   deploy/kubernetes/submit.sh SCENARIO.toml N [RUN OPTIONS…]
#   deploy/kubernetes/submit.sh scenarios/studies/draft-skill-sweep.toml 64 --trials 100000000 --seed 11
#
# Steps: the shared claim (shards.yaml), a ConfigMap holding the scenario file, the shard
# Job (shards.yaml with this run's N, name and options), a wait until it is complete, the
# merge Job (merge.yaml), a wait, and its log (the merged JSON document) into
# ./<run>.json. The report folder stays in the claim, under /work/<run>/report/.
#
# RUN OPTIONS are `oddsmith run` options: --trials, --seed, --no-exact, --max-work, --yes.
#
# Environment:
#   KUBECTL          the kubectl command (default: kubectl; add --namespace/--context here)
#   ODDSMITH_IMAGE   an image with oddsmith on PATH (default: oddsmith:latest)
#   PARALLELISM      at most this many shard pods at once (default: N)
#   PRINT=1          print the two rendered manifests and stop (no cluster needed)
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
    --shard | --shard=* | --shard-out | --shard-out=*) die "$opt: the Job chooses the shards" ;;
    --threads | --threads=*) die "$opt: the shard pods use their CPU limit" ;;
    --precision | --precision=*) die "$opt: a run to a precision target cannot be sharded; give --trials" ;;
    --json | --out | --out=* | --no-report) die "$opt: the merge Job writes result.json and report/" ;;
    *[!A-Za-z0-9_.=+-]*) die "$opt: an option of letters, digits and . = + - only" ;;
    esac
done
parallelism=${PARALLELISM:-$n}
[[ $parallelism =~ ^[1-9][0-9]*$ ]] || die "PARALLELISM must be a whole number, 1 or more"
image=${ODDSMITH_IMAGE:-oddsmith:latest}
case $image in *[!A-Za-z0-9_./:@-]*) die "ODDSMITH_IMAGE: not an image name: $image" ;; esac

# The run's name: the scenario's file stem and the time, as a DNS label (Job names).
stem=$(basename "${scenario%.*}" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-' | cut -c1-30)
run=${RUN_NAME:-$stem-$(date -u +%Y%m%d-%H%M%S)}
[[ $run =~ ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$ ]] && [ ${#run} -le 47 ] ||
    die "RUN_NAME '$run': lower-case letters, digits and -, at most 47 characters"

# The manifests with this run's values on the marked lines.
render() {
    local file=$1
    shift
    sed -e "/# @shards\$/s/[0-9][0-9]*/$n/" \
        -e "/^  parallelism: .* # @shards\$/s/[0-9][0-9]*/$parallelism/" \
        -e "/# @run\$/s/example/$run/" \
        -e "/# @options\$/s/value: \".*\"/value: \"$*\"/" \
        -e "/# @image\$/s|image: [^ ]*|image: $image|" \
        "$file"
}
shards_yaml=$(render "$here/shards.yaml" "$@")
merge_yaml=$(render "$here/merge.yaml" "$@")
if [ -n "${PRINT:-}" ]; then
    printf '%s\n---\n%s\n' "$shards_yaml" "$merge_yaml"
    exit 0
fi

kubectl=${KUBECTL:-kubectl}
# Waits until Job $1 is Complete (returns 0) or Failed (returns 1).
wait_job() {
    local state
    while :; do
        state=$($kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')
        case " $state " in
        *" Complete "*) return 0 ;;
        *" Failed "*) return 1 ;;
        esac
        sleep 10
    done
}

$kubectl create configmap "oddsmith-scenario-$run" --from-file=scenario.toml="$scenario"
printf '%s\n' "$shards_yaml" | $kubectl apply -f -
echo "run $run: $n shards (job/oddsmith-shards-$run); waiting for them…"
wait_job "oddsmith-shards-$run" || die "job/oddsmith-shards-$run failed: kubectl describe job/oddsmith-shards-$run"
printf '%s\n' "$merge_yaml" | $kubectl apply -f -
wait_job "oddsmith-merge-$run" || die "the merge failed: kubectl logs job/oddsmith-merge-$run"
$kubectl logs "job/oddsmith-merge-$run" >"$run.json"
echo "run $run merged: $run.json; the report is in the claim oddsmith-work under /work/$run/report/"
