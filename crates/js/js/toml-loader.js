// The loader of the package's TOML module (crates/js-toml, dist/toml/) for World.fromToml:
// the module is fetched and instantiated on the first call and reused afterwards, so a page
// that never loads a TOML scene never downloads the parser. wasm-bindgen copies this file to
// dist/snippets/collide-js-<hash>/js/, three folders below dist/ (checked by the package's
// tests). A failed load (network, missing file) is tried again on the next call.

let loading = null;

/** The `fs` module of node (or Deno, Bun) to read a `file:` URL with, which `fetch` cannot. */
async function fileSystem() {
  const builtin = globalThis.process?.getBuiltinModule?.("node:fs");
  if (builtin) return builtin;
  const name = "node:fs"; // a variable: bundlers for the browser leave the import alone
  return import(name);
}

/** The TOML module, instantiated. */
function load() {
  loading ??= (async () => {
    const glue = new URL("../../../toml/collide_toml.js", import.meta.url);
    const toml = await import(glue.href);
    const wasm = new URL("collide_toml_bg.wasm", glue);
    if (wasm.protocol === "file:") {
      toml.initSync({ module: (await fileSystem()).readFileSync(wasm) });
    } else {
      await toml.default({ module_or_path: wasm });
    }
    return toml;
  })().catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** The scene bytes of the TOML scene `text` (a Uint8Array), or a rejection with its Error. */
export async function tomlSceneBytes(text, levels, file) {
  const toml = await load();
  return toml.sceneBytes(text, levels, file);
}
