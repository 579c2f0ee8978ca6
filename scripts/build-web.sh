#!/usr/bin/env bash
# Builds the collide games' static site (apps/web) into one folder that any static web host
# serves: index.html, main.js, the wasm-bindgen glue (collide_web.js) and collide_web_bg.wasm.
#
#   bash scripts/build-web.sh [OUT]        (default OUT: target/web-site)
#   python3 -m http.server -d target/web-site 8000    then open http://127.0.0.1:8000/
#
# Installs what it needs: the wasm32-unknown-unknown target (rustup) and wasm-bindgen-cli at
# the version of the `wasm-bindgen` crate pinned in apps/web/Cargo.toml (= the one in
# Cargo.lock); cargo install takes about 2 minutes, once. WASM_OPT=1 also runs `wasm-opt -Oz`
# when a wasm-opt binary is on PATH (npm's binaryen; Debian's is too old for the module).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web-site}"

# The version the crate is pinned to: `wasm-bindgen = "=X.Y.Z"`.
version="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' apps/web/Cargo.toml)"
if [ -z "$version" ]; then
    echo "error: apps/web/Cargo.toml does not pin wasm-bindgen with =X.Y.Z" >&2
    exit 1
fi
if ! grep -q -A1 '^name = "wasm-bindgen"$' Cargo.lock \
    || [ "$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')" != "$version" ]; then
    echo "error: Cargo.lock's wasm-bindgen is not $version (apps/web/Cargo.toml pins it)" >&2
    exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
    # --locked fails here: the CLI's own lockfile names a crate version the registry lacks.
    cargo install wasm-bindgen-cli --version "$version"
fi

nice -n 10 cargo build -q -p collide-web --lib --target wasm32-unknown-unknown --profile web
wasm="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web/collide_web.wasm"

rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" "$wasm"
# The function names (the `name` section, for debuggers: about a sixth of the module) are not
# shipped; wasm-bindgen needs the module's other custom sections, so they are dropped after it.
node scripts/wasm-drop-names.mjs "$out/collide_web_bg.wasm"
if [ "${WASM_OPT:-0}" = 1 ] && command -v wasm-opt >/dev/null 2>&1; then
    wasm-opt -Oz "$out/collide_web_bg.wasm" -o "$out/collide_web_bg.wasm"
fi
cp apps/web/www/index.html apps/web/www/main.js "$out/"

bytes=$(stat -c %s "$out/collide_web_bg.wasm")
gz=$(gzip -9 -c "$out/collide_web_bg.wasm" | wc -c)
echo "collide-web: site in $out (collide_web_bg.wasm $((bytes / 1024)) KB, $((gz / 1024)) KB gzip)"
