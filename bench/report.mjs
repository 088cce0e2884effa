/* report.mjs -- what bench.mjs makes of its records: the figures derived from them (ratios,
   the solve stage alone, the SIMD speed-ups), the hash cross-check of our builds, the issue's
   targets, and the markdown tables it prints. Pure functions of the records: no timing here. */

/* Our builds: the same engine, so the same bits (crossCheck); the rest are the peers. */
export const OURS = new Set(['native', 'native-portable', 'native-clang', 'native-scalar', 'wasm', 'wasm-scalar']);
/* The SIMD native builds, candidates for "the fastest native build" of a case. */
const NATIVE_SIMD = ['native', 'native-portable', 'native-clang'];

/* ---------------------------------------------------------------- output */

export const fmt = {
	int: (n) => n.toLocaleString('en-US'),
	ms: (n) => (n >= 100 ? n.toFixed(1) : n >= 10 ? n.toFixed(2) : n.toFixed(3)),
	mproj: (n) => (n === null || n === undefined ? '—' : (n / 1e6).toFixed(1)),
	stretch: (n) => n.toPrecision(4),
	ratio: (n) => (n === undefined || n === null ? '—' : `${n.toFixed(2)}x`),
};

function markdown(head, right, rows) {
	const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const line = (cells) => `| ${cells.map((c, i) => (right[i] ? c.padStart(width[i]) : c.padEnd(width[i]))).join(' | ')} |`;
	const rule = `|${width.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
	return [line(head), rule, ...rows.map(line)].join('\n');
}

export function stepTable(records) {
	const head = ['case', 'impl', 'particles', 'constraints', 'passes', 'ms/step (median)', '(min)', 'Mproj/s', 'max stretch', 'ratio vs native'];
	const rows = records.map((r) => [r.case, r.impl, fmt.int(r.particles), fmt.int(r.constraints), String(r.passes),
		fmt.ms(r.ms_median), fmt.ms(r.ms_min), fmt.mproj(r.proj_per_s), fmt.stretch(r.max_stretch), fmt.ratio(r.ratio_vs_native)]);
	return markdown(head, [false, false, true, true, true, true, true, true, true, true], rows);
}

export function pairsTable(records) {
	const what = { findpairs: 'pbd_World_FindPairs', rebuild: 'hash rebuild alone' };
	const head = ['case', 'impl', 'timed', 'particles', 'thickness', 'pairs', 'ms/call (median)', 'ratio vs native'];
	const rows = records.map((r) => [r.case, r.impl, what[r.mode] ?? r.mode, fmt.int(r.particles), String(r.params.thickness ?? '—'),
		r.pairs === undefined ? '—' : fmt.int(r.pairs), fmt.ms(r.ms_median), fmt.ratio(r.ratio_vs_native)]);
	return markdown(head, [false, false, false, true, true, true, true, true], rows);
}

/* ---------------------------------------------------------------- derived figures */

export function derive(records, cases) {
	const find = (name, impl) => records.find((r) => r.case === name && r.impl === impl);
	for (const c of cases) {
		const ref = find(c.name, 'native');
		const wasm = find(c.name, 'wasm');
		const fastest = records.filter((x) => x.case === c.name && NATIVE_SIMD.includes(x.impl))
			.reduce((a, b) => (a && a.ms_median <= b.ms_median ? a : b), null);
		for (const r of records.filter((x) => x.case === c.name)) {
			if (r.impl !== 'native' && ref) r.ratio_vs_native = r.ms_median / ref.ms_median;
			if (fastest && !NATIVE_SIMD.includes(r.impl)) {
				r.fastest_native = fastest.impl;
				r.ratio_vs_fastest_native = r.ms_median / fastest.ms_median;
			}
			if (!OURS.has(r.impl) && wasm) r.wasm_speedup = r.ms_median / wasm.ms_median;
		}
		// The solve stage alone: the step is (other stages) + passes x (one pass), so the
		// 10-pass and 1-pass steps give one pass as their difference / 9.
		const one = records.filter((x) => x.case === `${c.name}/1-pass`);
		for (const r1 of one) {
			const r = find(c.name, r1.impl);
			if (!r || r.passes <= r1.passes) continue;
			const perPass = (r.ms_median - r1.ms_median) / (r.passes - r1.passes);
			r.solve_ms_est = perPass * r.passes;
			r.other_ms_est = r.ms_median - r.solve_ms_est;
		}
		if (c.name.endsWith('/self-on')) {
			for (const r of records.filter((x) => x.case === c.name)) {
				const off = find(c.name.replace(/self-on$/, 'self-off'), r.impl);
				if (off) r.ratio_vs_self_off = r.ms_median / off.ms_median;
			}
		}
	}
}

/** Our builds must agree bit for bit: hashes and pair counts, per case. */
export function crossCheck(records, cases) {
	let ok = true;
	const lines = [];
	for (const c of cases) {
		const mine = records.filter((r) => r.case === c.name && OURS.has(r.impl));
		if (mine.length === 0) continue;
		const ref = mine.find((r) => r.impl === 'native') ?? mine[0];
		for (const r of mine) {
			r.hash_match = r.hash_after_warmup === ref.hash_after_warmup && r.hash_final === ref.hash_final && r.pairs === ref.pairs;
			ok &&= r.hash_match;
		}
		const verdict = mine.length < 2 ? 'nothing to compare' : mine.every((r) => r.hash_match) ? 'SAME' : 'DIFFERENT';
		const pairs = ref.pairs === undefined ? '' : ` (pairs ${mine.map((r) => r.pairs).join(', ')})`;
		lines.push(`hash check ${c.name}: ${mine.map((r) => `${r.impl} ${r.hash_after_warmup}/${r.hash_final}`).join(', ')}${pairs} -> ${verdict}`);
	}
	for (const r of records) if (!OURS.has(r.impl)) r.hash_match = null;
	return { ok, lines };
}

/** The issue's targets, each from this run's records. */
export function targets(records, big) {
	const find = (name, impl) => records.find((r) => r.case === name && r.impl === impl);
	const out = [];
	const line = (what, value, target, pass, note = '') =>
		out.push(`  ${what.padEnd(44)} ${value.padStart(10)}   ${target.padEnd(16)} ${pass === null ? '    ' : pass ? 'MET ' : 'MISS'}${note ? `  ${note}` : ''}`);
	const main = `cloth-${big}x${big}`;
	const wasm = find(main, 'wasm'), native = find(main, 'native'), scalar = find(main, 'native-scalar');
	if (wasm) {
		line(`wasm ms/step (${fmt.int(wasm.particles)} particles)`, fmt.ms(wasm.ms_median), '<= 16.7', wasm.ms_median <= 16.7);
		line('wasm Mproj/s', fmt.mproj(wasm.proj_per_s), '>= 350', wasm.proj_per_s >= 350e6);
		if (wasm.solve_ms_est !== undefined) {
			line('wasm solve stage (est.)', fmt.ms(wasm.solve_ms_est), '', null,
				`${(100 * wasm.solve_ms_est / wasm.ms_median).toFixed(0)}% of the step; other stages ${fmt.ms(wasm.other_ms_est)} ms`);
		}
	}
	const minRatio = (a, b) => `min/min ${fmt.ratio(a.ms_min / b.ms_min)}`;
	// The page's large cloth (10 substeps x 1 pass, tethers) against the bench cloth of its size (1 x 10).
	const scene = big === 316 ? 'cloth-100k' : `cloth-100k/${big}x${big}`;
	for (const [impl, bench] of [['wasm', wasm], ['native', native]]) {
		const r = find(scene, impl);
		if (!r) continue;
		line(`${scene} ${impl} ms/step (${r.passes} passes)`, fmt.ms(r.ms_median), '', null,
			`max stretch ${fmt.stretch(r.max_stretch)}${bench ? `; ${fmt.ratio(r.ms_median / bench.ms_median)} the bench cloth's ${fmt.ms(bench.ms_median)} ms` : ''}`);
	}
	const sw = find(scene, 'wasm'), sn = find(scene, 'native');
	if (sw && sn) line(`${scene} wasm / native`, fmt.ratio(sw.ratio_vs_native), '', null, minRatio(sw, sn));
	if (wasm && native) line('wasm / native (gcc -O3 -march=native)', fmt.ratio(wasm.ratio_vs_native), '<= 1.3', wasm.ratio_vs_native <= 1.3, minRatio(wasm, native));
	if (wasm && wasm.fastest_native && wasm.fastest_native !== 'native') {
		const f = find(main, wasm.fastest_native);
		line(`wasm / fastest native (${f.build})`, fmt.ratio(wasm.ratio_vs_fastest_native), '<= 1.3', wasm.ratio_vs_fastest_native <= 1.3,
			`${fmt.ms(f.ms_median)} ms; ${minRatio(wasm, f)}`);
	}
	if (native && native.solve_ms_est !== undefined) {
		line('native solve stage (est.)', fmt.ms(native.solve_ms_est), '', null,
			`${(100 * native.solve_ms_est / native.ms_median).toFixed(0)}% of the step; other stages ${fmt.ms(native.other_ms_est)} ms`);
	}
	// The SIMD speed-up (scalar ms / SIMD ms) of each build that has a scalar twin: natively and in wasm.
	const speedUp = (label, simd, plain) => {
		if (!simd || !plain) return;
		line(`${label}, whole step`, fmt.ratio(plain.ms_median / simd.ms_median), '>= 2.5 (solve)', null,
			`${fmt.ms(plain.ms_median)} vs ${fmt.ms(simd.ms_median)} ms; ${minRatio(plain, simd)}`);
		if (plain.solve_ms_est !== undefined && simd.solve_ms_est !== undefined) {
			const s = plain.solve_ms_est / simd.solve_ms_est;
			line(`${label}, solve stage (est.)`, fmt.ratio(s), '>= 2.5', s >= 2.5,
				`${fmt.ms(plain.solve_ms_est)} vs ${fmt.ms(simd.solve_ms_est)} ms`);
		}
	};
	speedUp('native SIMD speed-up', native, scalar);
	speedUp('wasm SIMD speed-up', wasm, find(main, 'wasm-scalar'));
	for (const [impl, target] of [['js', 4], ['ammo', 5]]) {
		for (const name of [`cloth-100x100`, main]) {
			const p = find(name, impl), w = find(name, 'wasm');
			if (!p || !w) continue;
			line(`wasm vs ${impl} at ${fmt.int(p.particles)} (times faster)`, fmt.ratio(p.wasm_speedup), `>= ${target}`, p.wasm_speedup >= target,
				`${impl} ${fmt.ms(p.ms_median)} ms, ${minRatio(p, w)}; stretch ${fmt.stretch(p.max_stretch)} (ours ${fmt.stretch(w.max_stretch)})`);
		}
	}
	const rb = find(`${main}/rebuild`, 'native');
	if (rb) line('native hash rebuild alone', fmt.ms(rb.ms_median), '<= 2', rb.ms_median <= 2, `${fmt.int(rb.particles)} particles`);
	for (const impl of ['wasm', 'native']) {
		const fp = find(`${main}/findpairs`, impl);
		if (fp) {
			line(`${impl} FindPairs: hash rebuild + pairs`, fmt.ms(fp.ms_median), '', null,
				`${fmt.int(fp.pairs ?? 0)} pairs at thickness ${fp.params.thickness}${fp.pairs === 0 ? ' (none: a cloth\'s edges within 1.2 D at rest are listed apart, not searched; physics.md)' : ''}`);
		}
		const on = find(`${main}/self-on`, impl), off = find(`${main}/self-off`, impl);
		if (on && off) {
			line(`${impl} step, self-collision on / off`, fmt.ratio(on.ratio_vs_self_off), '', null,
				`${fmt.ms(on.ms_median)} vs ${fmt.ms(off.ms_median)} ms, ${fmt.int(on.pairs ?? 0)} searched pairs at the end (the edges listed apart not counted)`);
		}
	}
	return out;
}
