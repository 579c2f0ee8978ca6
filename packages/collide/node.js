// The package's entry in node: the same module as dist/collide.js, instantiated synchronously
// from the .wasm file next to it, so that `World` is usable right after the import (the
// default export `init()` then resolves at once, as in a browser after its first call). The
// TOML module (dist/toml/) is read from its file by the first `World.fromToml`.
import { readFileSync } from "node:fs";
import { initSync } from "./dist/collide.js";

initSync({ module: readFileSync(new URL("./dist/collide_bg.wasm", import.meta.url)) });

export * from "./dist/collide.js";
export { default } from "./dist/collide.js";
