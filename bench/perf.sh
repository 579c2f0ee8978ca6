#!/usr/bin/env bash
# Re-runs the measurements of docs/performance.md and rewrites their generated sections.
#
#   bench/perf.sh compare        collide vs rapier2d side by side + plot  (section collide-compare)
#   bench/perf.sh bench          the `collide bench` table                 (section collide-bench)
#   bench/perf.sh instructions   instructions per ball-step, callgrind     (section instructions)
#   bench/perf.sh cores          100 000 balls on one and on two cores     (section two-cores)
#   bench/perf.sh plinko         collide vs rapier2d, plinko board, gravity (section collide-compare-plinko)
#   bench/perf.sh characters     collide's character vs rapier2d's KinematicCharacterController
#                                (section collide-compare-characters)
#   bench/perf.sh all            the six, in that order
#
# Builds with cargo (unpinned), then runs the measurement pinned to one core with
# `taskset -c $PIN_CPU` when taskset exists. Environment:
#   CARGO_TARGET_DIR   where cargo builds (default: target)
#   PIN_CPU            the core to pin to (default: 1); `none` runs unpinned
#   COMPARE_ARGS       extra arguments of `collide-compare run` (e.g. "--steps 300")
#   PLINKO_ARGS        extra arguments of `collide-compare run --scene plinko` (default
#                      "--steps 1200")
#   BENCH_ARGS         extra arguments of `collide bench` (e.g. "--balls 1000,10000")
#   CHARACTERS_ARGS    extra arguments of `collide-compare characters` (e.g. "--speeds 10,100")
#   NOTE               a sentence added to the compare sections (what else ran on the machine)
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
DOC=docs/performance.md
PIN_CPU="${PIN_CPU:-1}"

pinned() {
    if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null 2>&1; then
        taskset -c "$PIN_CPU" "$@"
    else
        "$@"
    fi
}

pin_text() {
    if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null 2>&1; then
        echo "pinned to CPU $PIN_CPU with \`taskset\`"
    else
        echo "not pinned"
    fi
}

pin_prefix() {
    if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null 2>&1; then
        echo "taskset -c $PIN_CPU "
    fi
}

# splice NAME < body: replaces what lies between <!-- BEGIN NAME --> and <!-- END NAME --> in
# $DOC (appends the section when missing).
splice() {
    local name=$1
    local body
    body=$(cat)
    [ -f "$DOC" ] || printf '# Performance\n' >"$DOC"
    if grep -q "^<!-- BEGIN $name -->\$" "$DOC"; then
        BODY="$body" NAME="$name" awk '
            $0 == "<!-- BEGIN " ENVIRON["NAME"] " -->" { print; print ENVIRON["BODY"]; skip = 1; next }
            $0 == "<!-- END " ENVIRON["NAME"] " -->" { skip = 0 }
            !skip { print }
        ' "$DOC" >"$DOC.tmp"
        mv "$DOC.tmp" "$DOC"
    else
        printf '\n<!-- BEGIN %s -->\n%s\n<!-- END %s -->\n' "$name" "$body" "$name" >>"$DOC"
    fi
}

# The fingerprint of the step's source (the same as collide-compare's `Machine::source`).
fingerprint() {
    find crates/collide-core/src crates/world/src -name '*.rs' | LC_ALL=C sort | xargs cat \
        | sha256sum | cut -c1-12
}

facts() {
    local cpu commit
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
    if [ -n "$(git status --porcelain 2>/dev/null)" ]; then
        commit="$commit + uncommitted changes"
    fi
    echo "Measured with collide at commit $commit (source fingerprint \`$(fingerprint)\`), $(rustc --version | cut -d" " -f1-2), $(pin_text). Machine: ${cpu:-?} (\`lscpu\` model name), \`nproc\` = $(nproc --all). Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared with other engineers' builds and tests: single figures can be off by tens of per cent)."
}

cmd_compare() {
    cargo build --release -p collide-compare --features rapier,plot
    local extra=()
    if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null 2>&1; then
        extra+=(--pin "$PIN_CPU")
    fi
    if [ -n "${NOTE:-}" ]; then extra+=(--note "$NOTE"); fi
    # shellcheck disable=SC2086
    "$TARGET/release/collide-compare" run "${extra[@]}" --write "$DOC" --plot docs/performance.png \
        ${COMPARE_ARGS:-}
}

cmd_plinko() {
    cargo build --release -p collide-compare --features rapier
    local extra=()
    if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null 2>&1; then
        extra+=(--pin "$PIN_CPU")
    fi
    if [ -n "${NOTE:-}" ]; then extra+=(--note "$NOTE"); fi
    # shellcheck disable=SC2086
    "$TARGET/release/collide-compare" run --scene plinko "${extra[@]}" --write "$DOC" \
        ${PLINKO_ARGS:---steps 1200}
}

cmd_characters() {
    cargo build --release -p collide-compare --features rapier
    local extra=()
    if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null 2>&1; then
        extra+=(--pin "$PIN_CPU")
    fi
    if [ -n "${NOTE:-}" ]; then extra+=(--note "$NOTE"); fi
    # shellcheck disable=SC2086
    "$TARGET/release/collide-compare" characters "${extra[@]}" --write "$DOC" ${CHARACTERS_ARGS:-}
}

cmd_bench() {
    cargo build --release -p collide-cli
    local facts_line table
    facts_line=$(facts)
    # shellcheck disable=SC2086
    table=$(pinned "$TARGET/release/collide" bench --markdown ${BENCH_ARGS:-})
    splice collide-bench <<EOF
## \`collide bench\`: the step alone, ball-ball on and off

$facts_line

Command: \`bench/perf.sh bench\`, which runs (from the workspace root)

\`\`\`sh
cargo build --release -p collide-cli
$(pin_prefix)$TARGET/release/collide bench --markdown${BENCH_ARGS:+ $BENCH_ARGS}
\`\`\`

Defaults: N = 1000, 10 000, 100 000; 60 and 3000 units/s; ball-ball on and off; 600 steps
(60 for 100 000 balls); seed 1; one thread unless \`BENCH_ARGS\` says \`--threads N\`
(the results are bit-identical for every N: same \`state_hash\`). 100 000 balls of radius 2 do not fit in one arena, so that
row runs 5 × 2 arenas side by side (\`arena\` column; same ball density as 10 000 in one). With
ball-ball off the balls pass through each other, so overlapping pairs are expected there.
\`events/s\` counts every event returned by \`step()\` over the time spent in it; \`energy\` is
the relative change of the kinetic energy over the run. \`collide bench --json\` gives the
same rows with more fields (mean and minimum ms, setup time, iteration limits).

$table
EOF
    echo "wrote section collide-bench of $DOC"
}

# total_ir FILE: the instruction count of a callgrind output file.
total_ir() {
    sed -n 's/^summary: //p' "$1" | head -1
}

cmd_instructions() {
    cargo build --release -p collide-cli
    command -v valgrind >/dev/null 2>&1 || { echo "error: valgrind not found" >&2; exit 1; }
    local out rows="" n=10000 tmp
    tmp=$(mktemp -d)
    # speed warm-up measured
    for cfg in "60 20 40" "3000 5 10"; do
        read -r speed warm steps <<<"$cfg"
        local common=(bench --balls "$n" --speeds "$speed" --ball-ball on --warmup "$warm" --json)
        valgrind --tool=callgrind --callgrind-out-file="$tmp/a.out" \
            "$TARGET/release/collide" "${common[@]}" --steps 0 >/dev/null 2>"$tmp/a.err"
        valgrind --tool=callgrind --callgrind-out-file="$tmp/b.out" \
            "$TARGET/release/collide" "${common[@]}" --steps "$steps" >"$tmp/b.json" 2>"$tmp/b.err"
        local a b per events
        a=$(total_ir "$tmp/a.out")
        b=$(total_ir "$tmp/b.out")
        per=$(( (b - a) / (steps * n) ))
        events=$(sed -n 's/.*"events_per_step": \([0-9.e+-]*\).*/\1/p' "$tmp/b.json" | head -1)
        local per_event
        per_event=$(awk -v d="$((b - a))" -v k="$steps" -v e="${events:-0}" \
            'BEGIN { if (e > 0) printf "%.0f", d / k / e; else printf "?" }')
        rows+="| $n | $speed | on | $warm | $steps | $a | $b | $(( (b - a) / steps )) | **$per** | ${events:-?} | $per_event |"$'\n'
        echo "instructions: $n balls at $speed units/s: $per per ball-step"
    done
    rm -rf "$tmp"
    local cpu
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
    splice instructions <<EOF
## Instructions per ball-step (callgrind)

Measured with collide at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$( [ -n "$(git status --porcelain 2>/dev/null)" ] && echo ' + uncommitted changes') (source fingerprint \`$(fingerprint)\`), $(valgrind --version), ${cpu:-?}. \`perf stat -e instructions\` is not available on this
virtual machine (\`<not supported>\`), so the count comes from valgrind's callgrind, which counts
every instruction executed (exact and independent of the machine's load).

Method: two runs of the same build, set-up and warm-up, one stopping after the warm-up
(\`--steps 0\`) and one running K more steps; the difference is exactly K steps of the step
function (plus a negligible difference in the end-of-run checks), divided by K·N:

| N | speed (units/s) | ball-ball | warm-up steps | K | instructions, set-up + warm-up | instructions, + K steps | per step | per ball-step | events per step | per event |
|---|---|---|---|---|---|---|---|---|---|---|
$rows
Command: \`bench/perf.sh instructions\`, which runs for each row

\`\`\`sh
valgrind --tool=callgrind --callgrind-out-file=a.out $TARGET/release/collide bench --balls 10000 --speeds SPEED --ball-ball on --warmup W --json --steps 0
valgrind --tool=callgrind --callgrind-out-file=b.out $TARGET/release/collide bench --balls 10000 --speeds SPEED --ball-ball on --warmup W --json --steps K
# per ball-step = (summary of b.out - summary of a.out) / (K * 10000)
\`\`\`
EOF
    echo "wrote section instructions of $DOC"
}

# The 100 000-ball arena at 60 units/s with 1 and 2 threads, taking turns, three rounds,
# unpinned (two threads need both cores).
cmd_cores() {
    cargo build --release -p collide-cli
    local cpu rows="" round threads row load
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
    local args=(bench --balls 100000 --speeds 60 --ball-ball on --steps-large 300 --warmup 20 --markdown)
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    for round in 1 2 3; do
        for threads in 1 2; do
            row=$("$TARGET/release/collide" "${args[@]}" --threads "$threads" | tail -1)
            rows+=$(echo "$row" | awk -F'|' -v r="$round" -v t="$threads" '{
                gsub(/ /, "", $7); gsub(/ /, "", $8); gsub(/ /, "", $14)
                printf "| %s | %s | %s | %.0f | %s | %s |", r, t, $7, 1000 / $7, $8, $14 }')$'\n'
            echo "cores: round $round, $threads thread(s): $(echo "$row" | awk -F'|' '{print $7}') ms/step"
        done
    done
    splice two-cores <<EOF
## 100 000 balls on one and on two cores

Measured with collide at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$( [ -n "$(git status --porcelain 2>/dev/null)" ] && echo ' + uncommitted changes') (source fingerprint \`$(fingerprint)\`), $(rustc --version | cut -d" " -f1-2), not pinned (two threads need both cores). Machine: ${cpu:-?} (\`lscpu\` model name), \`nproc\` = $(nproc --all). Load average at the start: $load (the machine is shared: single figures can be off by tens of per cent).

The tiled arena (5 × 2 arenas, 100 000 balls of radius 2 at 60 units/s, ball–ball on), 20
untimed steps, then 300 timed steps; one thread is the serial event loop, two threads step the
world in spatial domains (docs/algorithms.md, "Spatial domains"). Taking turns, three rounds:

| round | threads | ms/step (median) | steps/s | ms/step (mean) | state_hash |
|---|---|---|---|---|---|
$rows
60 steps per second (at most 16.7 ms/step) is real time at 60 Hz. The same \`state_hash\` in
every row: two threads end in the serial loop's state, bit for bit.

Command: \`bench/perf.sh cores\`, which runs, for N = 1 and 2 in turn, three times:

\`\`\`sh
cargo build --release -p collide-cli
$TARGET/release/collide ${args[*]} --threads N
\`\`\`
EOF
    echo "wrote section two-cores of $DOC"
}

case "${1:-}" in
compare) cmd_compare ;;
bench) cmd_bench ;;
instructions) cmd_instructions ;;
cores) cmd_cores ;;
plinko) cmd_plinko ;;
characters) cmd_characters ;;
all)
    cmd_compare
    cmd_bench
    cmd_instructions
    cmd_cores
    cmd_plinko
    cmd_characters
    ;;
*)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
