// Compiled (not run) by types.test.mjs: uses of the package that its .d.ts must accept under
// `strict`, with the event union narrowed by `kind`.
import init, { World, CollideEvent } from "collide";
async function main() {
  await init();
  const w = new World(100, 100, 0.1);
  const id: number = w.addBall(80, 50, 100, 0, 5);
  const evs: CollideEvent[] = w.step();
  for (const e of evs) {
    if (e.kind === "ball_wall") { const s: "left" | "top" | "right" | "bottom" = e.side; console.log(s, e.toi, e.point.x, e.normal.y, e.speed, e.ball); }
    if (e.kind === "brick_destroyed") console.log(e.brick, e.by.type, e.cell.col);
    if (e.kind === "sensor_enter" && e.sensor.type === "cell") console.log(e.sensor.col);
  }
  const b = w.ball(id); if (b) console.log(b.x + b.vy);
  const r = w.addRect(0, 0, 1, 1, "kinematic");
  const st = w.rect(r); if (st) { const k: "static" | "kinematic" | "dynamic" | "sensor" = st.kind; console.log(k); }
  const pos = new Float64Array(2); w.positions(pos);
  const bytes: Uint8Array = w.snapshot(); w.restore(bytes);
  const h: string = w.stateHash(); console.log(h, w.ballCount, w.time, w.stepCount);
  const fromToml: World = await World.fromToml("[world]\nsize = [64, 48]\n", { "levels/l.dat": "###" }, "box.toml");
  const noLevels: World = await World.fromToml("[world]\nsize = [64, 48]\n");
  console.log(fromToml.width, noLevels.height);
}
main();
