#!/usr/bin/env bash
# World.fromToml in headless Chromium (packages/collide/test/browser/toml.html, served over
# http from the repository's root): the TOML module must not be fetched before the first
# World.fromToml and must be after it, scenes/pinball.toml after 300 steps must have the state
# hash of the native `collide run`, and bad TOML must reject with an Error naming the line.
# Needs the package built (scripts/build-js.sh), the native CLI (COLLIDE_BIN, default
# target/release/collide) and chromium (Debian's package).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${COLLIDE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/release/collide}"
work="$(mktemp -d)"
python3 -u -m http.server 0 --bind 127.0.0.1 >"$work/http.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
port=""
for _ in $(seq 50); do
    port="$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.log" | head -1)"
    [ -n "$port" ] && break
    sleep 0.1
done
url="http://127.0.0.1:$port/packages/collide/test/browser/toml.html"
chrome=(chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" --virtual-time-budget=10000)
state="$(timeout 120 "${chrome[@]}" --dump-dom "$url" 2>/dev/null | sed -n 's/.*<pre id="state">\([^<]*\)<.*/\1/p')"
echo "World.fromToml in Chromium: $state"
native="$("$bin" run scenes/pinball.toml --steps 300 | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).state_hash))')"
node -e '
const s = JSON.parse(process.argv[1].replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">"));
const ok = s.before === false && s.after === true && s.hash === process.argv[2] &&
  /^true: box.toml:3.*wobble/.test(s.bad);
if (!ok) { console.error("World.fromToml in Chromium: expected native hash", process.argv[2], "got", s); process.exit(1); }
' "$state" "$native"
echo "World.fromToml in Chromium: the same state hash as native ($native), the TOML module fetched on first use"
