#!/usr/bin/env bash
# CI step: the minifb frontend in a real X11 window under Xvfb.
#
# 1. Builds collide-minifb (release).
# 2. Runs it in a virtual X server (24-bit screen: at depth 16 minifb crashes) on level 1 for
#    30 frames; it saves the buffer its window shows as PNG and prints a marker line, then
#    keeps the window open a few seconds, during which the X server's own picture of the
#    window is grabbed (ImageMagick `import -window TITLE`).
# 3. Runs apps/minifb/tests/screenshot.rs on both files: level 1's brick and wall colours at
#    their cells, the paddle, the ball; and the X server's capture equal to the saved buffer.
# 4. Runs it on the pinball table for 30 frames and checks the bumpers, flippers and plunger
#    in its screenshot (apps/minifb/tests/screenshot.rs); then the platformer on LDtk's
#    sample (`--platformer`) for 30 frames, checking its player, chest and mobs.
# 5. Runs it again, the autopilot playing level 1 for 300 frames with --save-replay and
#    --record-audio, and checks the replay it wrote with `collide replay` (docs/replay-format.md):
#    every recorded state hash must come out the same when the command line re-simulates the
#    session; and the WAV file with crates/audio/tests/recorded.rs: 44.1 kHz mono 16-bit,
#    300 frames × 735 samples, not silent, not clipped. There is no sound card here: stderr
#    must hold at most the app's one line saying so (never alsa-lib's own messages).
# 6. Runs it once more without --frames, presses Esc (xdotool, a real key event) and requires
#    the process to be gone within 200 ms.
#
# Any failure fails the step: no display server, a window that cannot open, a missing
# marker, a missing file, wrong pixels. Nothing is skipped. Packages: .ci/apt-packages.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
# The tools of .ci/apt-packages, and wgpu pointed at Mesa's lavapipe.
source .ci/gui-env.sh

cargo build --release -p collide-minifb -p collide-cli
bin="${CARGO_TARGET_DIR:-target}/release/collide-minifb"
cli="${CARGO_TARGET_DIR:-target}/release/collide"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 "$XDG_RUNTIME_DIR"
shot="$work/level_1.png"
capture="$work/level_1.x11.png"
log="$work/stdout.txt"

# Inside the virtual X server: start the app, wait for its marker line, grab the window by its
# title while it lingers, then wait for the app's exit status.
timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    set -euo pipefail
    bin="$1"; shot="$2"; capture="$3"; log="$4"
    "$bin" --frames 30 --screenshot "$shot" --linger 6 >"$log" &
    app=$!
    for _ in $(seq 1 300); do
        grep -q "^collide: screenshot " "$log" && break
        kill -0 "$app" 2>/dev/null || break
        sleep 0.1
    done
    if ! grep -q "^collide: screenshot " "$log"; then
        echo "error: collide-minifb printed no screenshot marker" >&2
        wait "$app" || true
        exit 1
    fi
    import -window "collide - BricksBeater (minifb)" "png24:$capture"
    wait "$app"
' gui "$bin" "$shot" "$capture" "$log"

cat "$log"
test -s "$shot"
test -s "$capture"

COLLIDE_SCREENSHOT="$shot" COLLIDE_X11_CAPTURE="$capture" \
    cargo test --release -p collide-minifb --test screenshot -- --nocapture

# The pinball table in a real window: its bumpers, flippers and plunger where they belong.
pinball="$work/pinball.png"
timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$bin" --scene pinball --frames 30 --mute --screenshot "$pinball" >"$log"
cat "$log"
test -s "$pinball"
COLLIDE_PINBALL_SCREENSHOT="$pinball" \
    cargo test --release -p collide-minifb --test screenshot the_pinball_table -- --nocapture

# The platformer on LDtk's sample (../shared) in a real window: its player, chest and mobs.
platformer="$work/platformer.png"
timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$bin" --platformer --frames 30 --mute --screenshot "$platformer" >"$log"
cat "$log"
test -s "$platformer"
COLLIDE_PLATFORMER_SCREENSHOT="$platformer" \
    cargo test --release -p collide-minifb --test screenshot the_platformer -- --nocapture

# The session's replay and sound: written on exit, verified by the command line and the WAV
# checks.
replay="$work/session.replay"
wav="$work/session.wav"
err="$work/stderr.txt"
timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$bin" --autoplay --frames 300 --save-replay "$replay" --record-audio "$wav" >"$log" 2>"$err"
cat "$log"
cat "$err" >&2
grep -q "^collide: replay .* (300 steps)$" "$log" || {
    echo "error: collide-minifb printed no replay marker" >&2
    exit 1
}
"$cli" replay "$replay"
grep -q "^collide: audio $wav (220500 samples, 5.00 s, peak -" "$log" || {
    echo "error: collide-minifb printed no audio marker" >&2
    exit 1
}
if [ "$(grep -c . "$err")" -gt 1 ] || grep -v "^collide: no audio output device (.*); the game runs silently$" "$err" | grep -q .; then
    echo "error: collide-minifb's stderr holds more than the one line about the sound card" >&2
    exit 1
fi
COLLIDE_WAV="$wav" COLLIDE_WAV_SAMPLES=220500 \
    cargo test --release -p collide-audio --test recorded -- --nocapture

# Esc closes the window within 200 ms (a real key press, see the script).
bash .ci/esc-closes.sh "$bin" "^collide - BricksBeater \(minifb\)$" "$log" collide-minifb
