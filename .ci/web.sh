#!/usr/bin/env bash
# CI step: the collide games' site (apps/web) built and played in headless Chromium.
#
# 1. Installs what it needs: chromium, node/npm and ImageMagick (apt, when missing); the
#    wasm32 target and wasm-bindgen-cli (scripts/build-web.sh); puppeteer-core (npm ci in
#    .ci/web, from its package-lock.json; it downloads no browser).
# 2. Builds the site (scripts/build-web.sh) and prints the .wasm's size against its budget:
#    at most 600 KB gzip (gzip -9).
# 3. Serves it on 127.0.0.1 (python3 -m http.server) and loads its test modes with
#    `chromium --headless --dump-dom --virtual-time-budget`; each writes a JSON report into
#    <pre id="state">. The same input runs natively through the `collide` CLI, and the state
#    hashes must be equal:
#    - the game, autopilot playing level 1 for 900 frames (`?frames=900&autoplay=1`), against
#      `collide record level_1 --steps 900 --autoplay` (one fixed step a 1/60 s frame); and the
#      browser's own replay of it re-simulated by `collide replay`, every recorded hash equal;
#    - the pinball table with both flippers held for 600 frames
#      (`?frames=600&scene=pinball&hold=ShiftLeft,ShiftRight`, 2400 steps): its replay
#      re-simulated by `collide replay`, every hash and the final one equal;
#    - worlds alone, `?world=SCENE&steps=N&threads=4` against `collide run SCENE --steps N`:
#      level_1 (1000 balls), plinko under gravity, the pinball table; the browser reports 1
#      thread (World::set_threads is 1 on wasm32) and the same hash.
#    Chromium's log (--enable-logging=stderr) must hold no console message.
# 4. Screenshots: the `?frames=30` page (the canvas alone, 960 × 720) checked pixel by pixel
#    by apps/web/tests/screenshot.rs (level 1's bricks, walls, paddle and ball); the real-time
#    page after play (.ci/web/realtime.mjs) checked not blank (ImageMagick: colours and mean).
# 5. The real-time run (.ci/web/realtime.mjs, puppeteer-core): touch drag moves the paddle, a
#    tap launches, the mouse steers, fingers on the halves turn the flippers, keys, focus
#    loss; no console error.
# Outputs (reports, replays, screenshots) stay in target/web-checks.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
t_start=$(date +%s)

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
command -v convert >/dev/null 2>&1 || need+=(imagemagick)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
chromium --version

site=target/web-site
out=target/web-checks
rm -rf "$out"
mkdir -p "$out"
bash scripts/build-web.sh "$site"

# Size budget of the games' site .wasm, gzip -9.
budget=600000
wasm="$site/collide_web_bg.wasm"
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "size: games' site collide_web_bg.wasm $raw bytes, $gz bytes gzip; budget $budget bytes gzip (600 KB): $((100 * gz / budget)) % used"
if [ "$gz" -gt "$budget" ]; then
    echo "error: the site's .wasm is over its gzip budget" >&2
    exit 1
fi

cargo build --release -q -p collide-cli
cli="${CARGO_TARGET_DIR:-target}/release/collide"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >"$out/http.log" 2>&1 &
server=$!
profile="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$profile"' EXIT
url="http://127.0.0.1:$port/"
for _ in $(seq 1 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('$url')" 2>/dev/null && break
    sleep 0.1
done

chrome=(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --hide-scrollbars)

# The JSON report of one test mode of the page: NAME QUERY.
report() {
    local name="$1" query="$2"
    timeout 120 "${chrome[@]}" --virtual-time-budget=60000 --dump-dom "$url?$query" \
        >"$out/$name.html" 2>"$out/$name.log"
    if grep -a 'CONSOLE' "$out/$name.log"; then
        echo "error: $name: the page wrote to the console (above)" >&2
        exit 1
    fi
    python3 - "$out/$name.html" >"$out/$name.json" <<'PY'
import html, json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="state">(.*?)</pre>', text, re.S)
if not m or not m.group(1).strip():
    sys.exit(f"{sys.argv[1]}: no report in <pre id=\"state\">")
report = json.loads(html.unescape(m.group(1)))
if "error" in report:
    sys.exit(f"{sys.argv[1]}: the page failed: {report['error']}")
print(json.dumps(report))
PY
}
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
same() {
    local what="$1" browser="$2" native="$3"
    if [ "$browser" != "$native" ]; then
        echo "FAIL $what: browser $browser, native $native" >&2
        exit 1
    fi
    echo "ok   $what: browser $browser = native $native"
}

# The game, autopilot on level 1, 900 frames.
report game "frames=900&autoplay=1"
native=$("$cli" record level_1 --steps 900 --autoplay --out "$out/native-level_1.replay")
same "level 1 autoplay 900 frames, game state hash vs collide record" \
    "$(field "$out/game.json" game_hash)" "$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["final_hash"])' "$native")"
field "$out/game.json" replay >"$out/browser-level_1.replay"
checked=$("$cli" replay "$out/browser-level_1.replay")
same "level 1 autoplay, the browser's replay re-simulated by collide replay" \
    "$(field "$out/game.json" game_hash)" "$(python3 -c 'import json, sys; r = json.loads(sys.argv[1]); assert r["verified"]; print(r["final_hash"])' "$checked")"

# The pinball table, both flippers held.
report pinball "frames=600&scene=pinball&hold=ShiftLeft,ShiftRight"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["steps"] == 2400 and all(f["pressed"] for f in r["flippers"]) and len(r["flippers"]) == 2, r["flippers"]' "$out/pinball.json"
field "$out/pinball.json" replay >"$out/browser-pinball.replay"
checked=$("$cli" replay "$out/browser-pinball.replay")
same "pinball, flippers held 600 frames, the browser's replay re-simulated by collide replay" \
    "$(field "$out/pinball.json" game_hash)" "$(python3 -c 'import json, sys; r = json.loads(sys.argv[1]); assert r["verified"]; print(r["final_hash"])' "$checked")"

# Worlds alone.
for run in level_1:600 plinko:1000 pinball:2400; do
    scene=${run%:*}
    steps=${run#*:}
    report "world-$scene" "world=$scene&steps=$steps&threads=4"
    threads=$(field "$out/world-$scene.json" threads)
    if [ "$threads" != 1 ]; then
        echo "FAIL world $scene: the browser stepped on $threads threads" >&2
        exit 1
    fi
    native=$("$cli" run "$scene" --steps "$steps")
    same "world $scene, $steps steps (threads 4 asked, 1 used in the browser), state hash vs collide run" \
        "$(field "$out/world-$scene.json" state_hash)" "$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["state_hash"])' "$native")"
done

# The sample maps' sandboxes (levels converted when the site was built, no loader in the
# .wasm): the world after 120 frames against `collide run` of the map file with the same
# 100 balls and steps.
for run in "ldtk:Top|assets/maps/ldtk/Typical_2D_platformer_example.ldtk|Top" \
    "tiled:sticker_knight|assets/maps/tiled/sticker-knight/sandbox.tmx|"; do
    IFS='|' read -r scene file level <<<"$run"
    name="map-${scene#*:}"
    report "$name" "frames=120&scene=$scene"
    steps=$(field "$out/$name.json" steps)
    native=$("$cli" run "$file" ${level:+--level "$level"} --balls 100 --steps "$steps")
    same "map $scene, 120 frames ($steps steps), world state hash vs collide run $file" \
        "$(field "$out/$name.json" world_hash)" "$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["state_hash"])' "$native")"
done
timeout 120 "${chrome[@]}" --window-size=960,720 --virtual-time-budget=20000 \
    --screenshot="$out/map.png" "$url?frames=120&scene=ldtk:Top" >"$out/map-screenshot.log" 2>&1
colours=$(convert "$out/map.png" -format %k info:)
mean=$(convert "$out/map.png" -colorspace Gray -format '%[fx:mean]' info:)
echo "map screenshot: $colours colours, mean grey $mean"
python3 -c 'import sys; c, m = int(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if c >= 8 and 0.01 < m < 0.9 else "the map screenshot looks blank")' "$colours" "$mean"

# The platformer on the LDtk sample's embedded levels, autopilot: the game and the world
# against the same session run natively (collide-web's `frames` example).
report platformer "frames=600&scene=platformer&autoplay=1"
cargo build --release -q -p collide-web --example frames
native=$("${CARGO_TARGET_DIR:-target}/release/examples/frames" platformer 600 autoplay)
for h in game_hash world_hash; do
    same "platformer autoplay 600 frames, $h vs the native session" \
        "$(field "$out/platformer.json" "$h")" "$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$native" "$h")"
done

# The platformer's scripted run to victory on the embedded levels, in the browser and natively.
report platformer-script "platformer_script=1"
native=$("${CARGO_TARGET_DIR:-target}/release/examples/frames" platformer_script)
same "platformer scripted run, game state hash vs the native run" \
    "$(field "$out/platformer-script.json" game_hash)" "$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["game_hash"])' "$native")"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["phase"] == "victory" and r["level"] == 3, r; print("ok   platformer scripted run in the browser: all four levels, phase", r["phase"], "score", r["score"])' "$out/platformer-script.json"

# The page's frame, pixel by pixel.
timeout 120 "${chrome[@]}" --window-size=960,720 --virtual-time-budget=20000 \
    --screenshot="$out/level_1.png" "$url?frames=30" >"$out/screenshot.log" 2>&1
COLLIDE_WEB_SCREENSHOT="$PWD/$out/level_1.png" cargo test --release -q -p collide-web --test screenshot

# The real-time run, driven by touch, mouse and keys.
(cd .ci/web && npm ci --no-audit --no-fund --loglevel=error)
timeout 180 node .ci/web/realtime.mjs "$url" "$out/realtime.png"
colours=$(convert "$out/realtime.png" -format %k info:)
mean=$(convert "$out/realtime.png" -colorspace Gray -format '%[fx:mean]' info:)
echo "real-time screenshot: $colours colours, mean grey $mean"
python3 -c 'import sys; c, m = int(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if c >= 16 and 0.02 < m < 0.9 else "the real-time screenshot looks blank")' "$colours" "$mean"

echo "web checks passed in $(($(date +%s) - t_start)) s"
