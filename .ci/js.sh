#!/usr/bin/env bash
# The JavaScript package `collide` (crates/js, packages/collide): builds it with
# scripts/build-js.sh (which installs the wasm32 target and wasm-bindgen-cli, and prints the
# .wasm sizes: the main module against the package's budget of 302 KB gzip, failing above it,
# and the TOML module that World.fromToml loads on first use), then runs its tests with node's
# built-in test runner: the README's example, analytic cases, snapshots, bad input, TOML
# scenes, and state hashes against the native CLI built here; then World.fromToml in headless
# Chromium (.ci/js-toml-page.sh) and the example page examples/js-breakout
# (.ci/js-example.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

# node (the tests) and chromium (the example page), from Debian when missing.
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
node --version

bash scripts/build-js.sh
cargo build --release -p collide-cli
# typescript, for the check of the generated types.
(cd packages/collide && npm ci --no-audit --no-fund)
export COLLIDE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/collide"
node --test packages/collide/test/
bash .ci/js-toml-page.sh
bash .ci/js-example.sh
