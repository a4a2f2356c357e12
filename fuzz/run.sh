#!/usr/bin/env bash
# Fuzzes scenario text for SECONDS (default 1800) from a corpus seeded with every bundled
# scenario, on nightly with cargo-fuzz (`cargo install cargo-fuzz`). Not run in CI.
# Crashes land in fuzz/artifacts/scenario/; reproduce one with
#   cargo +nightly fuzz run scenario fuzz/artifacts/scenario/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-1800}"
corpus=fuzz/corpus/scenario
mkdir -p "$corpus"
find scenarios -name '*.toml' -exec cp {} "$corpus/" \;
cargo +nightly fuzz run scenario "$corpus" -- \
  -max_total_time="$seconds" -timeout=20 -max_len=8192 -print_final_stats=1
