// collide's npm package against matter-js, planck and @dimforge/rapier2d-compat on the arena
// benchmark scene (docs/performance.md), in one node process on one thread, engines taking
// turns in blocks of 50 steps from the same start state; and the package against the native
// `collide bench` on the same scene (the cost of WebAssembly). Writes the tables into the
// section `collide-js` of docs/performance.md with --write.
//
//   scripts/build-js.sh && cargo build --release -p collide-cli
//   cd bench/js && npm ci && node bench.mjs --write
//
// Options: --write (rewrite the docs section), --budget S (seconds of stepping an engine may
// spend on one configuration before it stops early; default 15).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { ENGINES, SETTINGS, arenaStart, ready, skip } from "./engines.mjs";
import { World } from "../../packages/collide/node.js";
import { energy, overlappingPairs, tunneledAndEmbedded } from "./metrics.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const args = process.argv.slice(2);
const write = args.includes("--write");
const budgetAt = args.indexOf("--budget");
const budgetMs = 1000 * (budgetAt >= 0 ? Number(args[budgetAt + 1]) : 15);
const BLOCK = 50;
/** The engine every other is compared with; it always runs every planned step. */
const REFERENCE = "collide wasm";
/** [balls, speed (units/s), steps]. */
const CONFIGS = process.env.BENCH_QUICK ? [[300, 60, 100], [300, 3000, 100]] : [
  [1000, 60, 600],
  [10000, 60, 300],
  [10000, 3000, 60],
];

const version = (p) => JSON.parse(readFileSync(new URL(`./node_modules/${p}/package.json`, import.meta.url))).version;
const fmt = (x, d = 3) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toPrecision(d));
const pct = (x) => (Math.abs(x) < 1e-3 ? x.toExponential(1) : `${(100 * x).toFixed(1)} %`);

/** The speed an engine leaves a lone ball at after one step in an empty box, from 3000. */
function speedAfterOneStep(name) {
  const s = { n: 1, pos: new Float64Array([500, 500]), vel: new Float64Array([3000, 0]), radius: new Float64Array([2]), cells: [], cell: 25, size: 1000, balls: 1, speed: 3000, seed: 1 };
  if (name === "collide wasm") {
    const w = new World(1000, 1000, 1 / 60);
    w.addBall(500, 500, 3000, 0, 2);
    w.run(1);
    const v = new Float64Array(2);
    w.velocities(v);
    w.free();
    return Math.hypot(v[0], v[1]);
  }
  const e = ENGINES[name](s);
  e.step();
  const { vel } = e.read();
  e.free();
  return Math.hypot(vel[0], vel[1]);
}

/** Runs one configuration: every engine from the same start, taking turns. */
function runConfig([balls, speed, steps]) {
  const start = arenaStart(balls, speed, 1);
  const e0 = energy(start.vel, start.radius);
  const skipped = Object.keys(ENGINES)
    .filter((name) => skip(name, balls, speed))
    .map((name) => ({ balls, speed, steps, name, skipped: skip(name, balls, speed) }));
  const runs = Object.entries(ENGINES).filter(([name]) => !skip(name, balls, speed)).map(([name, make]) => {
    const t = performance.now();
    const engine = make(start);
    return { name, engine, setupMs: performance.now() - t, steps: 0, ms: 0, stopped: false };
  });
  while (runs.some((r) => !r.stopped)) {
    for (const r of runs.filter((x) => !x.stopped)) {
      const n = Math.min(BLOCK, steps - r.steps);
      const t = performance.now();
      let k = 0;
      // Within the block too, an engine stops once its time is spent (a slow one's block of
      // 50 steps may take minutes).
      while (k < n && (r.name === REFERENCE || r.ms + (performance.now() - t) < budgetMs)) {
        r.engine.step();
        k += 1;
      }
      r.ms += performance.now() - t;
      r.steps += k;
      r.stopped = r.steps >= steps || (r.name !== REFERENCE && r.ms >= budgetMs);
      process.stderr.write(`  ${balls} balls ${speed} units/s ${r.name}: ${r.steps} steps, ${(r.ms / r.steps).toFixed(3)} ms/step\r`);
    }
  }
  process.stderr.write("\n");
  return [...runs.map((r) => {
    const { pos, vel } = r.engine.read();
    const out = {
      balls,
      speed,
      steps,
      name: r.name,
      ran: r.steps,
      msPerStep: r.ms / r.steps,
      energy: (energy(vel, start.radius) - e0) / e0,
      overlaps: overlappingPairs(pos, start.radius),
      ...tunneledAndEmbedded(pos, start.radius, start),
      hash: r.name === "collide wasm" ? r.engine.world.stateHash() : undefined,
    };
    r.engine.free();
    return out;
  }), ...skipped];
}

/** The native `collide bench`'s mean ms per step and state hash for a configuration. */
function native(balls, speed, steps) {
  const bin = process.env.COLLIDE_BIN ?? `${root}target/release/collide`;
  const a = ["bench", "--balls", String(balls), "--speeds", String(speed), "--ball-ball", "on", "--steps", String(steps), "--json"];
  const [row] = JSON.parse(execFileSync(bin, a, { encoding: "utf8" }));
  return { ms: row.ms_per_step_mean, hash: row.state_hash };
}

/** The package's mean ms per step and state hash for the same configuration. */
function wasm(balls, speed, steps) {
  const w = World.arena(balls, speed, 1);
  const t = performance.now();
  w.run(steps);
  const ms = (performance.now() - t) / steps;
  const hash = w.stateHash();
  w.free();
  return { ms, hash };
}

/** Native and wasm taking turns, ROUNDS times each; the least mean of each side (the run the
 * machine's other load disturbed least). */
const ROUNDS = 3;
const WASM_NATIVE = [
  [1000, 60, 600],
  [10000, 60, 300],
  [10000, 3000, 30],
];
function wasmVsNative([balls, speed, steps]) {
  let [n, w] = [{ ms: Infinity }, { ms: Infinity }];
  for (let k = 0; k < ROUNDS; k += 1) {
    const a = native(balls, speed, steps);
    const b = wasm(balls, speed, steps);
    if (a.ms < n.ms) n = a;
    if (b.ms < w.ms) w = b;
    process.stderr.write(`  wasm/native ${balls} balls ${speed} units/s round ${k + 1}: ${b.ms.toFixed(3)} / ${a.ms.toFixed(3)} ms/step\n`);
  }
  return { balls, speed, steps, wasm: w.ms, native: n.ms, same: w.hash === n.hash };
}

/** Runs every engine on a small arena first, so that node has compiled (and tiered up) the
 * code of all of them before anything is timed. */
function warmUp() {
  const s = arenaStart(500, 600, 2);
  for (const make of Object.values(ENGINES)) {
    const e = make(s);
    for (let k = 0; k < 100; k += 1) e.step();
    e.free();
  }
}

await ready();
warmUp();
const load0 = loadavg().map((x) => x.toFixed(2)).join(" ");
const caps = Object.fromEntries(Object.keys(ENGINES).map((n) => [n, speedAfterOneStep(n)]));
console.log("speed of a lone ball after one step from 3000 units/s:", caps);
const rows = [];
const wasmNative = [];
for (const c of CONFIGS) {
  const r = runConfig(c);
  rows.push(...r);
  for (const x of r) console.log(JSON.stringify(x));
}
for (const c of process.env.BENCH_QUICK ? [[300, 60, 100]] : WASM_NATIVE) wasmNative.push(wasmVsNative(c));
const load1 = loadavg().map((x) => x.toFixed(2)).join(" ");

const collideMs = (b, s) => rows.find((x) => x.balls === b && x.speed === s && x.name === "collide wasm").msPerStep;
const lines = [];
lines.push("## collide's npm package against the JavaScript engines, same process, same scene", "");
lines.push(
  `Measured by \`bench/js/bench.mjs\` in node ${process.version} (one thread), the package \`collide\` built by \`scripts/build-js.sh\` from this repository, matter-js ${version("matter-js")}, planck ${version("planck")}, @dimforge/rapier2d-compat ${version("@dimforge/rapier2d-compat")} (the versions of bench/js/package-lock.json). Machine: ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores; load average (1, 5, 15 min) ${load0} at the start and ${load1} at the end: **the machine is shared with other engineers' builds and tests**, so single figures can be off by tens of per cent; the ratios of the same run are the robust part.`,
  "",
  "Command (from the workspace root):",
  "",
  "```sh",
  "scripts/build-js.sh && cargo build --release -p collide-cli",
  "cd bench/js && npm ci && node bench.mjs --write",
  "```",
  "",
  "| N balls | speed (units/s) | engine | steps run | ms/step | engine / collide | energy change | overlapping pairs | tunneled | embedded |",
  "|---|---|---|---|---|---|---|---|---|---|",
);
for (const x of rows) {
  if (x.skipped) {
    lines.push(`| ${x.balls} | ${x.speed} | ${x.name} | 0 of ${x.steps} | – | – | – | – | – | – |`);
    continue;
  }
  const ratio = x.msPerStep / collideMs(x.balls, x.speed);
  const ran = x.ran < x.steps ? `${x.ran} of ${x.steps}` : `${x.ran}`;
  const name = x.name === "collide wasm" ? "**collide** (wasm)" : x.name;
  lines.push(`| ${x.balls} | ${x.speed} | ${name} | ${ran} | ${fmt(x.msPerStep)} | ${x.name === "collide wasm" ? "1" : `**${ratio.toFixed(1)}x**`} | ${x.name === "collide wasm" ? x.energy.toExponential(1) : pct(x.energy)} | ${x.overlaps} | ${x.tunneled} | ${x.embedded} |`);
}
lines.push(
  "",
  `The cost of WebAssembly: the package (\`World.arena\`, \`run(steps)\` timed whole) against the native \`collide bench --json\` (\`ms_per_step_mean\`) on the same scene and step count, taking turns ${ROUNDS} times; the least mean of each (the run the machine's other load disturbed least), and the state hashes at the end compared:`,
  "",
  "| N balls | speed (units/s) | steps | native ms/step | wasm ms/step | wasm / native | same state hash |",
  "|---|---|---|---|---|---|---|",
);
for (const w of wasmNative) {
  lines.push(`| ${w.balls} | ${w.speed} | ${w.steps} | ${fmt(w.native)} | ${fmt(w.wasm)} | **${(w.wasm / w.native).toFixed(2)}x** | ${w.same ? "yes" : "**no**"} |`);
}
lines.push(
  "",
  "How to read it:",
  "",
  `- Scene: the arena benchmark scene (\`arena_scene(N, speed, 1)\`, above). Every engine starts from the package's start state (\`World.arena\`: centres, velocities, radii read with \`positions\`, \`velocities\`, \`radii\`; the solid cells from \`gridRows\`), dt = 1/60 s. The engines take turns, ${BLOCK} steps each, in one node process; each engine's step calls are timed together (mean ms per step), after every engine has run 100 steps of a 500-ball arena (so that node has compiled and tiered up their code). An engine other than collide stops early once it has spent ${budgetMs / 1000} s stepping one configuration ("steps run" then says how many of the planned steps it ran; its end-of-run figures are after those steps).`,
  `- Speed caps: a lone ball at 3000 units/s in an empty box has, after one step, the speed ${Object.entries(caps).map(([n, v]) => `${v.toFixed(1)} (${n})`).join(", ")}: no engine clamps the scene's speeds.`,
  ...Object.entries(SETTINGS).map(([n, s]) => `- ${n}: ${s}.`),
  ...rows.filter((x) => x.skipped).map((x) => `- ${x.name}, ${x.balls} balls at ${x.speed} units/s: ${x.skipped}.`),
  "- Energy change: `(E_end − E_start) / E_start` of `Σ ½ m |v|²` (m = π r²). Overlapping pairs: centres closer than `r1 + r2 − 1e-6` at the end. Tunneled: centre inside a solid cell or outside the box at the end. Embedded: centre closer than `r − 1e-6` to a solid cell at the end. An engine that lets balls through the walls does less work than one that keeps them: compare ms/step only where both keep their balls.",
);
const body = lines.join("\n") + "\n";
console.log(body);

if (write) {
  const file = `${root}docs/performance.md`;
  const text = readFileSync(file, "utf8");
  const [b, e] = ["<!-- BEGIN collide-js -->", "<!-- END collide-js -->"];
  const i = text.indexOf(b);
  const j = text.indexOf(e);
  const next = i >= 0 && j > i ? `${text.slice(0, i + b.length)}\n${body}${text.slice(j)}` : `${text.trimEnd()}\n\n${b}\n${body}${e}\n`;
  writeFileSync(file, next);
  console.log(`wrote the section collide-js of ${file}`);
}
