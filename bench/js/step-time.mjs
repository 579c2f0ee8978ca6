// The mean time of the package's step on three arena configurations, the least of two runs
// each, after a warm-up: how the build's opt-level changes the step (docs/js.md).
//
//   COLLIDE_JS_OPT_LEVEL=z scripts/build-js.sh && node bench/js/step-time.mjs
//   scripts/build-js.sh && node bench/js/step-time.mjs
import { World } from "../../packages/collide/node.js";

const warm = World.arena(500, 600, 2);
warm.run(100);
warm.free();
for (const [balls, speed, steps] of [[1000, 60, 600], [1000, 3000, 100], [10000, 60, 100]]) {
  let best = Infinity;
  for (let round = 0; round < 2; round += 1) {
    const w = World.arena(balls, speed, 1);
    const t = performance.now();
    w.run(steps);
    best = Math.min(best, (performance.now() - t) / steps);
    w.free();
  }
  console.log(`${balls} balls at ${speed} units/s: ${best.toFixed(3)} ms/step`);
}
