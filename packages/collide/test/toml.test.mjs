// TOML scenes: `await World.fromToml(text)` loads the package's TOML module (dist/toml/) on
// its first call and builds the world from the scene bytes it returns (`World.fromScene`).
// Bad TOML rejects with an Error naming the file, line and field, never a trap; bad scene
// bytes throw. (The state hashes of the shipped scenes against native: native.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { World } from "collide";

const root = new URL("../../../", import.meta.url);
const scene = (name) => readFileSync(new URL(`scenes/${name}`, root), "utf8");

/** The TOML module itself, as World.fromToml loads it (instantiated from its file). */
async function tomlModule() {
  const toml = await import("../dist/toml/collide_toml.js");
  toml.initSync({ module: readFileSync(new URL("../dist/toml/collide_toml_bg.wasm", import.meta.url)) });
  return toml;
}

/** Asserts that `promise` rejects with an Error (not a wasm trap) whose message matches `re`. */
async function rejectsWith(promise, re) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), String(e));
    assert.match(e.message, re);
    return true;
  });
}

test("bad TOML rejects with an Error naming the file, the line and the field", async () => {
  await rejectsWith(World.fromToml("[world]\nsize = [64, -48]\n"), /^scene.toml:2: `world.size`.*-48/);
  await rejectsWith(World.fromToml("[world]\nsize = [64, 48]\nwobble = 1\n", {}, "box.toml"), /^box.toml:3.*wobble/);
  await rejectsWith(World.fromToml("[world]\nsize = [64, 48]\n\n[[ball]\npos = [1, 2]\n", {}, "b.toml"), /^b.toml:4/);
  await rejectsWith(World.fromToml("[world]\nsize = [64, 48]\n[[ball]]\npos = [1, 2]\nradius = -3\n"), /^scene.toml:5: `ball\[0\].radius`/);
  await rejectsWith(
    World.fromToml('[world]\nsize = [64, 48]\n[grid]\ncell = 8.0\nlevel = "l.dat"\n', {}),
    /^scene.toml:5: `grid.level`: cannot read the level file `l.dat`/,
  );
  for (const levels of [undefined, null, "l.dat", { "l.dat": 42 }]) {
    await rejectsWith(
      World.fromToml('[world]\nsize = [64, 48]\n[grid]\ncell = 8.0\nlevel = "l.dat"\n', levels),
      /^scene.toml:5: `grid.level`: cannot read the level file `l.dat`/,
    );
  }
  const level = await World.fromToml('[world]\nsize = [64, 48]\n[grid]\ncell = 8.0\nlevel = "l.dat"\n', {
    "l.dat": "########\n#RRRRRR#\n",
  });
  assert.equal(level.bricksLeft(), 6);
});

test("a rejected fromToml changes nothing: a world steps on as its twin, the next scene loads", async () => {
  const w = await World.fromToml(scene("bounce.toml"));
  const twin = await World.fromToml(scene("bounce.toml"));
  w.run(10);
  twin.run(10);
  const before = w.stateHash();
  await rejectsWith(World.fromToml("[world\n"), /^scene.toml:1/);
  assert.equal(w.stateHash(), before);
  w.run(50);
  twin.run(50);
  assert.equal(w.stateHash(), twin.stateHash());
  const after = await World.fromToml(scene("plinko.toml"), {}, "plinko.toml");
  assert.ok(after.ballCount > 0);
});

test("calls made together share one load of the TOML module", async () => {
  const texts = ["bounce.toml", "pinball.toml", "ramps.toml"].map(scene);
  const worlds = await Promise.all(texts.map((t) => World.fromToml(t)));
  const again = await Promise.all(texts.map((t) => World.fromToml(t)));
  for (let i = 0; i < worlds.length; i++) {
    worlds[i].run(30);
    again[i].run(30);
    assert.equal(worlds[i].stateHash(), again[i].stateHash());
  }
});

test("fromScene builds from the TOML module's bytes the world fromToml builds", async () => {
  const toml = await tomlModule();
  for (const name of ["pinball.toml", "seed003_rects.toml", "plinko.toml"]) {
    const bytes = toml.sceneBytes(scene(name), {}, name);
    assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
    const a = World.fromScene(bytes);
    const b = World.fromScene(bytes); // the bytes are not used up
    const c = await World.fromToml(scene(name), {}, name);
    for (const w of [a, b, c]) w.run(120);
    assert.equal(a.stateHash(), c.stateHash(), name);
    assert.equal(b.stateHash(), c.stateHash(), name);
  }
});

test("bad scene bytes throw an Error, never a trap", async () => {
  const toml = await tomlModule();
  assert.throws(() => World.fromScene(new Uint8Array(0)), /scene bytes: not an encoded collide scene/);
  const bytes = toml.sceneBytes(scene("pinball.toml"), {}, "pinball.toml");
  const other = bytes.slice();
  other[0] = 7;
  assert.throws(() => World.fromScene(other), /scene bytes: format version 7, this build reads version 2/);
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  assert.throws(() => World.fromScene(longer), /1 bytes after the scene/);
  let refused = 0;
  for (let k = 0; k < bytes.length; k += 1) {
    const bad = bytes.slice();
    bad[k] ^= 0xa5;
    try {
      World.fromScene(bad).free();
    } catch (e) {
      assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), String(e));
      refused += 1;
    }
  }
  assert.ok(refused > 0);
});
