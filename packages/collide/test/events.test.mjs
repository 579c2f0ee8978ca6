// Each kind of event reaches JavaScript with its own fields, on cases whose outcome is known:
// which bodies, cell, side and sensor, and a toi, point and normal that agree with the
// geometry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { World } from "collide";

/** The events of up to `n` steps, with the absolute time `t` of each. */
function run(w, n) {
  const out = [];
  for (let k = 0; k < n; k += 1) {
    const t0 = w.time;
    for (const e of w.step()) out.push({ ...e, t: t0 + (e.toi ?? 0) });
  }
  return out;
}

test("a brick hit by a ball: ball_tile on its bottom face, then brick_destroyed by that ball", () => {
  const w = new World(100, 100, 0.1);
  w.setGridRows(10, 0, 0, ["          ", "    R     "]);
  const ball = w.addBall(45, 60, 0, -100, 5);
  // The brick's bottom face is y = 20: the ball's top reaches it when y = 25, at t = 0.35.
  const ev = run(w, 5);
  const hit = ev.find((e) => e.kind === "ball_tile");
  const gone = ev.find((e) => e.kind === "brick_destroyed");
  assert.deepEqual([hit.ball, hit.cell, hit.feature], [ball, { col: 4, row: 1 }, "bottom"]);
  assert.ok(Math.abs(hit.t - 0.35) < 1e-12, `${hit.t}`);
  assert.deepEqual(hit.normal, { x: 0, y: 1 });
  assert.deepEqual([gone.cell, gone.brick, gone.by], [{ col: 4, row: 1 }, "R", { type: "ball", id: ball }]);
  assert.equal(w.cell(4, 1), " ");
  assert.equal(w.bricksLeft(), 0);
});

test("a ball on a paddle, a bumper and a segment: ball_rect, ball_shape with their ids", () => {
  const w = new World(200, 200, 0.05);
  const paddle = w.addRect(80, 150, 120, 156, "kinematic");
  const bumper = w.addCircle(100, 40, 10);
  const seg = w.addSegment(150, 0, 150, 200);
  const ball = w.addBall(100, 100, 0, 100, 4);
  const ev = run(w, 30);
  const onPaddle = ev.find((e) => e.kind === "ball_rect");
  assert.deepEqual([onPaddle.ball, onPaddle.rect, onPaddle.normal], [ball, paddle, { x: 0, y: -1 }]);
  // Down 46 units to the paddle's top (y = 150 − 4) at 100 units/s: t = 0.46.
  assert.ok(Math.abs(onPaddle.t - 0.46) < 1e-12, `${onPaddle.t}`);
  const onBumper = ev.find((e) => e.kind === "ball_shape");
  assert.equal(onBumper.shape, bumper);
  // Back up from y = 146 to the bumper's bottom (y = 50 + 4) at 100 units/s: 0.92 s later.
  assert.ok(Math.abs(onBumper.t - 1.38) < 1e-12, `${onBumper.t}`);
  assert.ok(Math.abs(onBumper.point.y - 50) < 1e-12);
  w.setBallVelocity(ball, 200, 0);
  const side = run(w, 10).find((e) => e.kind === "ball_shape");
  assert.equal(side.shape, seg);
  assert.deepEqual(side.normal, { x: -1, y: 0 });
});

test("a sensor circle reports a ball entering and leaving it, and moves nothing", () => {
  const w = new World(200, 100, 0.1);
  const sensor = w.addSensorCircle(100, 50, 10);
  const ball = w.addBall(50, 50, 100, 0, 5);
  const ev = run(w, 10);
  const enter = ev.find((e) => e.kind === "sensor_enter");
  const exit = ev.find((e) => e.kind === "sensor_exit");
  assert.deepEqual([enter.ball, enter.sensor], [ball, { type: "shape", id: sensor }]);
  // Touching at x = 85 (t = 0.35), leaving at x = 115 (t = 0.65).
  assert.ok(Math.abs(enter.t - 0.35) < 1e-12, `${enter.t}`);
  assert.ok(Math.abs(exit.t - 0.65) < 1e-12, `${exit.t}`);
  assert.equal(w.ball(ball).vx, 100);
});

test("a sensor cell, a held flipper, a ball placed inside a tile", () => {
  const w = new World(100, 100, 0.1);
  w.setGridRows(10, 0, 0, ["          ", "          ", "          ", "          ", "     a    ", "          ", "          ", "   #      "]);
  const ball = w.addBall(20, 45, 100, 0, 2);
  const enter = run(w, 5).find((e) => e.kind === "sensor_enter");
  assert.deepEqual(enter.sensor, { type: "cell", col: 5, row: 4 });
  assert.equal(enter.ball, ball);

  const stuck = w.addBall(35, 75, 0, 0, 2);
  const out = w.step().find((e) => e.kind === "unembedded");
  assert.deepEqual(out.body, { type: "ball", id: stuck });
  assert.deepEqual(out.from, { x: 35, y: 75 });

  const p = new World(200, 200, 1 / 120);
  const flipper = p.addFlipper(60, 150, 60, 5, 0.5, -0.5, 20);
  p.addBall(100, 100, 0, 0, 5);
  p.setGravity(0, 600);
  p.setFlipperPressed(flipper, true);
  const hit = run(p, 120).find((e) => e.kind === "ball_flipper");
  assert.ok(hit, "the ball meets the flipper");
  assert.equal(hit.flipper, flipper);
  assert.ok(Math.abs(p.flipperAngle(flipper) + 0.5) < 1e-12);
});

test("a dynamic box falling on a held flipper is a rect_flipper contact", () => {
  // A flipper pivoting at (50, 150), 100 long, radius 5, held horizontal (top face y = 145);
  // a 20 × 20 box with its bottom at y = 125 falls at 100 units/s: it lands at 0.2 s.
  const w = new World(200, 200, 1 / 100);
  const flipper = w.addFlipper(50, 150, 100, 5, 0, -0.5, 10);
  const box = w.addRect(90, 105, 110, 125, "dynamic", 0, 100);
  let t = 0;
  let hit;
  for (let k = 0; k < 40 && !hit; k += 1) {
    hit = w.step().find((e) => e.kind === "rect_flipper");
    if (!hit) t += 1 / 100;
  }
  assert.ok(hit, "the box meets the flipper");
  assert.deepEqual([hit.rect, hit.flipper], [box, flipper]);
  assert.ok(Math.abs(t + hit.toi - 0.2) < 1e-9, `${t + hit.toi}`);
  assert.ok(Math.abs(hit.normal.y + 1) < 1e-9 && Math.abs(hit.speed - 100) < 1e-9);
});

test("a dynamic box hits a wall and a lost box leaves through an open side", () => {
  const w = new World(100, 100, 0.1);
  const box = w.addRect(40, 40, 50, 50, "dynamic", 100, 0);
  const wall = run(w, 6).find((e) => e.kind === "rect_wall");
  assert.deepEqual([wall.rect, wall.side, wall.normal], [box, "right", { x: -1, y: 0 }]);
  // The middle of the face that touches the wall.
  assert.deepEqual(wall.point, { x: 100, y: 45 });
  assert.ok(Math.abs(wall.t - 0.5) < 1e-12, `${wall.t}`);
  w.setWalls(true, true, true, false);
  w.setRectVelocity(box, 0, 300);
  const lost = run(w, 5).find((e) => e.kind === "rect_lost");
  assert.deepEqual([lost.rect, lost.side], [box, "bottom"]);
  assert.equal(w.rect(box), undefined);
});
