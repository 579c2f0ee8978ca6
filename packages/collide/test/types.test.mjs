// The generated .d.ts is valid TypeScript that types real uses of the package: test/
// types-check.ts compiles with `tsc --strict`, and a use of an event kind that does not exist
// is refused (typescript from the package's devDependencies: `npm ci` in packages/collide).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("..", import.meta.url));
const tsc = `${dir}node_modules/typescript/bin/tsc`;
const flags = ["--noEmit", "--strict", "--target", "es2022", "--module", "es2022", "--moduleResolution", "bundler", "--lib", "es2022,dom,esnext.disposable"];

/** tsc's output for `file`, and whether it compiled. */
function compile(file) {
  assert.ok(existsSync(tsc), "typescript is missing: run `npm ci` in packages/collide");
  try {
    return { ok: true, out: execFileSync(process.execPath, [tsc, ...flags, file], { cwd: dir, encoding: "utf8", stdio: "pipe" }) };
  } catch (e) {
    return { ok: false, out: `${e.stdout}${e.stderr}` };
  }
}

test("the package's types accept typed uses and narrow events by kind (tsc --strict)", () => {
  const r = compile("test/types-check.ts");
  assert.ok(r.ok, r.out);
});

test("the types refuse an event kind that does not exist", () => {
  const bad = "test/.types-bad.ts";
  writeFileSync(`${dir}${bad}`, 'import { World } from "collide";\nconst w = new World(1, 1);\nfor (const e of w.step()) { if (e.kind === "ball_bounce") console.log(e); }\n');
  try {
    const r = compile(bad);
    assert.ok(!r.ok && /ball_bounce/.test(r.out), r.out);
  } finally {
    rmSync(`${dir}${bad}`, { force: true });
  }
});
