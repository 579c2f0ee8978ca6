#!/usr/bin/env bash
# Usage: .ci/esc-closes.sh BIN TITLE_REGEX LOG NAME
# Starts BIN (without --frames) in a virtual X server; once its window (title matching
# TITLE_REGEX) shows, sends a real key press (XTEST) of Esc and fails unless the process is
# gone within 200 ms. Used by .ci/gui-minifb.sh and .ci/gui-pixels.sh.
set -euo pipefail
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    set -euo pipefail
    bin="$1"; title="$2"; log="$3"; name="$4"
    "$bin" >"$log" 2>&1 &
    app=$!
    wid=$(timeout 60 xdotool search --sync --name "$title" | head -1)
    xdotool windowfocus --sync "$wid"
    sleep 1
    t0=$(date +%s%N)
    xdotool key Escape
    while kill -0 "$app" 2>/dev/null; do
        if [ $(( $(date +%s%N) - t0 )) -gt 5000000000 ]; then
            echo "error: $name still runs 5 s after Esc" >&2
            kill "$app"
            exit 1
        fi
        sleep 0.002
    done
    t1=$(date +%s%N)
    wait "$app"
    ms=$(( (t1 - t0) / 1000000 ))
    echo "$name: Esc closed the window in $ms ms (xdotool included)"
    if [ "$ms" -gt 200 ]; then
        echo "error: Esc took $ms ms, more than 200" >&2
        exit 1
    fi
' esc "$@"
