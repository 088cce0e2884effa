/* report-solids.mjs -- what bench.mjs makes of the solid cases' records (solid-cases.mjs, solid-run.mjs): the
   quality of the native records, projections per second, the tables and the targets (docs/benchmarks.md "Solids").
   Pure functions of the records, like report.mjs. */
import { OURS, fmt } from './report.mjs';

/** The quality figures a solid record carries (solid-cases.mjs says what each one measures). */
export const QUALITY_FIELDS = ['volume_error_mean', 'volume_error_max', 'inverted_tets', 'max_edge_stretch', 'max_edge_compression',
	'max_shape_error', 'max_penetration', 'max_penetration_ratio', 'engine_volume_error_max', 'engine_inverted_tets'];

/**
 * Native records get the quality of the wasm record of their case when both end on the same state hash (the
 * same state to the bit, so the same figures; quality_from says so); soft records get proj_per_s, every edge
 * and tet projected once per pass (shape matching has no such count: rigid records keep null).
 */
export function solidDerive(records, cases) {
	for (const c of cases.filter((x) => x.solid)) {
		const mine = records.filter((r) => r.case === c.name);
		const wasm = mine.find((r) => r.impl === 'wasm' && r.max_penetration !== undefined);
		for (const r of mine) {
			if (r.max_penetration === undefined && wasm && OURS.has(r.impl) && r.hash_final === wasm.hash_final) {
				for (const f of QUALITY_FIELDS) if (wasm[f] !== undefined) r[f] = wasm[f];
				r.quality_from = 'wasm (same state hash)';
			}
			r.proj_per_s = c.solid === 'soft' ? (r.constraints + r.tets) * r.passes / (r.ms_median / 1000) : null;
		}
	}
}

function markdown(head, rows) {
	const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const line = (cells) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(width[i]) : c.padStart(width[i]))).join(' | ')} |`;
	const rule = `|${width.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
	return [line(head), rule, ...rows.map(line)].join('\n');
}

const pct = (v) => (v === undefined ? '—' : `${(100 * v).toFixed(v < 0.001 ? 3 : 2)}%`);
const mm = (v) => (v === undefined ? '—' : (1000 * v).toFixed(2));
const peerRatio = (r) => (r.wasm_speedup === undefined ? '—' : `${fmt.ratio(r.wasm_speedup)} (wasm faster)`);

/** The markdown tables of the solid records: one for the soft cases, one for the rigid ones. */
export function solidTable(records) {
	const out = [];
	const soft = records.filter((r) => r.solid === 'soft'), rigid = records.filter((r) => r.solid === 'rigid');
	if (soft.length) {
		const head = ['case', 'impl', 'bodies', 'particles', 'edges', 'tets', 'passes', 'ms/step (median)', '(min)', '(max)', 'Mproj/s', 'vs native', 'peer / wasm',
			'volume err mean', 'max', 'inverted', 'edge stretch', 'compression', 'penetration / r'];
		out.push(markdown(head, soft.map((r) => [r.case, r.impl, String(r.bodies), fmt.int(r.particles), fmt.int(r.constraints), fmt.int(r.tets),
			String(r.passes), fmt.ms(r.ms_median), fmt.ms(r.ms_min), fmt.ms(Math.max(...r.runs)), fmt.mproj(r.proj_per_s), fmt.ratio(r.ratio_vs_native), peerRatio(r),
			pct(r.volume_error_mean), pct(r.volume_error_max), String(r.inverted_tets ?? '—'), pct(r.max_edge_stretch), pct(r.max_edge_compression),
			pct(r.max_penetration_ratio)])));
	}
	if (rigid.length) {
		const head = ['case', 'impl', 'bodies', 'particles', 'passes', 'ms/step (median)', '(min)', '(max)', 'vs native', 'shape error (mm)',
			'penetration (mm)', 'penetration / r'];
		out.push(markdown(head, rigid.map((r) => [r.case, r.impl, String(r.bodies), fmt.int(r.particles), String(r.passes), fmt.ms(r.ms_median),
			fmt.ms(r.ms_min), fmt.ms(Math.max(...r.runs)), fmt.ratio(r.ratio_vs_native), mm(r.max_shape_error), mm(r.max_penetration), pct(r.max_penetration_ratio)])));
	}
	return out.join('\n\n');
}

/** The issue's solid targets, each from this run's records (the lines look like report.mjs targets'). */
export function solidTargets(records) {
	const out = [];
	const line = (what, value, target, pass, note = '') =>
		out.push(`  ${what.padEnd(44)} ${value.padStart(10)}   ${target.padEnd(16)} ${pass === null ? '    ' : pass ? 'MET ' : 'MISS'}${note ? `  ${note}` : ''}`);
	const find = (pred) => records.find(pred);
	for (const solid of ['soft', 'rigid']) {
		const wasm = find((r) => r.solid === solid && r.impl === 'wasm');
		if (!wasm) continue;
		const native = find((r) => r.case === wasm.case && r.impl === 'native');
		const what = solid === 'soft' ? `${fmt.int(wasm.tets)} tets` : `${wasm.bodies} bodies of ${Math.round(wasm.particles / wasm.bodies)} particles`;
		const limit = solid === 'soft' ? 8 : 16.7;
		line(`${wasm.case} wasm ms/step (${what})`, fmt.ms(wasm.ms_median), `<= ${limit}`, wasm.ms_median <= limit,
			`runs ${wasm.runs.map(fmt.ms).join(', ')} ms (drop to rest)${native ? `; native ${fmt.ms(native.ms_median)} ms (wasm / native ${fmt.ratio(wasm.ratio_vs_native)})` : ''}`);
		if (solid === 'soft') {
			line(`${wasm.case} volume error, mean / max`, `${pct(wasm.volume_error_mean)} / ${pct(wasm.volume_error_max)}`, '', null,
				`${wasm.inverted_tets} inverted tets; edges stretch ${pct(wasm.max_edge_stretch)}, compress ${pct(wasm.max_edge_compression)}`);
		} else {
			line(`${wasm.case} max shape error`, `${mm(wasm.max_shape_error)} mm`, '', null, `max interpenetration ${mm(wasm.max_penetration)} mm = ${pct(wasm.max_penetration_ratio)} of r`);
		}
		const peer = find((r) => r.case === wasm.case && r.impl === 'js');
		if (peer) {
			line(`wasm vs plain-JS soft bodies (times faster)`, fmt.ratio(peer.wasm_speedup), '>= 4', peer.wasm_speedup >= 4,
				`js ${fmt.ms(peer.ms_median)} ms, min/min ${fmt.ratio(peer.ms_min / wasm.ms_min)}; its volume error ${pct(peer.volume_error_max)}, ` +
				`stretch ${pct(peer.max_edge_stretch)}, penetration ${pct(peer.max_penetration_ratio)} of r`);
		}
	}
	return out;
}
