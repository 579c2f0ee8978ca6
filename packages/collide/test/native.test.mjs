// State hashes equal to native: each scene of the table runs in the package (WebAssembly) and
// in the native `collide run` CLI of the same source, and both print the same `state_hash`.
// The native hashes are computed here, by running the CLI: build it first
// (`cargo build --release -p collide-cli`), or point COLLIDE_BIN at it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { World } from "collide";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = process.env.COLLIDE_BIN ?? `${root}target/release/collide`;
const steps = 300;

/** The native CLI's state hash after `steps` steps of `args` (a scene and options). */
function native(...args) {
  assert.ok(existsSync(bin), `the native CLI ${bin} is missing: cargo build --release -p collide-cli`);
  const out = execFileSync(bin, ["run", ...args, "--steps", String(steps)], { cwd: root, encoding: "utf8" });
  return JSON.parse(out).state_hash;
}

// Every level file, by the path the scenes name them with (`grid.level = "levels/..."`).
const levels = Object.fromEntries(
  readdirSync(`${root}scenes/levels`)
    .filter((f) => f.endsWith(".dat"))
    .map((f) => [`levels/${f}`, readFileSync(`${root}scenes/levels/${f}`, "utf8")]),
);

const tomlScenes = readdirSync(`${root}scenes`).filter((f) => f.endsWith(".toml")).sort();

test("the table covers every shipped TOML scene", () => {
  assert.ok(tomlScenes.length >= 10, tomlScenes.join(", "));
});

for (const file of tomlScenes) {
  test(`scenes/${file}: ${steps} steps, the same state hash as native`, async () => {
    const w = await World.fromToml(readFileSync(`${root}scenes/${file}`, "utf8"), levels, file);
    w.run(steps);
    assert.equal(w.stateHash(), native(`scenes/${file}`));
  });
}

test("the built-in arena, 2000 balls, seed 5: the same state hash as native", () => {
  const w = World.arena(2000, 60, 5);
  w.run(steps);
  assert.equal(w.stateHash(), native("arena", "--balls", "2000", "--seed", "5"));
});

test("BricksBeater level 4 from its .dat text: the same state hash as native", () => {
  const w = World.fromLevel(levels["levels/level_4.dat"], 1000, "level_4");
  w.run(steps);
  assert.equal(w.stateHash(), native("scenes/levels/level_4.dat"));
});

test("a world built call by call and its scene file agree", async () => {
  // scenes/bounce.toml's kind of world, made with the API, against the same world from TOML.
  const toml = `[world]\nsize = [300, 200]\n[grid]\ncell = 20.0\nrows = ["###############", "#      R      #", "#             #"]\n[step]\ngravity = [0.0, 500.0]\nrestitution = 0.9\n[[ball]]\npos = [150.0, 150.0]\nvel = [120.0, -260.0]\nradius = 5.0\n[[segment]]\na = [20.0, 190.0]\nb = [280.0, 170.0]\n`;
  const a = await World.fromToml(toml);
  const b = new World(300, 200);
  b.setGridRows(20, 0, 0, ["###############", "#      R      #", "#             #"]);
  b.setGravity(0, 500);
  b.setRestitution(0.9);
  b.addBall(150, 150, 120, -260, 5);
  b.addSegment(20, 190, 280, 170);
  a.run(steps);
  b.run(steps);
  assert.equal(a.stateHash(), b.stateHash());
});
