// Characters through the package: the cases of tests/it/character.rs whose values are
// computed by hand, to the same tolerances.
import { test } from "node:test";
import assert from "node:assert/strict";
import { World } from "collide";

/** A world of `w` × `h` with 20-unit cells from `rows` and gravity 1000 units/s² down. */
function level(w, h, rows) {
  const world = new World(w, h, 1 / 60);
  world.setGravity(0, 1000);
  world.setGridRows(20, 0, 0, rows);
  return world;
}

test("a character lands at the parabola's root and stands at distance 0", () => {
  const rows = Array.from({ length: 20 }, (_, r) => (r >= 15 ? "#".repeat(20) : " ".repeat(20)));
  const w = level(400, 400, rows);
  const id = w.addCharacter(100, 100, 8, 12);
  let landed;
  for (let k = 0; k < 60 && landed === undefined; k += 1) {
    const t0 = w.time;
    for (const e of w.step()) {
      if (e.kind === "character_hit") {
        assert.equal(e.character, id);
        assert.deepEqual(e.target.type, "cell");
        assert.deepEqual(e.normal, { x: 0, y: -1 });
        landed = t0 + e.toi;
      }
    }
  }
  assert.ok(Math.abs(landed - Math.sqrt(2 * 188 / 1000)) < 1e-9, `landed at ${landed}`);
  for (let k = 0; k < 60; k += 1) assert.deepEqual(w.step(), []);
  const c = w.character(id);
  assert.equal(c.y + c.halfHeight, 300);
  assert.equal(c.onGround, true);
  assert.deepEqual(c.ground, { nx: 0, ny: -1, vx: 0, vy: 0 });
});

test("a character walks into a wall and stops exactly at it; moveAndSlide reports the contact", () => {
  const rows = ["          ", "          ", "         #", "##########"];
  const w = level(200, 80, rows);
  const id = w.addCharacter(100, 48, 6, 12);
  const r = w.moveAndSlide(id, 200, 0);
  assert.equal(r.dx, 174 - 100);
  assert.equal(r.dy, 0);
  assert.equal(r.events.length, 1);
  assert.equal(r.events[0].kind, "character_hit");
  assert.ok(Math.abs(r.events[0].toi - 74 / 200) < 1e-12);
  assert.equal(w.character(id).x + 6, 180);
});

test("one-way platforms: through from below, onto it from above, dropped through", () => {
  const rows = Array.from({ length: 20 }, (_, r) => (r >= 18 ? "#".repeat(20) : " ".repeat(20)));
  const w = level(400, 400, rows);
  const plat = w.addRect(50, 250, 250, 256, "static");
  w.setRectOneWay(plat, true);
  const id = w.addCharacter(100, 348, 8, 12);
  w.setCharacterVelocity(id, 0, -800);
  let on = false;
  for (let k = 0; k < 120 && !on; k += 1) {
    w.step();
    const c = w.character(id);
    on = c.onGround && c.y + 12 === 250;
  }
  assert.ok(on, "landed on the platform from above");
  w.setCharacterDropThrough(id, true);
  for (let k = 0; k < 60; k += 1) w.step();
  assert.equal(w.character(id).y + 12, 360);
  assert.throws(() => w.setCharacterVelocity(id, NaN, 0), /character field `vel`/);
  assert.equal(w.removeCharacter(id), true);
  assert.equal(w.character(id), undefined);
});

test("a ball thrown up through a one-way platform lands on its top", () => {
  // g = 1000 down, radius 5 from y = 300 at 600 units/s up through a platform spanning
  // y 150..160: the top of the flight is y = 120; it rests on the top face at y = 145 once
  // its bounces fade (restitution 0.5).
  const w = new World(400, 400, 1 / 60);
  w.setGravity(0, 1000);
  const plat = w.addRect(50, 150, 150, 160, "static");
  w.setRectOneWay(plat, true);
  const ball = w.addBall(100, 300, 0, -600, 5);
  w.setRestitution(0.5);
  let highest = 300;
  for (let k = 0; k < 300; k += 1) {
    w.step();
    highest = Math.min(highest, w.ball(ball).y);
  }
  assert.ok(Math.abs(highest - 120) < 1, `the flight's top ${highest}`);
  assert.ok(Math.abs(w.ball(ball).y - 145) < 1e-6, `rests at ${w.ball(ball).y}`);
});

test("a character pushes a ball at twice its speed, and a ball bounces off a character", () => {
  // No gravity: a 16 × 24 character walking right at 120 units/s meets a ball of radius 8 at
  // rest at x = 200 after 84 units (0.7 s), stops against it and sends it off at 240.
  const w = new World(400, 200, 1 / 60);
  const id = w.addCharacter(100, 100, 8, 12);
  const ball = w.addBall(200, 100, 0, 0, 8);
  let met;
  for (let k = 0; k < 60 && met === undefined; k += 1) {
    w.setCharacterVelocity(id, 120, 0);
    const t0 = w.time;
    for (const e of w.step()) {
      if (e.kind === "character_hit" && e.target.type === "ball") met = t0 + e.toi;
    }
  }
  assert.ok(Math.abs(met - 0.7) < 1e-9, `met at ${met}`);
  assert.ok(Math.abs(w.ball(ball).vx - 240) < 1e-9);
  assert.ok(Math.abs(w.character(id).x - 184) < 1e-9);
  // A ball thrown back at the standing character bounces off it (elastic: the same speed).
  w.setCharacterVelocity(id, 0, 0);
  w.removeBall(ball);
  const back = w.addBall(300, 100, -300, 0, 4);
  let bounced;
  for (let k = 0; k < 60 && bounced === undefined; k += 1) {
    for (const e of w.step()) {
      if (e.kind === "ball_character" && e.ball === back) bounced = e;
    }
  }
  assert.equal(bounced.character, id);
  assert.deepEqual(bounced.normal, { x: 1, y: 0 });
  assert.ok(Math.abs(w.ball(back).vx - 300) < 1e-9);
  // Mass 0: they pass through each other; a negative mass is refused.
  const ghost = w.addCharacter(60, 40, 8, 12, undefined, undefined, undefined, 0);
  const through = w.addBall(120, 40, -300, 0, 4);
  let leftmost = Infinity;
  for (let k = 0; k < 30; k += 1) {
    for (const e of w.step()) assert.notEqual(e.kind === "ball_character" && e.character, ghost);
    leftmost = Math.min(leftmost, w.ball(through).x);
  }
  // Through the ghost's box (x 52..68) to the world's left wall.
  assert.ok(leftmost < 52 - 4, `${leftmost}`);
  assert.throws(() => w.addCharacter(60, 40, 8, 12, undefined, undefined, undefined, -1), /push/);
});
