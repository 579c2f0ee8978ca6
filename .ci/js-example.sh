#!/usr/bin/env bash
# The JavaScript example page (examples/js-breakout) in headless Chromium: served over http
# from the repository's root, `?frames=600` runs 600 frames with the paddle following the ball
# and writes its state into the page; the state must show a game that ran (600 frames, hits,
# bricks broken, a state hash), and a screenshot is written to target/js-breakout.png.
# Needs the package built (scripts/build-js.sh) and chromium (Debian's package).
set -euo pipefail
cd "$(dirname "$0")/.."

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
url="http://127.0.0.1:$port/examples/js-breakout/?frames=600"
chrome=(chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" --virtual-time-budget=10000)
state="$(timeout 120 "${chrome[@]}" --dump-dom "$url" 2>/dev/null | sed -n 's/.*<pre id="state">\([^<]*\)<.*/\1/p')"
echo "js-breakout: $state"
timeout 120 "${chrome[@]}" --window-size=1000,800 --screenshot="$PWD/target/js-breakout.png" "$url" 2>/dev/null
node -e '
const s = JSON.parse(process.argv[1]);
const ok = s.frames === 600 && s.hits > 0 && s.bricks < 140 && s.score > 0 && /^[0-9a-f]{16}$/.test(s.hash);
if (!ok) { console.error("js-breakout: the page did not run the game:", s); process.exit(1); }
' "$state"
# A page that drew nothing is one flat colour: a few KB of PNG at this size; the level is more.
test "$(wc -c <target/js-breakout.png)" -gt 10000
echo "js-breakout: screenshot target/js-breakout.png"
