/* native-run.mjs -- bench_native (bench/bench_native.c) as bench.mjs and threads-bench.mjs run it: a case as one
   command-line argument of key=value pairs, one JSON record per case on its stdout. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Case c as bench_native's argument: [its scene spec,] name, world or res, warm-up, runs, steps, mode, params. */
export function nativeSpec(c) {
	const kv = { name: c.name, ...(c.solid || c.fluid ? { world: c.worldFile } : c.scene ? {} : { res: c.res }), warmup: c.warmup, runs: c.runs, steps: c.steps,
		mode: c.mode, ...(c.mode === 'part' ? { part: c.part } : {}), ...c.params };
	return [c.nativeScene, ...Object.entries(kv).map(([k, v]) => `${k}=${v}`)].filter(Boolean).join(',');
}

/** The records of `cases` on native build `bin` ({ file, build }) under `root`, `extra` arguments before the cases
 *  (--threads N); throws with the binary's message when it fails. */
export function runNative(root, impl, bin, cases, extra = []) {
	const file = path.join(root, bin.file);
	const r = spawnSync(file, ['--impl', impl, ...extra, ...cases.map(nativeSpec)], { encoding: 'utf8', maxBuffer: 1 << 24 });
	if (r.error) throw new Error(`could not run ${bin.file}: ${r.error.message}`);
	if (r.status !== 0) throw new Error(`${bin.file} exited with ${r.status ?? r.signal}: ${r.stderr.trim()}`);
	const records = r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => {
		try { return JSON.parse(l); } catch { throw new Error(`${bin.file} printed a line that is not JSON: ${l.slice(0, 200)}`); }
	});
	if (records.length !== cases.length) throw new Error(`${bin.file} printed ${records.length} records for ${cases.length} cases`);
	return records.map((rec) => ({ ...rec, build: bin.build }));
}

