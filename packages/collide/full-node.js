// The entry `collide/full` in node: the same module as dist/full/collide.js (the package with
// TOML scenes), instantiated synchronously from the .wasm file next to it, so that `World` is usable right after the import (the
// default export `init()` then resolves at once, as in a browser after its first call).
import { readFileSync } from "node:fs";
import { initSync } from "./dist/full/collide.js";

initSync({ module: readFileSync(new URL("./dist/full/collide_bg.wasm", import.meta.url)) });

export * from "./dist/full/collide.js";
export { default } from "./dist/full/collide.js";
