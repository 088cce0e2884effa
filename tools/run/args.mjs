// args.mjs — minipbd-run's command line: the usage text and the parser (Node's util.parseArgs, strict: an unknown
// option is refused by name). Every refusal is a UsageError (exit 2, the message and the usage on stderr); --set
// values are checked against the parameter table here, before the wasm is loaded or the scene built, with the words
// World.setParam uses ("parameter X must be ...").

import path from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { BUILTIN_SCENE_IDS, DEFAULT_DIGITS, MAX_THREADS, PARAM_NAMES, SCENE_LIMITS, WASM_DIR, paramInfo, paramAccepts, paramRule } from './web.mjs';

export { DEFAULT_DIGITS };
/** Seconds of wall time between progress lines. */
export const PROGRESS_SECONDS = 2;
const MAX_STEPS = 1000000;

export const USAGE = `usage: minipbd-run <scene.json | link | builtin:NAME> [options]
       minipbd-run --obj FILE [--rigid] [--resolution N] [--size M] [options]
  --steps N        steps to run (default 60, or the steps a link's recording covers; at most ${MAX_STEPS})
  --every K        also record statistics every K steps ("series"; in csv, one row each)
  --format F       json (default) or csv: a header row, then step 0 and one row per sample (the summary on stderr)
  --track LIST     particles whose position and velocity each sample carries: indices (12,40), last, top
  --digits N       significant digits of every printed float (1..17, default ${DEFAULT_DIGITS}); 0 or full: the raw double
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
  --threads N      run on N threads (1..${MAX_THREADS}) with the threaded build (default minipbd_threads.wasm)
  --wasm PATH      wasm to load (default minipbd.wasm, or the threaded build with --threads)
  -h, --help       this text
built-in scenes: ${BUILTIN_SCENE_IDS.join(', ')}`;

export class UsageError extends Error {}

/** The options, for util.parseArgs; `needs` says what a value option takes, for the message when it is missing. */
const OPTIONS = {
  steps: { type: 'string', needs: `a whole number from 0 to ${MAX_STEPS}` },
  every: { type: 'string', needs: `a whole number from 0 to ${MAX_STEPS}` },
  format: { type: 'string', needs: 'json or csv' },
  track: { type: 'string', multiple: true, needs: 'a list of particles, e.g. --track 12,40 or --track last' },
  digits: { type: 'string', needs: 'a whole number from 1 to 17, or 0 or full (the raw double)' },
  set: { type: 'string', multiple: true, needs: 'name=number' },
  positions: { type: 'boolean' },
  progress: { type: 'boolean' },
  'progress-every': { type: 'string', needs: 'seconds from 0 to 3600' },
  quiet: { type: 'boolean' },
  obj: { type: 'string', needs: 'a file' },
  rigid: { type: 'boolean' },
  resolution: { type: 'string', needs: `a whole number from ${SCENE_LIMITS.bodyResolution.min} to ${SCENE_LIMITS.bodyResolution.max}` },
  size: { type: 'string', needs: `a length in metres above 0 and at most ${SCENE_LIMITS.maxSize}` },
  threads: { type: 'string', needs: `a whole number from 1 to ${MAX_THREADS}` },
  wasm: { type: 'string', needs: 'a file' },
  help: { type: 'boolean', short: 'h' },
};
const PARSE_OPTIONS = Object.fromEntries(Object.entries(OPTIONS).map(([k, { needs, ...o }]) => [k, o]));

/** util.parseArgs's refusals in this tool's words: the option named, and what it needs. */
function usageError(err) {
  const named = /'(-{1,2}[^' <]+)/.exec(err.message)?.[1] ?? '';
  const needs = OPTIONS[named.replace(/^-+/, '')]?.needs;
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': return new UsageError(`unknown option ${named}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      // A boolean given a value (--quiet=yes), or a value option without one (last, or followed by another option).
      if (!needs) return new UsageError(`${named} takes no value`);
      return new UsageError(`${named} needs ${needs}`);
    default: return new UsageError(err.message.split('\n')[0]);
  }
}

/** "12,40,last" -> [12, 40, 'last']: whole numbers and the selectors resolved once the world is built (track.mjs). */
function trackList(v) {
  if (v === '') throw new UsageError('--track needs a list of particles, e.g. --track 12,40 or --track last');
  return v.split(',').map((item) => {
    const s = item.trim();
    if (/^\d+$/.test(s)) return Number(s);
    if (s === 'last' || s === 'top') return s;
    throw new UsageError(`--track: ${JSON.stringify(item)} is not a particle index (a whole number), "last" or "top"`);
  });
}

/** The value of --set name=value checked as setParam checks it: a known name, a number in the parameter's range. */
function setting(arg) {
  const m = /^([A-Za-z.]+)=(.*)$/.exec(arg);
  if (!m) throw new UsageError(`--set needs name=number, got ${JSON.stringify(arg)}`);
  const p = paramInfo(m[1]);
  if (p === undefined) throw new UsageError(`--set: unknown parameter ${JSON.stringify(m[1])}; known: ${PARAM_NAMES.join(', ')}`);
  const value = m[2].trim() === '' ? NaN : Number(m[2]);
  if (!paramAccepts(p, value)) throw new UsageError(`parameter ${p.name} must be ${paramRule(p)}, got ${m[2]}`);
  return [p.name, value];
}

const wholeNumber = (flag, v, max) => {
  if (!/^\d+$/.test(v) || Number(v) > max) throw new UsageError(`${flag} needs a whole number from 0 to ${max}, got ${JSON.stringify(v)}`);
  return Number(v);
};

/** The options of `argv` (process.argv.slice(2)); `--help` prints the usage and exits 0. */
export function parseArgs(argv) {
  let parsed;
  try {
    parsed = parseArgv({ args: argv, options: PARSE_OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    if (typeof err?.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS_')) throw usageError(err);
    throw err;
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const opts = { steps: null, every: 0, sets: [], positions: v.positions === true, wasm: v.wasm ?? null, scene: null, obj: null,
    rigid: v.rigid === true, resolution: null, size: null, threads: null, format: 'json', track: [], digits: DEFAULT_DIGITS, progress: null,
    progressSeconds: PROGRESS_SECONDS };
  if (v.steps !== undefined) opts.steps = wholeNumber('--steps', v.steps, MAX_STEPS);
  if (v.every !== undefined) opts.every = wholeNumber('--every', v.every, MAX_STEPS);
  if (v.format !== undefined) {
    if (v.format !== 'json' && v.format !== 'csv') throw new UsageError(`--format must be json or csv, got ${JSON.stringify(v.format)}`);
    opts.format = v.format;
  }
  for (const list of v.track ?? []) opts.track.push(...trackList(list));
  if (v.digits !== undefined) {
    if (v.digits === 'full') opts.digits = 0;
    else if (/^\d+$/.test(v.digits) && Number(v.digits) <= 17) opts.digits = Number(v.digits);
    else throw new UsageError(`--digits needs a whole number from 1 to 17, or 0 or full (the raw double), got ${JSON.stringify(v.digits)}`);
  }
  for (const s of v.set ?? []) opts.sets.push(setting(s));
  // --progress and --quiet: the later one wins, as each did when the options were read in order.
  if (v.progress || v.quiet) {
    const last = (flag) => argv.lastIndexOf(flag);
    opts.progress = !v.quiet || (v.progress && last('--progress') > last('--quiet'));
  }
  if (v['progress-every'] !== undefined) {
    const s = v['progress-every'];
    if (!/^\d+(\.\d+)?$/.test(s) || Number(s) > 3600) throw new UsageError(`--progress-every needs seconds from 0 to 3600, got ${JSON.stringify(s)}`);
    opts.progressSeconds = Number(s);
  }
  if (v.threads !== undefined) {
    if (!/^\d+$/.test(v.threads) || Number(v.threads) < 1 || Number(v.threads) > MAX_THREADS) {
      throw new UsageError(`--threads needs a whole number from 1 to ${MAX_THREADS}, got ${JSON.stringify(v.threads)}`);
    }
    opts.threads = Number(v.threads);
  }
  if (v.obj !== undefined) opts.obj = v.obj;
  if (v.size !== undefined) {
    const n = Number(v.size);
    if (!/^[0-9.eE+-]+$/.test(v.size) || !(n > 0) || n > SCENE_LIMITS.maxSize) {
      throw new UsageError(`--size needs a length in metres above 0 and at most ${SCENE_LIMITS.maxSize}, got ${JSON.stringify(v.size)}`);
    }
    opts.size = n;
  }
  if (v.resolution !== undefined) {
    const { min, max } = SCENE_LIMITS.bodyResolution;
    opts.resolution = wholeNumber('--resolution', v.resolution, max);
    if (opts.resolution < min) throw new UsageError(`--resolution needs a whole number from ${min} to ${max}, got ${opts.resolution}`);
  }
  if (positionals.length > 1) throw new UsageError(`more than one scene given: ${positionals[1]}`);
  opts.scene = positionals[0] ?? null;
  if (opts.scene === null && opts.obj === null) throw new UsageError('no scene given');
  if (opts.obj === null && (opts.rigid || opts.resolution !== null || opts.size !== null)) {
    throw new UsageError('--rigid, --resolution and --size go with --obj');
  }
  if (opts.positions && opts.format === 'csv') throw new UsageError('--positions goes with --format json (csv: --track the particles you want)');
  opts.wasm ??= path.join(WASM_DIR, opts.threads !== null ? 'minipbd_threads.wasm' : 'minipbd.wasm');
  // Progress by default only where a person watches (a terminal); a pipe or a file gets none unless asked.
  opts.progress ??= Boolean(process.stderr.isTTY);
  return opts;
}
