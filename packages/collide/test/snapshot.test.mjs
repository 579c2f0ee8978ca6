// Snapshots as Uint8Array: restoring one and stepping on is bit-identical to stepping on
// without it, and the bytes of a restored world are the bytes it was restored from.
import { test } from "node:test";
import assert from "node:assert/strict";
import { World } from "collide";

/** Every ball's centre and velocity, in storage order. */
function state(w) {
  const p = new Float64Array(2 * w.ballCount);
  const v = new Float64Array(2 * w.ballCount);
  w.positions(p);
  w.velocities(v);
  return [...p, ...v];
}

test("the arena restored from a snapshot steps on to the same bits", () => {
  const w = World.arena(1000, 3000, 1);
  w.run(30);
  const snap = w.snapshot();
  assert.ok(snap instanceof Uint8Array && snap.length > 1000 * 40, `${snap.length} bytes`);
  w.run(60);
  const [hash, after] = [w.stateHash(), state(w)];

  w.restore(snap);
  assert.deepEqual(w.snapshot(), snap, "the restored world's bytes are the snapshot's");
  assert.equal(w.stepCount, 30);
  w.run(60);
  assert.equal(w.stateHash(), hash);
  assert.deepEqual(state(w), after);

  // Into another world of the same shape.
  const other = World.arena(10, 60, 7);
  other.restore(snap);
  other.run(60);
  assert.equal(other.stateHash(), hash);
});

test("a snapshot keeps removed ids, gravity, flippers and shapes' worlds", () => {
  const w = new World(200, 300, 1 / 120);
  w.setGravity(0, 600);
  w.addSegment(0, 250, 200, 280, 0.5);
  const f = w.addFlipper(60, 200, 50, 6, 0.5, -0.5, 30);
  const ids = [];
  for (let k = 0; k < 20; k += 1) ids.push(w.addBall(10 + 9 * k, 20 + 3 * k, 40 - 4 * k, 0, 3));
  w.removeBall(ids[3]);
  w.run(50);
  const snap = w.snapshot();
  w.setFlipperPressed(f, true);
  w.run(100);
  const hash = w.stateHash();
  w.restore(snap);
  w.setFlipperPressed(f, true);
  w.run(100);
  assert.equal(w.stateHash(), hash);
  assert.equal(w.ball(ids[3]), undefined, "a removed id stays removed");
});
