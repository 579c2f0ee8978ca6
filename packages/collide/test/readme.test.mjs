// The README's example runs as written and prints what the README says it prints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

test("the README's example prints what the README shows", () => {
  const code = readme.match(/```js\n([\s\S]*?)```/)?.[1];
  const printed = readme.match(/prints\n\n```text\n([\s\S]*?)```/)?.[1];
  assert.ok(code && printed, "the README has a ```js example followed by its ```text output");
  // Inside the package, so that `import ... from "collide"` resolves to the package itself.
  const file = new URL("./.readme-example.mjs", import.meta.url);
  writeFileSync(file, code);
  try {
    const out = execFileSync(process.execPath, [fileURLToPath(file)], { encoding: "utf8" });
    assert.equal(out, printed);
  } finally {
    rmSync(file, { force: true });
  }
});
