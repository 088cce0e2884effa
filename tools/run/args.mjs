// args.mjs — minipbd-run's command line: the usage text and the parser. Every refusal is a UsageError (exit 2,
// the message and the usage on stderr); --set values are checked against the parameter table here, before the
// wasm is loaded or the scene built, with the words World.setParam uses ("parameter X must be ...").

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_THREADS } from '../../web/js/engine/threads.js';
import { BUILTIN_SCENE_IDS, SCENE_LIMITS } from '../../web/js/minipbd.js';
import { PARAM_NAMES, paramInfo, paramAccepts, paramRule } from '../../web/js/engine/params.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export const DEFAULT_DIGITS = 6;
/** Seconds of wall time between progress lines. */
export const PROGRESS_SECONDS = 2;

export const USAGE = `usage: minipbd-run <scene.json | link | builtin:NAME> [options]
       minipbd-run --obj FILE [--rigid] [--resolution N] [--size M] [options]
  --steps N        steps to run (default 60, or the steps a link's recording covers; at most 1000000)
  --every K        also record statistics every K steps ("series"; in csv, one row each)
  --format F       json (default) or csv: a header row, then step 0 and one row per sample (the summary on stderr)
  --track LIST     particles whose position and velocity each sample carries: indices (12,40), last, top
  --digits N       significant digits of every printed float (1..17, default 6); 0 or full: the raw double
  --set name=value set a parameter before running (repeatable), e.g. --set iterations=20
  --positions      include final positions [[x, y, z], ...] (json)
  --progress       progress on stderr ("step 1200 / 6000 (20%)") even when stderr is not a terminal
  --progress-every S  seconds of wall time between progress lines (default ${PROGRESS_SECONDS}; 0: every 10 steps)
  --quiet          no progress (default: progress every ~${PROGRESS_SECONDS} s when stderr is a terminal)
  --obj FILE       add an OBJ model (a triangle surface, closed or not) to the scene as a soft body
  --rigid          ... as a rigid body instead
  --resolution N   lattice cells along the model's longest side (${SCENE_LIMITS.bodyResolution.min}..${SCENE_LIMITS.bodyResolution.max}, default 8)
  --size M         scale the model so its longest side is M metres (default: as it is, or 0.5 m when it is
                   far outside the world's scale: millimetres, microscopic)
  --threads N      run on N threads (1..${MAX_THREADS}) with the threaded build (default dist/minipbd_threads.wasm)
  --wasm PATH      wasm to load (default dist/minipbd.wasm, or the threaded build with --threads)
built-in scenes: ${BUILTIN_SCENE_IDS.join(', ')}`;

export class UsageError extends Error {}

/** "12,40,last" -> [12, 40, 'last']: whole numbers and the selectors resolved once the world is built (track.mjs). */
function trackList(v) {
  if (v === undefined || v === '') throw new UsageError('--track needs a list of particles, e.g. --track 12,40 or --track last');
  return v.split(',').map((item) => {
    const s = item.trim();
    if (/^\d+$/.test(s)) return Number(s);
    if (s === 'last' || s === 'top') return s;
    throw new UsageError(`--track: ${JSON.stringify(item)} is not a particle index (a whole number), "last" or "top"`);
  });
}

/** The value of --set name=value checked as setParam checks it: a known name, a number in the parameter's range. */
function setting(arg) {
  const m = /^([A-Za-z.]+)=(.*)$/.exec(arg ?? '');
  if (!m) throw new UsageError(`--set needs name=number, got ${JSON.stringify(arg ?? '')}`);
  const p = paramInfo(m[1]);
  if (p === undefined) throw new UsageError(`--set: unknown parameter ${JSON.stringify(m[1])}; known: ${PARAM_NAMES.join(', ')}`);
  const value = m[2].trim() === '' ? NaN : Number(m[2]);
  if (!paramAccepts(p, value)) throw new UsageError(`parameter ${p.name} must be ${paramRule(p)}, got ${m[2]}`);
  return [p.name, value];
}

export function parseArgs(argv) {
  const opts = { steps: null, every: 0, sets: [], positions: false, wasm: null, scene: null, obj: null, rigid: false, size: null,
    resolution: null, threads: null, format: 'json', track: [], digits: DEFAULT_DIGITS, progress: null,
    progressSeconds: PROGRESS_SECONDS };
  const wholeNumber = (flag, v, max) => {
    if (!/^\d+$/.test(v ?? '') || Number(v) > max) throw new UsageError(`${flag} needs a whole number from 0 to ${max}, got ${JSON.stringify(v ?? '')}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--steps') opts.steps = wholeNumber(a, argv[++i], 1000000);
    else if (a === '--every') opts.every = wholeNumber(a, argv[++i], 1000000);
    else if (a === '--positions') opts.positions = true;
    else if (a === '--wasm') opts.wasm = argv[++i];
    else if (a === '--format') {
      opts.format = argv[++i];
      if (opts.format !== 'json' && opts.format !== 'csv') throw new UsageError(`--format must be json or csv, got ${JSON.stringify(opts.format ?? '')}`);
    } else if (a === '--track') opts.track.push(...trackList(argv[++i]));
    else if (a === '--digits') {
      const v = argv[++i];
      if (v === 'full') opts.digits = 0;
      else if (/^\d+$/.test(v ?? '') && Number(v) <= 17) opts.digits = Number(v);
      else throw new UsageError(`--digits needs a whole number from 1 to 17, or 0 or full (the raw double), got ${JSON.stringify(v ?? '')}`);
    } else if (a === '--progress') opts.progress = true;
    else if (a === '--progress-every') {
      const v = argv[++i];
      if (!/^\d+(\.\d+)?$/.test(v ?? '') || Number(v) > 3600) throw new UsageError(`--progress-every needs seconds from 0 to 3600, got ${JSON.stringify(v ?? '')}`);
      opts.progressSeconds = Number(v);
    }
    else if (a === '--quiet') opts.progress = false;
    else if (a === '--threads') {
      const v = argv[++i];
      if (!/^\d+$/.test(v ?? '') || Number(v) < 1 || Number(v) > MAX_THREADS) {
        throw new UsageError(`--threads needs a whole number from 1 to ${MAX_THREADS}, got ${JSON.stringify(v ?? '')}`);
      }
      opts.threads = Number(v);
    } else if (a === '--obj') {
      opts.obj = argv[++i];
      if (opts.obj === undefined) throw new UsageError('--obj needs a file');
    } else if (a === '--rigid') opts.rigid = true;
    else if (a === '--size') {
      const v = argv[++i];
      const n = Number(v);
      if (!/^[0-9.eE+-]+$/.test(v ?? '') || !(n > 0) || n > SCENE_LIMITS.maxSize) {
        throw new UsageError(`--size needs a length in metres above 0 and at most ${SCENE_LIMITS.maxSize}, got ${JSON.stringify(v ?? '')}`);
      }
      opts.size = n;
    }
    else if (a === '--resolution') {
      const { min, max } = SCENE_LIMITS.bodyResolution;
      opts.resolution = wholeNumber(a, argv[++i], max);
      if (opts.resolution < min) throw new UsageError(`--resolution needs a whole number from ${min} to ${max}, got ${opts.resolution}`);
    } else if (a === '--set') opts.sets.push(setting(argv[++i]));
    else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else if (opts.scene === null) opts.scene = a;
    else throw new UsageError(`more than one scene given: ${a}`);
  }
  if (opts.scene === null && opts.obj === null) throw new UsageError('no scene given');
  if (opts.obj === null && (opts.rigid || opts.resolution !== null || opts.size !== null)) throw new UsageError('--rigid, --resolution and --size go with --obj');
  if (opts.positions && opts.format === 'csv') throw new UsageError('--positions goes with --format json (csv: --track the particles you want)');
  opts.wasm ??= path.join(here, '..', '..', 'dist', opts.threads !== null ? 'minipbd_threads.wasm' : 'minipbd.wasm');
  // Progress by default only where a person watches (a terminal); a pipe or a file gets none unless asked.
  opts.progress ??= Boolean(process.stderr.isTTY);
  return opts;
}
