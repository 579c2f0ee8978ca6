#!/usr/bin/env bash
# The same bits on every platform (docs/rollback.md): the `collide` command built for x86-64
# (native), aarch64 (cross-built with Debian's gcc-aarch64-linux-gnu, run under qemu-user) and
# wasm32-wasip1 (run under node's WASI) must print exactly the checked-in golden-hash table,
# tests/golden/hashes.tsv, and verify the same replays: the checked-in ones and one recorded
# natively here. Any difference fails.
#
# Installs what it needs when missing (Debian packages, rustup targets). The native command is
# the release build (CI has just built it for the tests); the cross builds use the `cross`
# profile (release without debug info). CARGO_TARGET_DIR is obeyed.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
golden=tests/golden/hashes.tsv
profile=cross
# Inside the repository: the WASI runner opens only the current folder.
work=target/cross-hashes
rm -rf "$work"
mkdir -p "$work"

missing=()
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
[ -d /usr/aarch64-linux-gnu/lib ] || missing+=(libc6-dev-arm64-cross)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
if [ ${#missing[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
rustup target add aarch64-unknown-linux-gnu wasm32-wasip1

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc

target_dir="${CARGO_TARGET_DIR:-target}"
cargo build -q --release -p collide-cli
cargo build -q --profile "$profile" -p collide-cli --target aarch64-unknown-linux-gnu
cargo build -q --profile "$profile" -p collide-cli --target wasm32-wasip1
echo "cross-hashes: built in $((SECONDS - start)) s"

# How each platform runs the command: "$@" are its arguments.
run_x86_64() { "$target_dir/release/collide" "$@"; }
run_aarch64() {
    qemu-aarch64 -L /usr/aarch64-linux-gnu \
        "$target_dir/aarch64-unknown-linux-gnu/$profile/collide" "$@"
}
run_wasm32() {
    node --no-warnings .ci/wasi-run.mjs "$target_dir/wasm32-wasip1/$profile/collide.wasm" "$@"
}

# A replay recorded here, natively: the pinball table played by the autopilot (flippers
# turning) and BricksBeater level 2.
run_x86_64 record pinball --steps 3000 --autoplay --out "$work/pinball.replay" > /dev/null
run_x86_64 record level_2 --steps 1200 --autoplay --out "$work/level_2.replay" > /dev/null
replays=("$work"/*.replay tests/fixtures/*.replay)

failed=0
for platform in x86_64 aarch64 wasm32; do
    t0=$SECONDS
    if ! "run_$platform" hashes > "$work/hashes-$platform.tsv"; then
        echo "cross-hashes: $platform: collide hashes failed" >&2
        failed=1
        continue
    fi
    if ! diff -u "$golden" "$work/hashes-$platform.tsv"; then
        echo "cross-hashes: $platform: the table differs from $golden (lines above)" >&2
        failed=1
    fi
    for r in "${replays[@]}"; do
        if ! "run_$platform" replay "$r" > "$work/replay.json"; then
            echo "cross-hashes: $platform: the replay $r does not verify" >&2
            failed=1
        elif ! grep -q '"verified":true' "$work/replay.json"; then
            echo "cross-hashes: $platform: the replay $r: $(cat "$work/replay.json")" >&2
            failed=1
        fi
    done
    echo "cross-hashes: $platform: $(($(wc -l < "$golden") - 1)) hashes, ${#replays[@]} replays, $((SECONDS - t0)) s"
done
echo "cross-hashes: $((SECONDS - start)) s in all"
exit "$failed"
