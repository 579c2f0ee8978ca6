#!/usr/bin/env bash
# CI step: the pixels (wgpu) frontend in a real X11 window under Xvfb, on Mesa's software
# Vulkan driver (lavapipe), compared with the minifb frontend.
#
# 1. Builds collide-pixels and collide-minifb (release) and the tests of collide-pixels. After
#    `cargo test --workspace --release` this is only a check: wgpu is already built.
# 2. In a virtual X server (24-bit screen: at depth 16 the surface has no format):
#    - runs collide-pixels on level 1 for 30 frames with --screenshot: it saves the CPU buffer
#      it presented and what its window shows, read back from the GPU, then prints a marker
#      line and keeps the window open, during which the X server's picture of the window is
#      grabbed (ImageMagick `import -window TITLE`), the window is resized to 1280x800 (another
#      aspect; xdotool) and grabbed again;
#    - runs collide-pixels as on a 2x display (WINIT_X11_SCALE_FACTOR=2, a 480x360 buffer);
#    - runs collide-minifb on the same scene for the same 30 frames, same size;
#    - runs apps/pixels/tests/screenshot.rs on the files: level 1's brick and wall colours at
#      their cells, the paddle, the ball; read-back = buffer = X capture, pixel for pixel; the
#      resized window shows the buffer scaled with its aspect kept, black bars around it; the
#      2x window shows its buffer at exactly 2x;
#      minifb's frame = pixels' frame in the world area; and, with a display but no Vulkan
#      driver, a clear error and exit status 1, no panic;
#    - runs collide-pixels with the autopilot for 300 frames with --save-replay and
#      --record-audio, and checks the replay with `collide replay` (every recorded state hash
#      re-simulated); runs collide-minifb the same way with --record-audio; checks both WAV
#      files (crates/audio/tests/recorded.rs: 44.1 kHz mono 16-bit, 300 × 735 samples, not
#      silent, not clipped) and that they are the same file, byte for byte (one game, one
#      sound path).
# 3. Runs collide-pixels without --frames, presses Esc (xdotool, a real key event) and
#    requires the process to be gone within 200 ms.
#
# Any failure fails the step: no display server, a window or adapter that cannot be created,
# a missing marker, a missing file, wrong pixels. Nothing is skipped. Packages:
# .ci/apt-packages (xvfb, xauth, imagemagick, xdotool, the X11 client libraries,
# mesa-vulkan-drivers).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
# The tools of .ci/apt-packages, and wgpu pointed at Mesa's lavapipe.
source .ci/gui-env.sh

start=$SECONDS
cargo build --release -p collide-pixels -p collide-minifb -p collide-cli
cargo test --release -p collide-pixels -p collide-audio --no-run
echo "gui-pixels: build $((SECONDS - start)) s"
target="${CARGO_TARGET_DIR:-target}/release"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# Inside the virtual X server: the pixels app with its captures, the minifb app, the tests.
timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    set -euo pipefail
    target="$1"; work="$2"
    title="collide - BricksBeater (pixels)"
    log="$work/pixels.txt"
    COLLIDE_VERBOSE=1 "$target/collide-pixels" --frames 30 --screenshot "$work/pixels.png" \
        --linger 10 >"$log" &
    app=$!
    for _ in $(seq 1 600); do
        grep -q "^collide: screenshot " "$log" && break
        kill -0 "$app" 2>/dev/null || break
        sleep 0.1
    done
    if ! grep -q "^collide: screenshot " "$log"; then
        echo "error: collide-pixels printed no screenshot marker" >&2
        wait "$app" || true
        exit 1
    fi
    cat "$log"
    import -window "$title" "png24:$work/pixels.x11.png"
    # Another aspect: the buffer must be scaled by the GPU with black bars at the sides.
    xdotool search --name "^collide - BricksBeater \(pixels\)$" windowsize 1280 800
    for _ in $(seq 1 50); do
        geometry=$(xdotool search --name "^collide - BricksBeater \(pixels\)$" getwindowgeometry | grep Geometry || true)
        case "$geometry" in *1280x800*) break ;; esac
        sleep 0.1
    done
    sleep 1
    import -window "$title" "png24:$work/pixels.x11_scaled.png"
    wait "$app"

    # A 2x display (winit'"'"'s scale factor forced): a 480x360 buffer in a 960x720 window.
    WINIT_X11_SCALE_FACTOR=2 "$target/collide-pixels" --frames 30 --width 480 --height 360 \
        --screenshot "$work/hidpi.png"

    "$target/collide-minifb" --frames 30 --screenshot "$work/minifb.png"

    # The pinball table: its bumpers, flippers and plunger (apps/pixels/tests/screenshot.rs).
    "$target/collide-pixels" --scene pinball --frames 30 --screenshot "$work/pinball.png"

    # A session saved as a replay on exit, verified by the command line, and its sound.
    "$target/collide-pixels" --autoplay --frames 300 --width 320 --height 240 \
        --save-replay "$work/pixels.replay" --record-audio "$work/pixels.wav" | tee "$work/replay.txt"
    grep -q "^collide: replay .* (300 steps)$" "$work/replay.txt" || {
        echo "error: collide-pixels printed no replay marker" >&2
        exit 1
    }
    "$target/collide" replay "$work/pixels.replay"
    grep -q "^collide: audio .* (220500 samples, " "$work/replay.txt" || {
        echo "error: collide-pixels printed no audio marker" >&2
        exit 1
    }
    # The same session in the minifb window: the same sound, byte for byte.
    "$target/collide-minifb" --autoplay --frames 300 --record-audio "$work/minifb.wav"
    cmp "$work/pixels.wav" "$work/minifb.wav" || {
        echo "error: the two frontends recorded different sounds for the same session" >&2
        exit 1
    }
    COLLIDE_WAV="$work/pixels.wav:$work/minifb.wav" COLLIDE_WAV_SAMPLES=220500 \
        cargo test --release -p collide-audio --test recorded -- --nocapture

    export COLLIDE_GUI=1
    export COLLIDE_SCREENSHOT="$work/pixels.png"
    export COLLIDE_BUFFER="$work/pixels.buffer.png"
    export COLLIDE_X11_CAPTURE="$work/pixels.x11.png"
    export COLLIDE_X11_SCALED="$work/pixels.x11_scaled.png"
    export COLLIDE_MINIFB_SCREENSHOT="$work/minifb.png"
    export COLLIDE_HIDPI_SCREENSHOT="$work/hidpi.png"
    export COLLIDE_PINBALL_SCREENSHOT="$work/pinball.png"
    for f in "$COLLIDE_SCREENSHOT" "$COLLIDE_BUFFER" "$COLLIDE_X11_CAPTURE" \
        "$COLLIDE_X11_SCALED" "$COLLIDE_MINIFB_SCREENSHOT" "$COLLIDE_HIDPI_SCREENSHOT" \
        "$COLLIDE_PINBALL_SCREENSHOT"; do
        test -s "$f" || { echo "error: $f is missing" >&2; exit 1; }
    done
    cargo test --release -p collide-pixels -- --nocapture --test-threads 1
' gui "$target" "$work"

# Esc closes the window within 200 ms (a real key press, see the script).
bash .ci/esc-closes.sh "$target/collide-pixels" "^collide - BricksBeater \(pixels\)$" "$work/esc.txt" collide-pixels

echo "gui-pixels: done in $((SECONDS - start)) s"
