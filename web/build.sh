#!/usr/bin/env bash
# Build the oddsmith web page (web/dist/): the engine compiled to WebAssembly plus the explorer page.
#
# The wasm toolchain is not rustup's: Debian bookworm-security's rustc-web packages (Rust 1.96),
# lld-22's wasm-ld and cargo's libraries are fetched with `apt-get download` and unpacked with
# `dpkg -x` into a private prefix (nothing is installed over the machine's toolchain), then std is
# built for wasm32 with `-Z build-std`. The JS glue comes from wasm-bindgen-cli at the version of
# the wasm-bindgen crate in Cargo.lock, built with the machine's normal cargo. Both are cached under
# ${ODDSMITH_WEB_CACHE:-$HOME/.cache/oddsmith-web}, so a second run only rebuilds the crate.
# Do not run binaryen's wasm-opt (Debian's 108 breaks the externref table).
#
# usage: web/build.sh [toolchain|bindgen|wasm|dist|all]   (default all)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${ODDSMITH_WEB_CACHE:-$HOME/.cache/oddsmith-web}"
PREFIX="$CACHE/toolchain"
STAGE="${1:-all}"
mkdir -p "$CACHE"

PKGS=(rustc-web cargo-web libstd-rust-web-dev libstd-rust-web-1.96 rust-web-src
      lld-22 libllvm22 libgit2-1.5 libhttp-parser2.9 libmbedcrypto7 libmbedtls14 libmbedx509-1)

toolchain() {
  # The folder is keyed by the package list: a changed list unpacks again.
  local want="${PKGS[*]}"
  if [[ -x "$PREFIX/usr/bin/rustc" && -e "$PREFIX/.complete" && "$(cat "$PREFIX/.complete")" == "$want" ]]; then return; fi
  echo "web/build.sh: fetching the wasm toolchain into $PREFIX" >&2
  local debs="$CACHE/debs"
  mkdir -p "$debs" "$PREFIX"
  # Stale package lists (libstd-rust-web-1.96 unknown, or rustc-web still 1.85 from bookworm
  # main) are refreshed first, as root; each package is then fetched at its candidate version,
  # so a .deb of an older version left in the cache is never the one unpacked.
  local p
  for p in "${PKGS[@]}"; do
    if ! apt-cache show "$p" >/dev/null 2>&1 || ! apt-cache policy rustc-web | grep -q 'Candidate: 1\.96'; then
      if [[ "$(id -u)" == 0 ]]; then apt-get update -qq; fi
      break
    fi
  done
  local files=()
  for p in "${PKGS[@]}"; do
    local v; v="$(apt-cache policy "$p" | awk '/Candidate:/ { print $2 }')"
    [[ -n "$v" && "$v" != "(none)" ]] || { echo "web/build.sh: no package $p (apt-get update?)" >&2; exit 1; }
    local f="$debs/${p}_${v//:/%3a}_"
    if ! ls "$f"*.deb >/dev/null 2>&1; then
      (cd "$debs" && apt-get download "$p=$v")
    fi
    files+=("$(ls "$f"*.deb | head -n 1)")
  done
  for d in "${files[@]}"; do
    dpkg -x "$d" "$PREFIX"
  done
  echo "$want" > "$PREFIX/.complete"
}

bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

bindgen() {
  local v; v="$(bindgen_version)"
  local bin="$CACHE/wasm-bindgen-$v/bin/wasm-bindgen"
  if [[ -x "$bin" ]]; then return; fi
  echo "web/build.sh: building wasm-bindgen-cli $v into $CACHE/wasm-bindgen-$v" >&2
  # The machine's normal cargo; without --locked (as the CLI's own lock file does not build here).
  env -u RUSTC -u CARGO_TARGET_DIR cargo install wasm-bindgen-cli --version "=$v" \
    --root "$CACHE/wasm-bindgen-$v" --target-dir "$CACHE/wasm-bindgen-target"
}

# The wasm build: the pipeline for wasm32-unknown-unknown with the private toolchain, std
# built from its sources (-Z build-std; RUSTC_BOOTSTRAP lets the stable 1.96 take the flag).
WASM_TARGET_DIR="${ODDSMITH_WEB_TARGET:-$CACHE/target}"
# The cargo profile: `release` (tested, measured); ODDSMITH_WEB_PROFILE=web builds with the
# workspace's size-optimised `web` profile (Cargo.toml: opt-level "s", fat LTO, one codegen
# unit), not yet measured.
PROFILE="${ODDSMITH_WEB_PROFILE:-release}"
wasm() {
  toolchain
  local lib="$PREFIX/usr/lib/x86_64-linux-gnu"
  echo "web/build.sh: compiling oddsmith-web for wasm32 (profile $PROFILE) into $WASM_TARGET_DIR" >&2
  (cd "$ROOT" && env -u RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS \
     RUSTC="$PREFIX/usr/bin/rustc" RUSTDOC="$PREFIX/usr/bin/rustdoc" \
     LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
     RUSTC_BOOTSTRAP=1 \
     CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$PREFIX/usr/bin/wasm-ld-22" \
     CARGO_TARGET_DIR="$WASM_TARGET_DIR" \
     "$PREFIX/usr/bin/cargo" build --profile "$PROFILE" --target wasm32-unknown-unknown \
       -Z build-std=std,panic_abort -p oddsmith-web --lib)
}

# The page: the explorer's own HTML/JS/CSS (crates/oddsmith-serve/src/page/, shared, not
# forked) with the wasm engine's adapter (web/engine.js, web/worker.js) in front, and the glue.
dist() {
  bindgen
  local v; v="$(bindgen_version)"
  local out="$ROOT/web/dist" page="$ROOT/crates/oddsmith-serve/src/page"
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  # Without the function names (a tenth of the download) and the producers section.
  "$CACHE/wasm-bindgen-$v/bin/wasm-bindgen" --target no-modules --no-typescript \
    --remove-name-section --remove-producers-section \
    --out-dir "$out.tmp" --out-name oddsmith \
    "$WASM_TARGET_DIR/wasm32-unknown-unknown/$PROFILE/oddsmith_web.wasm"
  cp "$page/app.js" "$page/style.css" "$ROOT/web/engine.js" "$ROOT/web/worker.js" "$ROOT/web/sw.js" "$out.tmp/"
  # The charts' font: the report's bundled one, fetched by the worker that draws (not in the wasm).
  cp "$ROOT/crates/oddsmith-report/assets/DejaVuSans.ttf" "$ROOT/crates/oddsmith-report/assets/DejaVuSans-LICENSE.txt" "$out.tmp/"
  # The server fills {{BOOT}} with its token; the static page says it has no server, and
  # loads the engine before the page's script. Paths are relative so any folder can host it.
  sed -e 's|{{BOOT}}|{"engine":"wasm","file":null}|' \
      -e 's|href="/style.css"|href="style.css"|' \
      -e 's|<script src="/app.js"></script>|<script src="engine.js"></script>\n<script src="app.js"></script>|' \
      -e 's|<title>oddsmith explorer</title>|<title>oddsmith</title>|' \
      "$page/index.html" > "$out.tmp/index.html"
  rm -rf "$out" && mv "$out.tmp" "$out"
  local size; size=$(gzip -9c "$out/oddsmith_bg.wasm" | wc -c)
  echo "web/build.sh: wrote $out (wasm $(wc -c < "$out/oddsmith_bg.wasm") bytes, $size gzipped)" >&2
}

case "$STAGE" in
  toolchain) toolchain ;;
  bindgen) bindgen ;;
  wasm) wasm ;;
  dist) dist ;;
  all) toolchain; bindgen; wasm; dist ;;
  *) echo "usage: web/build.sh [toolchain|bindgen|wasm|dist|all]" >&2; exit 2 ;;
esac
