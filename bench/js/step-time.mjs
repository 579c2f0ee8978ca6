// The mean time of the package's step on three arena configurations, the least of three
// rounds each, after a warm-up: how the build's opt-level changes the step (docs/js.md).
// With several `dist/` folders (copies of packages/collide/dist from builds with other
// settings), the builds take turns within each round, so that a loaded machine slows them
// alike.
//
//   scripts/build-js.sh && node bench/js/step-time.mjs
//   node bench/js/step-time.mjs /tmp/dist-a /tmp/dist-b ...
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dirs = process.argv.length > 2
  ? process.argv.slice(2).map((d) => resolve(d))
  : [new URL("../../packages/collide/dist", import.meta.url).pathname];
const builds = [];
for (const dir of dirs) {
  const m = await import(pathToFileURL(`${dir}/collide.js`).href);
  m.initSync({ module: readFileSync(`${dir}/collide_bg.wasm`) });
  const warm = m.World.arena(500, 600, 2);
  warm.run(100);
  warm.free();
  builds.push({ dir, World: m.World, best: new Map() });
}
const configs = [[1000, 60, 600], [1000, 3000, 100], [10000, 60, 100]];
for (let round = 0; round < 3; round += 1) {
  for (const [balls, speed, steps] of configs) {
    for (const b of builds) {
      const w = b.World.arena(balls, speed, 1);
      const t = performance.now();
      w.run(steps);
      const ms = (performance.now() - t) / steps;
      const key = `${balls} balls at ${speed} units/s`;
      b.best.set(key, Math.min(b.best.get(key) ?? Infinity, ms));
      w.free();
    }
  }
}
for (const b of builds) {
  if (builds.length > 1) console.log(b.dir);
  for (const [key, ms] of b.best) console.log(`${key}: ${ms.toFixed(3)} ms/step`);
}
