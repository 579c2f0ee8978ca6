// Bad input throws an Error naming the field and the value, never traps, and leaves the
// world unchanged (same state hash, same bodies); the world steps on afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { World } from "collide";

/** A small world with a grid, balls, a paddle, a segment and a flipper. */
function world() {
  const w = new World(200, 200, 1 / 60);
  w.setGridRows(20, 0, 0, ["##########", "#  RRRR  #", "#        #"]);
  const ball = w.addBall(100, 120, 90, -70, 4);
  w.addBall(50, 150, -30, 20, 3);
  const rect = w.addRect(80, 180, 120, 186, "kinematic");
  w.addSegment(10, 100, 40, 130);
  const flipper = w.addFlipper(150, 170, 30, 4, 0.4, -0.4, 20);
  const wall = w.addRect(0, 60, 5, 65);
  const removed = w.addBall(100, 60, 0, 0, 2);
  w.removeBall(removed);
  const gone = w.addFlipper(40, 170, 30, 4, 0.4, -0.4, 20);
  w.removeFlipper(gone);
  w.run(3);
  return { w, ball, rect, flipper, wall, removed, gone };
}

const cases = [
  ["a concave polygon", ({ w }) => w.addPolygon(new Float64Array([0, 0, 40, 0, 20, 10, 40, 40, 0, 40])), /shape field `points`.*convex/],
  ["a polygon of an odd count of numbers", ({ w }) => w.addPolygon(new Float64Array([0, 0, 40, 0, 20])), /shape field `points`/],
  ["a negative radius", ({ w }) => w.addBall(10, 10, 0, 0, -1), /ball field `radius`.*-1/],
  ["a NaN position", ({ w }) => w.addBall(NaN, 10, 0, 0, 1), /ball field `pos`.*NaN/],
  ["an infinite velocity", ({ w, ball }) => w.setBallVelocity(ball, Infinity, 0), /ball field `vel`/],
  ["a position beyond 1e9", ({ w, ball }) => w.setBallPosition(ball, 2e9, 0), /ball field `pos`/],
  ["a restitution above 10", ({ w, ball }) => w.setBallRestitution(ball, 11), /restitution.*11/],
  ["a NaN gravity scale", ({ w, ball }) => w.setBallGravityScale(ball, NaN), /gravity_scale/],
  ["a negative id", ({ w }) => w.setBallVelocity(-1, 0, 0), /ball id: -1 is not an id/],
  ["a fractional id", ({ w }) => w.removeRect(1.5), /rect id: 1.5 is not an id/],
  ["a removed ball", ({ w, removed }) => w.setBallVelocity(removed, 1, 1), /no such body/],
  ["an empty box", ({ w }) => w.addRect(10, 10, 5, 20), /rect field `min\/max`/],
  ["an unknown rect kind", ({ w }) => w.addRect(10, 10, 20, 20, "wobbly"), /rect field `kind`: `wobbly`/],
  ["a static rect given a velocity", ({ w, wall }) => w.setRectVelocity(wall, 1, 0), /rect/],
  ["a NaN box", ({ w, rect }) => w.setRectBox(rect, NaN, 0, 1, 1), /rect field/],
  ["a zero-radius bumper", ({ w }) => w.addCircle(50, 50, 0), /shape field `radius`/],
  ["a segment end at infinity", ({ w }) => w.addSegment(0, 0, Infinity, 1), /shape field `b`/],
  ["an odd polyline", ({ w }) => w.addPolyline([0, 0, 10], false), /shape field `points`: 3 numbers/],
  ["a one-point polyline", ({ w }) => w.addPolyline(new Float64Array([1, 1]), false), /shape field `points`/],
  ["a flipper of length 0", ({ w }) => w.addFlipper(10, 10, 0, 2, 0, 1, 10), /flipper field `length`/],
  ["a flipper's angular speed 0", ({ w }) => w.addFlipper(10, 10, 5, 2, 0, 1, 0), /flipper field `angular_speed`/],
  ["a removed flipper", ({ w, gone }) => w.setFlipperPressed(gone, true), /no such flipper/],
  ["a zero dt", ({ w }) => w.setDt(0), /step.dt/],
  ["a NaN gravity", ({ w }) => w.setGravity(0, NaN), /step.gravity/],
  ["a restitution of 2", ({ w }) => w.setRestitution(2), /step.restitution/],
  ["no events per body", ({ w }) => w.setMaxEventsPerBody(0), /max_events_per_body/],
  ["grid rows of different widths", ({ w }) => w.setGridRows(10, 0, 0, ["###", "#"]), /grid rows: .*row 2|line 2/],
  ["no grid rows", ({ w }) => w.setGridRows(10, 0, 0, []), /grid rows/],
  ["a negative cell size", ({ w }) => w.setGridRows(-5, 0, 0, ["#"]), /grid field `cell`.*-5/],
  ["cells not in whole rows", ({ w }) => w.setGridCells(10, 0, 0, 3, new Uint8Array(7)), /grid field `cells`: 7 cells/],
  ["a cell outside the grid", ({ w }) => w.setCell(10, 0, "#"), /grid cell \(10, 0\) is outside/],
  ["a cell of two characters", ({ w }) => w.setCell(1, 1, "##"), /`##` is not one character/],
  ["a grid restitution of -1", ({ w }) => w.setGridRestitution(-1, undefined), /wall_restitution/],
  ["a short positions array", ({ w }) => w.positions(new Float64Array(3)), /positions: the Float64Array holds 3 numbers, 4 needed/],
  ["bytes that are not a snapshot", ({ w }) => w.restore(new Uint8Array([4, 1, 2, 3])), /restore: not a collide snapshot/],
  ["a snapshot of another world", ({ w }) => w.restore(new World(50, 50).snapshot()), /the snapshot's `world.size` differs/],
];

for (const [what, call, message] of cases) {
  test(`${what} is refused and changes nothing`, () => {
    const s = world();
    const before = [s.w.stateHash(), s.w.ballCount, s.w.gridRows().join("\n")];
    const snap = s.w.snapshot();
    assert.throws(() => call(s), (e) => e instanceof Error && message.test(e.message), what);
    assert.deepEqual([s.w.stateHash(), s.w.ballCount, s.w.gridRows().join("\n")], before);
    assert.deepEqual(s.w.snapshot(), snap);
    // It steps on as a world that never saw the call.
    const twin = world();
    s.w.run(10);
    twin.w.run(10);
    assert.equal(s.w.stateHash(), twin.w.stateHash());
    assert.ok(s.w.ballCount >= 1);
  });
}

test("constructors refuse bad sizes, levels and seeds with the field and the line", () => {
  assert.throws(() => new World(0, 100), /world.size/);
  assert.throws(() => new World(100, 100, -1), /step.dt/);
  assert.throws(() => World.fromLevel("", 10), /level/);
  assert.throws(() => World.arena(10, 60, -1), /arena: seed -1/);
  assert.throws(() => World.arena(50000, 60, 1), /spawn: placed only/);
});

test("limits are refused before anything is allocated", () => {
  assert.throws(() => World.arena(4e9, 60, 1), /too many balls: 4000000000 exceeds the limit of 4194304/);
  assert.throws(() => World.arena(10, Infinity, 1), /spawn.speed/);
  assert.throws(() => World.fromLevel("#".repeat(70000), 1), /line 1: the row has 70000 cells/);
  assert.throws(() => new World(10, 10).setGridCells(1, 0, 0, 1, new Uint8Array(20_000_000)), /exceeds the limit/);
  assert.throws(() => new World(100, 100).addPolyline(new Float64Array(300_000), false), /too many shapes/);
});

test("a snapshot with any one byte flipped is refused or restored, never a trap", () => {
  const w = World.arena(100, 600, 1);
  w.run(20);
  const snap = w.snapshot();
  let refused = 0;
  for (let k = 0; k < snap.length; k += 3) {
    const bad = snap.slice();
    bad[k] ^= 0xff;
    try {
      w.restore(bad);
    } catch (e) {
      assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), e.message);
      refused += 1;
    }
  }
  assert.ok(refused > 0);
  w.restore(snap);
  w.run(20);
  const twin = World.arena(100, 600, 1);
  twin.run(40);
  assert.equal(w.stateHash(), twin.stateHash());
});
