#!/usr/bin/env bash
# A newcomer's first use, exactly as README.md gives it: a new crate outside the workspace,
# next to a checkout called `collide`, with the README's dependency lines and its Rust snippet
# as main.rs. Builds and runs it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$repo" "$work/collide"

# The first ```toml and ```rust blocks after the heading "## Using the library".
extract() {
    awk -v lang="$1" '
        /^## Using the library/ { section = 1; next }
        section && /^## / { exit }
        section && !inside && $0 == "```" lang { inside = 1; next }
        inside && /^```/ { exit }
        inside { print }
    ' "$repo/README.md"
}

mkdir -p "$work/my-game/src"
{
    printf '[package]\nname = "my-game"\nversion = "0.1.0"\nedition = "2021"\n\n'
    extract toml
} > "$work/my-game/Cargo.toml"
extract rust > "$work/my-game/src/main.rs"
grep -q 'collide-world' "$work/my-game/Cargo.toml" || { echo "readme-crate: no dependency lines found" >&2; exit 1; }
grep -q 'fn main' "$work/my-game/src/main.rs" || { echo "readme-crate: no Rust snippet found" >&2; exit 1; }

echo "readme-crate: building the README's snippet in a new crate outside the workspace"
cd "$work/my-game"
out="$(CARGO_TARGET_DIR="$work/target" cargo run --release -q)"
printf '%s\n' "$out" | tail -n 3
printf '%s\n' "$out" | grep -q 'bricks destroyed' || { echo "readme-crate: unexpected output" >&2; exit 1; }
echo "readme-crate: ok"
