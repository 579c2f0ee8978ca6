// Runs a wasm32-wasip1 program under node's WASI: `node .ci/wasi-run.mjs PROGRAM.wasm ARGS...`.
// The current directory is preopened as `.` (so relative paths in ARGS work); stdout, stderr
// and the exit code are the program's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv, exit } from 'node:process';

const [program, ...args] = argv.slice(2);
if (!program) {
    console.error('usage: node wasi-run.mjs PROGRAM.wasm [ARGS...]');
    exit(2);
}
const wasi = new WASI({
    version: 'preview1',
    args: [program, ...args],
    env: {},
    preopens: { '.': '.' },
    returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
