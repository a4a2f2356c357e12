#!/bin/sh
# Times the plain-Python loop, the numpy version and oddsmith on Draft D1, whole process, with
# /usr/bin/time -v; each timing 3 times (seeds 1, 2, 3; keep the best). Run from the repository root:
#   sh benches/peers/time_all.sh [ODDSMITH_BINARY] [OUT_DIR] [WHICH]
# WHICH: all (default), python, numpy or oddsmith. Python: /usr/bin/python3 (Debian's, where
# python3-numpy lives). Raw logs go to OUT_DIR; OUT_DIR/summary.txt has wall time and peak RSS.
set -eu
BIN=${1:-target/release/oddsmith}
OUT=${2:-/tmp/peers-timing}
WHICH=${3:-all}
PY=/usr/bin/python3
HERE=$(dirname "$0")
mkdir -p "$OUT"

timed() { # name rep command...
    name=$1; rep=$2; shift 2
    echo "== $name rep $rep  $(date -u +%H:%M:%S)  load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
    /usr/bin/time -v "$@" >"$OUT/$name.$rep.out" 2>"$OUT/$name.$rep.time"
    grep -E 'Elapsed|Maximum resident' "$OUT/$name.$rep.time" | tee -a "$OUT/summary.txt"
    grep -E 'duels/s|P\(A wins\)' "$OUT/$name.$rep.out" | tee -a "$OUT/summary.txt" || true
}

for rep in 1 2 3; do
    if [ "$WHICH" = all ] || [ "$WHICH" = python ]; then
        timed python-1e6 $rep $PY "$HERE/draft_d1.py" 1000000 $rep
    fi
    if [ "$WHICH" = all ] || [ "$WHICH" = numpy ]; then
        timed numpy-1e6 $rep $PY "$HERE/draft_d1_numpy.py" 1000000 $rep
        timed numpy-1e7 $rep $PY "$HERE/draft_d1_numpy.py" 10000000 $rep
    fi
    if [ "$WHICH" = all ] || [ "$WHICH" = oddsmith ]; then
        for n in 1000000 10000000; do
            for t in 1 2; do
                timed "oddsmith-d1-$n-t$t" $rep "$BIN" run "$HERE/d1.toml" --trials $n --seed $rep \
                    --no-exact --no-report --threads $t
                timed "oddsmith-ref3-$n-t$t" $rep "$BIN" run scenarios/draft/reference-duels.toml \
                    --trials $n --seed $rep --no-exact --no-report --threads $t
            done
        done
    fi
done
