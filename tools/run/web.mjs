// web.mjs — minipbd-run's one door to the page's modules and the wasm builds. In the repository they are web/js/
// and dist/; in the npm package the CLI is bin/ (tools/package.mjs copies it there) beside js/ and the wasm files,
// and package.mjs writes this file's copy with those two folders. Every other module of the CLI imports the page's
// code from here, so the layout is named in this one file.

import { fileURLToPath } from 'node:url';

export * from '../../web/js/minipbd.js';
export { MAX_THREADS } from '../../web/js/engine/threads.js';
export { paramInfo, paramAccepts, paramRule, fluidRatioProblem } from '../../web/js/engine/params.js';
export { DEFAULT_DIGITS, roundNumber, roundDeep, csvField } from '../../web/js/format/csv.js';
export { MESH_FIT } from '../../web/js/objects/body-common.js';

/** The folder of minipbd.wasm and minipbd_threads.wasm. */
export const WASM_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));
