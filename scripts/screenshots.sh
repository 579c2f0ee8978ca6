#!/usr/bin/env bash
# Regenerates every picture of the README and of docs/frontends.md and
# docs/frontend-pixels.md: docs/screenshots/*.png, taken from the real windows of
# collide-minifb and collide-pixels in a virtual X server (Xvfb, as .ci/gui-*.sh run them),
# and docs/level_1.png, drawn by `collide render`.
#
#   scripts/screenshots.sh
#
# Needs the packages of .ci/apt-packages (Xvfb, xauth, ImageMagick, xdotool, the X11 client
# libraries, Mesa's software Vulkan driver). Every run is a --frames run (a fixed 1/60 s of
# game per frame), so the same build draws the same pictures, except the measured frame and
# step rates in the status bar. About a minute once the apps are built.
set -euo pipefail
cd "$(dirname "$0")/.."

# The tools of .ci/apt-packages, and wgpu pointed at Mesa's lavapipe.
source .ci/gui-env.sh

cargo build --release -p collide-minifb -p collide-pixels -p collide-cli
target="${CARGO_TARGET_DIR:-target}/release"
out=docs/screenshots
mkdir -p "$out"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# One program in its own virtual X server, at most 5 minutes.
x() {
    timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" "$@"
}

# The minifb window: FILE, then the app's flags (the window is 960 x 720).
minifb() {
    local file="$1"
    shift
    x "$target/collide-minifb" "$@" --screenshot "$out/$file" | grep "^collide: screenshot"
}

minifb game_level_1.png --autoplay --frames 200
minifb game_serve.png --frames 30
minifb seed000_room.png --scene seed000_room --frames 90
minifb seed002_billiards.png --scene seed002_billiards --frames 150
minifb seed003_rects.png --scene seed003_rects --frames 120
minifb arena.png --scene arena --frames 120
minifb plinko.png --scene plinko --frames 150
minifb bounce.png --scene bounce --frames 120
minifb ramps.png --scene ramps --frames 150
minifb pinball.png --scene pinball --autoplay --frames 460
minifb debug_view.png --scene seed002_billiards --debug --frames 40
minifb debug_level_1.png --autoplay --debug --frames 100
minifb sandbox_1000.png --scene level_1 --sandbox --frames 60

# The pixels window: FILE.png is what the window shows (read back from the GPU); the buffer
# it also saves (FILE.buffer.png) is not kept.
pixels() {
    local file="$1"
    shift
    x "$target/collide-pixels" "$@" --screenshot "$work/$file" | grep "^collide: screenshot"
    cp "$work/$file" "$out/$file"
}

pixels pixels_game_level_1.png --autoplay --frames 200
WINIT_X11_SCALE_FACTOR=2 pixels pixels_scale_factor_2.png --width 480 --height 360 \
    --autoplay --frames 200

# The pixels window resized after its last frame: the X server's picture of the window at
# each size (ImageMagick `import`), while the app lingers.
x bash -c '
    set -euo pipefail
    bin="$1"; work="$2"; out="$3"
    title="collide - BricksBeater (pixels)"
    search="^collide - BricksBeater \(pixels\)$"
    "$bin" --autoplay --frames 200 --screenshot "$work/resized.png" --linger 20 >"$work/log" &
    app=$!
    for _ in $(seq 1 600); do
        grep -q "^collide: screenshot " "$work/log" && break
        kill -0 "$app" 2>/dev/null || break
        sleep 0.1
    done
    grep -q "^collide: screenshot " "$work/log" || {
        echo "error: collide-pixels printed no screenshot marker" >&2
        exit 1
    }
    for size in "1280 800" "500 300"; do
        set -- $size
        xdotool search --name "$search" windowsize "$1" "$2"
        for _ in $(seq 1 50); do
            xdotool search --name "$search" getwindowgeometry | grep -q "Geometry: $1x$2" && break
            sleep 0.1
        done
        sleep 1
        import -window "$title" "png24:$out/pixels_resized_$1x$2.png"
        echo "collide: X capture $out/pixels_resized_$1x$2.png"
    done
    kill "$app"
    wait "$app" || true
' resize "$target/collide-pixels" "$work" "$out"

# The README's picture: level 1 with 300 balls after 20 steps, drawn by the command line.
"$target/collide" render scenes/levels/level_1.dat --balls 300 --steps 20 \
    --out docs/level_1.png --width 918

echo "screenshots: done"
