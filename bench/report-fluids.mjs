/* report-fluids.mjs -- what bench.mjs makes of the fluid cases' records (fluid-cases.mjs, fluid-run.mjs): the
   parts' share of a step, the tables (steps, parts, particle count) and the targets (docs/benchmarks.md "Fluids"),
   each time with the density error of the state it was taken on. Pure functions of the records, like report.mjs. */
import { OURS, fmt } from './report.mjs';
import { FLUID_PARTS } from './fluid-cases.mjs';

/** How many times a step runs each part: neighbours and the velocity passes once per substep, density and
 *  correction once per iteration of each substep; the sort once per fluid.sortInterval steps (at most 1). */
export function callsPerStep(part, substeps, iterations) {
	if (part === 'density' || part === 'correct') return substeps * iterations;
	if (part === 'sort') return 1;
	return substeps;
}

/**
 * Part records get calls_per_step and step_ms_est (ms per call x calls per step: the part's share of a step); the
 * peer's step record of the same dam break carries part_ms (its own parts, per step), and each part record of
 * ours gets peer_ms_est (the peer's time for that part per call) and peer_ratio (peer / ours).
 */
export function fluidDerive(records, cases) {
	for (const c of cases.filter((x) => x.fluid)) {
		const substeps = c.plan.params.find(([n]) => n === 'substeps')[1];
		// A density constraint per particle, not a count of projections: no proj_per_s (native prints 0 constraints' 0).
		for (const r of records.filter((x) => x.case === c.name)) Object.assign(r, { substeps, iterations: r.passes / substeps, proj_per_s: null });
	}
	for (const c of cases.filter((x) => x.fluid && x.mode === 'part')) {
		const base = c.name.replace(/\/part-[a-z]+$/, '');
		const peer = records.find((r) => r.case === base && r.impl === 'js' && r.part_ms);
		for (const r of records.filter((x) => x.case === c.name)) {
			r.calls_per_step = callsPerStep(c.partName, r.substeps, r.iterations);
			r.step_ms_est = r.ms_median * r.calls_per_step;
			// The peer has no sort (its hash needs none) and times its prediction and velocity update apart.
			if (peer && peer.part_ms[c.partName] !== undefined) {
				r.peer_ms_est = peer.part_ms[c.partName] / r.calls_per_step;
				r.peer_ratio = r.peer_ms_est / r.ms_median;
			}
		}
	}
}

function markdown(head, rows) {
	const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const line = (cells) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(width[i]) : c.padStart(width[i]))).join(' | ')} |`;
	const rule = `|${width.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
	return [line(head), rule, ...rows.map(line)].join('\n');
}

const pct = (v) => (v === undefined || v === null ? '—' : `${(100 * v).toFixed(Math.abs(v) < 0.001 ? 3 : 2)}%`);
const dens = (v) => (v === undefined || v === null ? '—' : v.toFixed(4));
const split = (r) => (r.substeps ? `${r.substeps} x ${r.iterations}` : String(r.passes));

/** The markdown tables of the fluid records: steps (dam breaks and the scaling series), parts, the count curve. */
export function fluidTable(records) {
	const out = [];
	const steps = records.filter((r) => r.fluid && r.mode === 'step');
	if (steps.length) {
		const head = ['case', 'impl', 'particles', 'substeps x iters', 'ms/step (median)', '(min)', '(max)', 'vs native', 'peer / wasm',
			'density error', 'max density', 'at warm-up: error', 'max', 'neighbours'];
		out.push(markdown(head, steps.map((r) => [r.case, r.impl, fmt.int(r.particles), split(r), fmt.ms(r.ms_median), fmt.ms(r.ms_min),
			fmt.ms(Math.max(...r.runs)), fmt.ratio(r.ratio_vs_native), r.wasm_speedup === undefined ? '—' : `${fmt.ratio(r.wasm_speedup)} (wasm faster)`,
			pct(r.density_error), dens(r.max_density), pct(r.density_error_warmup), dens(r.max_density_warmup),
			r.mean_neighbours === undefined ? '—' : r.mean_neighbours.toFixed(1)])));
	}
	const parts = records.filter((r) => r.fluid && r.mode === 'part');
	if (parts.length) {
		const head = ['case', 'impl', 'part', 'ms/call (median)', '(min)', 'calls/step', 'ms/step (est.)', 'vs native', 'peer ms/call', 'peer / ours',
			'density error'];
		out.push(markdown(head, parts.map((r) => [r.case, r.impl, r.part, fmt.ms(r.ms_median), fmt.ms(r.ms_min), String(r.calls_per_step ?? '—'),
			r.step_ms_est === undefined ? '—' : fmt.ms(r.step_ms_est), fmt.ratio(r.ratio_vs_native),
			r.peer_ms_est === undefined ? '—' : fmt.ms(r.peer_ms_est), fmt.ratio(r.peer_ratio), pct(r.density_error_warmup)])));
	}
	// ms per step against the particle count: every step case of our wasm, native and the peer, by count.
	const counts = [...new Set(steps.map((r) => r.particles))].sort((a, b) => a - b);
	if (counts.length > 1) {
		const at = (n, impl) => steps.find((r) => r.particles === n && r.impl === impl);
		const head = ['particles', 'case', 'wasm ms/step', 'native', 'js', 'wasm / native', 'js / wasm', 'density error wasm', 'js',
			'wasm us / particle'];
		out.push(markdown(head, counts.map((n) => {
			const w = at(n, 'wasm'), nat = at(n, 'native'), js = at(n, 'js');
			const any = w ?? nat ?? js;
			return [fmt.int(n), any.case, w ? fmt.ms(w.ms_median) : '—', nat ? fmt.ms(nat.ms_median) : '—', js ? fmt.ms(js.ms_median) : '—',
				w && nat ? fmt.ratio(w.ms_median / nat.ms_median) : '—', w && js ? fmt.ratio(js.ms_median / w.ms_median) : '—',
				pct(w?.density_error), pct(js?.density_error), w ? (1000 * w.ms_median / n).toFixed(3) : '—'];
		})));
	}
	return out.join('\n\n');
}

/** The issue's fluid targets, each from this run's records (the lines look like report.mjs targets'). */
export function fluidTargets(records) {
	const out = [];
	const line = (what, value, target, pass, note = '') =>
		out.push(`  ${what.padEnd(44)} ${value.padStart(10)}   ${target.padEnd(16)} ${pass === null ? '    ' : pass ? 'MET ' : 'MISS'}${note ? `  ${note}` : ''}`);
	const find = (pred) => records.find(pred);
	const dams = [...new Set(records.filter((r) => r.fluid && r.mode === 'step' && r.case.startsWith('fluid-dam-')).map((r) => r.case))];
	for (const name of dams) {
		const wasm = find((r) => r.case === name && r.impl === 'wasm');
		if (!wasm) continue;
		const native = find((r) => r.case === name && r.impl === 'native');
		const limit = wasm.particles >= 25000 ? 16.7 : 4;
		line(`${name} wasm ms/step (${fmt.int(wasm.particles)}, ${split(wasm)} passes)`, fmt.ms(wasm.ms_median), `<= ${limit}`, wasm.ms_median <= limit,
			`runs ${wasm.runs.map(fmt.ms).join(', ')} ms; density error ${pct(wasm.density_error)}, max ${dens(wasm.max_density)}` +
			(native ? `; native ${fmt.ms(native.ms_median)} ms (wasm / native ${fmt.ratio(wasm.ratio_vs_native)})` : ''));
		const peer = find((r) => r.case === name && r.impl === 'js');
		if (peer) {
			line(`${name} wasm vs plain-JS PBF (times faster)`, fmt.ratio(peer.wasm_speedup), '>= 5', peer.wasm_speedup >= 5,
				`js ${fmt.ms(peer.ms_median)} ms, min/min ${fmt.ratio(peer.ms_min / wasm.ms_min)}; its density error ${pct(peer.density_error)}, max ${dens(peer.max_density)}`);
		}
	}
	const parts = records.filter((r) => r.fluid && r.mode === 'part' && r.impl === 'wasm');
	if (parts.length) {
		const total = parts.reduce((s, r) => s + r.step_ms_est, 0);
		line(`${parts[0].case.replace(/\/part-.*$/, '')} wasm parts, per step (est.)`, fmt.ms(total), '', null,
			FLUID_PARTS.map((p) => parts.find((r) => r.part === p)).filter(Boolean).map((r) => `${r.part} ${fmt.ms(r.step_ms_est)}`).join(', '));
	}
	for (const r of records.filter((x) => x.fluid && OURS.has(x.impl) && x.stats_error)) {
		line(`${r.case} ${r.impl}: no fluid stats`, '—', '', null, r.stats_error);
		break;
	}
	return out;
}
