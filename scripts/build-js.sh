#!/usr/bin/env bash
# Builds the npm package `collide` (the world API of collide-world for JavaScript and
# TypeScript, crates/js) into packages/collide/dist: collide.js (ES module glue),
# collide.d.ts (types with doc comments), collide_bg.wasm and snippets/, and the TOML module
# (crates/js-toml) that World.fromToml loads on its first call in dist/toml. Prints the .wasm
# files' size, raw and gzip-compressed: the main module against the package's budget (300 KB
# gzip: what a page that never loads a TOML scene downloads) and fails above it; the TOML
# module's (loaded only by World.fromToml) for information.
#
#   scripts/build-js.sh
#
# Installs what it needs: the wasm32-unknown-unknown target (rustup) and wasm-bindgen-cli at
# the version of the `wasm-bindgen` crate in Cargo.lock (cargo install, about 2 minutes once).
# The build is size-focused (fat LTO, one codegen unit, panic = abort, no debug info; the
# function names dropped after wasm-bindgen) at opt-level 3 (COLLIDE_JS_OPT_LEVEL: "z" makes
# the main module 19 % smaller and the step about twice as slow, docs/js.md) with LLVM's
# inlining threshold at 100 instead of opt-level 3's 250 (COLLIDE_JS_INLINE_THRESHOLD: 5 %
# smaller gzip, the step up to about 10 % slower, docs/js.md) and `--cfg collide_small_code` (one
# event loop for every world instead of three: 13 KB smaller gzip, the arena's step 2 to 12 %
# slower, docs/js.md), set through CARGO_PROFILE_RELEASE_* and
# RUSTFLAGS for this build only, in its own target folder (target/js), so it never changes
# the workspace's own release builds.
set -euo pipefail
cd "$(dirname "$0")/.."

# 300 KB gzip, the package's budget.
budget=300000
out=packages/collide/dist

if command -v rustup >/dev/null 2>&1 &&
    ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# The CLI must be the version of the crate the module was built with (Cargo.lock).
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
if [ -z "$version" ]; then
    echo "error: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
    cargo install wasm-bindgen-cli --version "$version"
fi

export CARGO_PROFILE_RELEASE_LTO=fat
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${COLLIDE_JS_OPT_LEVEL:-3}"
export CARGO_PROFILE_RELEASE_DEBUG=0
export CARGO_PROFILE_RELEASE_STRIP=none
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C llvm-args=-inline-threshold=${COLLIDE_JS_INLINE_THRESHOLD:-100} --cfg collide_small_code"
target_dir="${CARGO_TARGET_DIR:-target}/js"
release="$target_dir/wasm32-unknown-unknown/release"
rm -rf "$out"

# bindgen CRATE DIR NAME: the glue, types and .wasm of the package CRATE, built for wasm32,
# into DIR as NAME.js, NAME.d.ts and NAME_bg.wasm.
bindgen() {
    cargo build --release --locked --target wasm32-unknown-unknown -p "$1" --target-dir "$target_dir"
    wasm-bindgen --target web --out-dir "$2" --out-name "$3" "$release/${1//-/_}.wasm"
    node scripts/wasm-drop-names.mjs "$2/$3_bg.wasm"
}
# size NAME FILE BUDGET: prints FILE's size raw and gzip -9; with a BUDGET, fails above it.
size() {
    local raw gz
    raw=$(wc -c <"$2")
    gz=$(gzip -9 -c "$2" | wc -c)
    if [ -n "$3" ]; then
        echo "$1: $2: $raw bytes, $gz bytes gzip -9 (budget $3 bytes gzip)"
        if [ "$gz" -gt "$3" ]; then
            echo "error: $2 is over its budget of $3 bytes gzip" >&2
            return 1
        fi
    else
        echo "$1: $2: $raw bytes, $gz bytes gzip -9"
    fi
}

# The main module: the whole world API; World.fromToml loads the TOML module from toml/.
bindgen collide-js "$out" collide
# The TOML module: TOML text to scene bytes (World.fromScene).
bindgen collide-js-toml "$out/toml" collide_toml

size "package collide (main module)" "$out/collide_bg.wasm" "$budget"
size "package collide, TOML module (loaded by the first World.fromToml)" "$out/toml/collide_toml_bg.wasm" ""
