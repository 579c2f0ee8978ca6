// Cases of the Rust tests whose expected values are computed by hand (textbook kinematics) or
// independently (a scan of the distance function), run through the package: the same times
// of impact, points and positions, to 1e-12 where the Rust test asks 1e-12, and to its own
// tolerance (1e-9) where the value comes from a root of a quartic or a sum over bounces.
import { test } from "node:test";
import assert from "node:assert/strict";
import { World } from "collide";

/** Asserts |actual − expected| <= tol. */
function close(actual, expected, tol, what) {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected} (tolerance ${tol})`);
}

/** Steps `n` times; returns every event with its absolute time `t` (step start + toi). */
function run(world, n) {
  const out = [];
  for (let k = 0; k < n; k += 1) {
    const t0 = world.time;
    for (const e of world.step()) out.push({ ...e, t: t0 + (e.toi ?? 0) });
  }
  return out;
}

// crates/world/src/lib.rs, the crate's example.
test("a ball reaches the right wall at toi 0.05 of the second step and comes back to x = 90", () => {
  const w = new World(100, 100, 0.1);
  const id = w.addBall(80, 50, 100, 0, 5);
  const ev = run(w, 2);
  assert.equal(ev.length, 1);
  assert.equal(ev[0].kind, "ball_wall");
  close(ev[0].toi, 0.05, 1e-12, "toi");
  close(ev[0].point.x, 100, 1e-12, "point.x");
  assert.deepEqual(ev[0].normal, { x: -1, y: 0 });
  const b = w.ball(id);
  close(b.x, 90, 1e-12, "x");
  assert.deepEqual([b.vx, b.vy], [-100, 0]);
});

// tests/tests/world_api.rs: ball_is_lost_exactly_when_entirely_outside_an_open_side.
test("a ball leaving through an open bottom is lost when entirely outside: toi 0.2", () => {
  const w = new World(100, 100, 0.25);
  w.setWalls(true, true, true, false);
  const id = w.addBall(50, 90, 0, 60, 2);
  const lost = w.step().filter((e) => e.kind === "ball_lost");
  assert.equal(lost.length, 1);
  assert.equal(lost[0].ball, id);
  assert.equal(lost[0].side, "bottom");
  close(lost[0].toi, 0.2, 1e-12, "toi");
  assert.equal(w.ball(id), undefined);
});

// tests/tests/gravity.rs: an_elastic_ball_bounces_at_odd_multiples_of_the_fall_time.
test("an elastic ball dropped from h bounces at √(2h/g)·(1, 3, 5, ...) and is back at rest at the apexes", () => {
  const [g, h, r, floor] = [1000, 200, 5, 400];
  const t1 = Math.sqrt((2 * h) / g);
  const w = new World(100, floor, 1 / 64);
  w.setGravity(0, g);
  const y0 = floor - r - h;
  w.addBall(50, y0, 0, 0, r);
  const hits = run(w, Math.floor((10 * t1) / (1 / 64))).filter((e) => e.kind === "ball_wall");
  assert.equal(hits.length, 5);
  hits.forEach((e, k) => close(e.t, t1 * (2 * k + 1), 1e-9, `bounce ${k}`));

  const w2 = new World(100, floor, t1 / 8);
  w2.setGravity(0, g);
  const id = w2.addBall(50, y0, 0, 0, r);
  for (let k = 1; k <= 4; k += 1) {
    w2.run(16);
    close(w2.time, 2 * t1 * k, 1e-12, `time of apex ${k}`);
    const b = w2.ball(id);
    close(b.y, y0, 1e-9, `apex ${k} height`);
    assert.ok(Math.hypot(b.vx, b.vy) < 1e-9, `apex ${k} speed ${b.vx}, ${b.vy}`);
  }
});

// tests/tests/gravity.rs: two_falling_balls_collide_when_relative_motion_says.
test("two balls falling side by side meet at t = 1 at (510, 600)", () => {
  const w = new World(1000, 4000, 1 / 60);
  w.setGravity(0, 1000);
  w.addBall(450, 100, 50, 0, 10);
  w.addBall(550, 300, -30, -200, 10);
  const met = run(w, 90).find((e) => e.kind === "ball_ball");
  assert.ok(met, "they meet");
  close(met.t, 1, 1e-12, "time");
  close(met.point.x, 510, 1e-9, "point.x");
  close(met.point.y, 600, 1e-9, "point.y");
});

// tests/tests/gravity.rs: a_thrown_ball_hits_a_tile_corner_at_the_quartic_root.
test("a thrown ball meets a tile's top-left corner at the first root of |p(t) − c| = r", () => {
  const g = 1000;
  const w = new World(400, 400, 1 / 60);
  w.setGravity(0, g);
  const rows = Array.from({ length: 20 }, (_, k) => (k === 10 ? "          #         " : " ".repeat(20)));
  w.setGridRows(20, 0, 0, rows);
  const [px, py, vx, vy, r] = [97.6, 146.8, 200, -150, 4];
  w.addBall(px, py, vx, vy, r);
  const f = (t) => Math.hypot(px + vx * t - 200, py + vy * t + 0.5 * g * t * t - 200) - r;
  // The first sign change on a 1e-6 s grid, then bisection (independent of the library).
  let lo = 0;
  let hi = 0;
  for (let k = 1; k <= 2_000_000; k += 1) {
    const t = k * 1e-6;
    if (f(t) <= 0) {
      hi = t;
      break;
    }
    lo = t;
  }
  assert.ok(hi > 0, "the path reaches the corner");
  for (let k = 0; k < 100; k += 1) {
    const mid = 0.5 * (lo + hi);
    if (f(mid) <= 0) hi = mid;
    else lo = mid;
  }
  const hit = run(w, 120).find((e) => e.kind === "ball_tile");
  assert.ok(hit, "the ball hits the tile");
  close(hit.t, hi, 1e-9, "time of impact");
  assert.equal(hit.feature, "top_left");
  assert.deepEqual(hit.cell, { col: 10, row: 10 });
  const p = [px + vx * hit.t - 200, py + vy * hit.t + 0.5 * g * hit.t * hit.t - 200];
  close(hit.normal.x, p[0] / r, 1e-6, "normal.x");
  close(hit.normal.y, p[1] / r, 1e-6, "normal.y");
});

// crates/collide-core/tests/analytic.rs (face hits), through a world: a ball meets a tile's
// left face when its centre is r short of it.
test("a ball moving right meets a tile's left face at (50 − r − x0)/v and reflects", () => {
  const w = new World(100, 100, 1 / 60);
  const rows = Array.from({ length: 10 }, (_, k) => (k === 5 ? "     #    " : "          "));
  w.setGridRows(10, 0, 0, rows);
  const id = w.addBall(20, 55, 300, 0, 2);
  const ev = run(w, 6);
  assert.equal(ev.length, 1);
  const [e] = ev;
  assert.equal(e.kind, "ball_tile");
  assert.equal(e.feature, "left");
  assert.deepEqual(e.cell, { col: 5, row: 5 });
  close(e.t, 28 / 300, 1e-12, "time of impact");
  close(e.point.x, 50, 1e-12, "point.x");
  close(e.point.y, 55, 1e-12, "point.y");
  assert.deepEqual(e.normal, { x: -1, y: 0 });
  close(e.speed, 300, 1e-12, "speed");
  const b = w.ball(id);
  // At t = 0.1: back from x = 48 for 0.1 − 28/300 s at 300 units/s.
  close(b.x, 48 - 300 * (0.1 - 28 / 300), 1e-12, "x");
  assert.deepEqual([b.vx, b.vy], [-300, 0]);
});

// Textbook elastic collision (e = 1): equal masses meeting head-on exchange velocities.
test("two equal balls head-on meet at t = 0.9 and exchange velocities", () => {
  const w = new World(400, 100, 0.25);
  const a = w.addBall(100, 50, 50, 0, 5);
  const b = w.addBall(200, 50, -50, 0, 5);
  const hit = run(w, 4).find((e) => e.kind === "ball_ball");
  close(hit.t, 0.9, 1e-12, "time of impact");
  close(hit.point.x, 150, 1e-12, "point.x");
  close(Math.abs(hit.normal.x), 1, 0, "normal");
  close(hit.speed, 100, 1e-12, "speed");
  const [ba, bb] = [w.ball(a), w.ball(b)];
  close(ba.x, 145 - 50 * 0.1, 1e-12, "a.x at t = 1");
  close(bb.x, 155 + 50 * 0.1, 1e-12, "b.x at t = 1");
  assert.deepEqual([ba.vx, bb.vx], [-50, 50]);
});

// tests/it/polygon.rs, computed by hand: a ball of radius 5 at rest at (60, 20) falls under
// g = 1000 onto a square polygon whose top face is y = 100: its centre reaches y = 95 after
// a fall of 75, at t = √(2·75/1000) = 0.3873 s, at speed √(2·1000·75) = 387.3 units/s.
test("a ball falling on a polygon's face lands at the free-fall time", () => {
  const w = new World(200, 200, 1 / 60);
  w.setGravity(0, 1000);
  const poly = w.addPolygon(new Float64Array([40, 100, 80, 100, 80, 140, 40, 140]));
  w.addBall(60, 20, 0, 0, 5);
  const hit = run(w, 30).find((e) => e.kind === "ball_shape");
  assert.ok(hit, "the ball meets the polygon");
  assert.equal(hit.shape, poly);
  close(hit.t, Math.sqrt(0.15), 1e-9, "time of impact");
  close(hit.normal.y, -1, 1e-12, "normal");
  close(hit.speed, Math.sqrt(150000), 1e-6, "impact speed");
});
