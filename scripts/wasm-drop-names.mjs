// Removes the `name` custom section (function names for debuggers, about a sixth of the
// module) from a .wasm file in place: `node scripts/wasm-drop-names.mjs FILE`. The other
// sections are copied byte for byte. Used by scripts/build-js.sh after wasm-bindgen, which
// needs the module's `target_features` section that stripping at link time would remove.
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2];
const b = readFileSync(file);
if (b.readUInt32LE(0) !== 0x6d736100) throw new Error(`${file}: not a WebAssembly module`);

/** An unsigned LEB128 number at `i`: [value, index after it]. */
function leb(i) {
  let v = 0, shift = 0, x;
  do {
    x = b[i++];
    v += (x & 0x7f) * 2 ** shift;
    shift += 7;
  } while (x & 0x80);
  return [v, i];
}

const keep = [b.subarray(0, 8)];
let i = 8;
while (i < b.length) {
  const start = i;
  const id = b[i];
  const [size, body] = leb(i + 1);
  const end = body + size;
  let drop = false;
  if (id === 0) {
    const [len, name] = leb(body);
    drop = b.toString("utf8", name, name + len) === "name";
  }
  if (!drop) keep.push(b.subarray(start, end));
  i = end;
}
writeFileSync(file, Buffer.concat(keep));
