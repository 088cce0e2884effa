/* report-threads.mjs -- what threads-bench.mjs makes of its records: the hash check across thread
   counts and builds, the speed-ups and ratios of the same run, the scaling per stage with its Amdahl estimate for
   more cores, the targets, and the markdown tables. Pure functions of the records: no timing here. */
import { fmt } from './report.mjs';

/** The stages in the order of a step (pbd_StageName: 6 is the step's start, run first, 7 its end, run last). */
export const STAGES = ['start', 'predict', 'contacts', 'solve', 'update', 'velocities', 'commit', 'end'];
/** The thread counts the estimate extrapolates to. */
export const ESTIMATE_THREADS = [4, 8];

const label = (r) => (r.impl === 'wasm' ? 'wasm (single-thread build)' : `${r.impl} x${r.threads}`);
const find = (records, c, impl, threads, mode = 'step') =>
	records.find((r) => r.case === c && r.impl === impl && r.mode === mode && (threads === null || r.threads === threads));

/**
 * Same bits for any thread count (a must-have of the threaded build): within a case every record (any build, any thread count)
 * ends the warm-up on one hash, and every record of the same mode (the same number of timed steps) on one final
 * hash. Returns { ok, lines } with one line per case naming the hashes.
 */
export function threadsHashCheck(records) {
	const lines = [];
	let ok = true;
	for (const c of [...new Set(records.map((r) => r.case))]) {
		const mine = records.filter((r) => r.case === c);
		const warm = new Set(mine.map((r) => r.hash_after_warmup));
		const finals = {};
		for (const r of mine) (finals[r.mode] ??= new Set()).add(r.hash_final);
		const good = warm.size === 1 && Object.values(finals).every((s) => s.size === 1);
		ok &&= good;
		for (const r of mine) r.hash_match = good;
		const counts = [...new Set(mine.filter((r) => r.threads).map((r) => r.threads))].sort((a, b) => a - b).join(', ');
		lines.push(`hash ${c}: ${good ? 'equal' : 'DIFFERENT'} on ${new Set(mine.map((r) => r.impl)).size} builds at threads ${counts}: ` +
			`warm-up ${[...warm].join(' / ')}, final ${Object.entries(finals).map(([m, s]) => `${m} ${[...s].join(' / ')}`).join(', ')}`);
	}
	return { ok, lines };
}

/** Same-run ratios onto the step records: speedup_vs_1 (ms at 1 thread / ms here, same build), ratio_vs_single
 *  (threaded wasm / the single-thread wasm), ratio_vs_native (wasm / native at the same thread count). */
export function threadsDerive(records) {
	for (const r of records.filter((x) => x.mode === 'step')) {
		const one = r.threads ? find(records, r.case, r.impl, 1) : null;
		if (one && r.threads !== 1) {
			r.speedup_vs_1 = one.ms_median / r.ms_median;
			r.speedup_vs_1_min = one.ms_min / r.ms_min;
		}
		const single = find(records, r.case, 'wasm', null);
		if (r.impl === 'wasm-threads' && single) r.ratio_vs_single = r.ms_median / single.ms_median;
		const native = find(records, r.case, 'native', r.impl === 'wasm' ? 1 : r.threads);
		if (r.impl !== 'native' && native) r.ratio_vs_native = r.ms_median / native.ms_median;
	}
}

/**
 * The scaling per stage of each case on each threaded build, from its stage records at 1 and 2 threads: per stage
 * t1, t2 (ms per step), S2 = t1 / t2, its share of the 1-thread step, the serial fraction f from Amdahl's law
 * (S2 = 1 / (f + (1 - f) / 2), so f = 2 / S2 - 1, clamped to [0, 1]) and t1 (f + (1 - f) / n) for n in
 * ESTIMATE_THREADS; the step's estimate is the sum. The stage that stops scaling: the largest serial time t1 f
 * (what no thread count removes), named with its share of the 8-thread estimate.
 */
export function scaling(records) {
	const out = [];
	for (const r1 of records.filter((r) => r.mode === 'stages' && r.threads === 1)) {
		const r2 = find(records, r1.case, r1.impl, 2, 'stages');
		if (!r2) continue;
		const total1 = STAGES.reduce((s, k) => s + r1.stage_ms[k], 0), total2 = STAGES.reduce((s, k) => s + r2.stage_ms[k], 0);
		const stages = STAGES.map((stage) => {
			const t1 = r1.stage_ms[stage], t2 = r2.stage_ms[stage];
			const s2 = t2 > 0 ? t1 / t2 : 1;
			const f = Math.min(1, Math.max(0, 2 / s2 - 1));
			const est = Object.fromEntries(ESTIMATE_THREADS.map((n) => [n, t1 * (f + (1 - f) / n)]));
			return { stage, units: r1.stage_units[stage], t1, t2, speedup: s2, share: total1 > 0 ? t1 / total1 : 0, serial_fraction: f, serial_ms: t1 * f, est };
		});
		const estimate = Object.fromEntries(ESTIMATE_THREADS.map((n) => [n, stages.reduce((s, x) => s + x.est[n], 0)]));
		const worst = stages.reduce((a, b) => (b.serial_ms > a.serial_ms ? b : a));
		const last = ESTIMATE_THREADS.at(-1);
		out.push({
			case: r1.case, impl: r1.impl, stages, ms_1: total1, ms_2: total2, speedup: total1 / total2, estimate_ms: estimate,
			estimate_speedup: Object.fromEntries(ESTIMATE_THREADS.map((n) => [n, total1 / estimate[n]])),
			stops_scaling: worst.stage, stops_scaling_share: worst.est[last] / estimate[last],
		});
	}
	return out;
}

function markdown(head, right, rows) {
	const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const line = (cells) => `| ${cells.map((c, i) => (right[i] ? c.padStart(width[i]) : c.padEnd(width[i]))).join(' | ')} |`;
	const rule = `|${width.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
	return [line(head), rule, ...rows.map(line)].join('\n');
}

const pct = (x) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;
const ratio = (x) => (x === undefined ? '—' : `${x.toFixed(2)}x`);

/** The quality next to the time: stretch for cloth, density error for fluid, the solids' own figure. */
export function qualityText(r) {
	if (r.fluid) return r.density_error === null || r.density_error === undefined ? '—' : `density error ${pct(r.density_error)}`;
	if (r.solid === 'rigid') return r.max_shape_error === undefined ? '—' : `shape error ${(1000 * r.max_shape_error).toFixed(2)} mm`;
	if (r.solid === 'soft') return r.volume_error_max === undefined ? '—' : `volume error ${pct(r.volume_error_max)}`;
	return `max stretch ${fmt.stretch(r.max_stretch_final)}`;
}

export function threadsTable(records) {
	const head = ['case', 'build', 'threads', 'ms/step (median)', '(min)', 'cores used', 'speed-up vs 1 thread', 'vs single-thread wasm', 'vs native', 'quality', 'hash'];
	const rows = records.filter((r) => r.mode === 'step').map((r) => [r.case, label(r), r.threads ? String(r.threads) : '1',
		fmt.ms(r.ms_median), fmt.ms(r.ms_min), r.cpu_per_wall === undefined ? '—' : r.cpu_per_wall.toFixed(2), r.speedup_vs_1 ? `${ratio(r.speedup_vs_1)} (min ${ratio(r.speedup_vs_1_min)})` : '—',
		ratio(r.ratio_vs_single), ratio(r.ratio_vs_native), qualityText(r), r.hash_final]);
	return markdown(head, [false, false, true, true, true, true, true, true, true, false, false], rows);
}

export function stageTable(scales) {
	const head = ['case', 'build', 'stage', 'units/step', 'ms/step 1 thread', '2 threads', 'speed-up', 'share', 'serial f', 'est. 4', 'est. 8'];
	const rows = [];
	for (const s of scales) {
		for (const x of s.stages) {
			rows.push([s.case, s.impl, x.stage, String(x.units), fmt.ms(x.t1), fmt.ms(x.t2), ratio(x.speedup), pct(x.share),
				x.serial_fraction.toFixed(2), fmt.ms(x.est[4]), fmt.ms(x.est[8])]);
		}
		rows.push([s.case, s.impl, '**step**', '', fmt.ms(s.ms_1), fmt.ms(s.ms_2), ratio(s.speedup), '100%', '',
			fmt.ms(s.estimate_ms[4]), fmt.ms(s.estimate_ms[8])]);
	}
	return markdown(head, [false, false, false, true, true, true, true, true, true, true, true], rows);
}

export function estimateLines(scales) {
	return scales.map((s) => `estimate ${s.case} ${s.impl}: ${fmt.ms(s.ms_1)} ms at 1 thread, ${fmt.ms(s.ms_2)} at 2 (measured, stage by stage), ` +
		`${fmt.ms(s.estimate_ms[4])} at 4 (${ratio(s.estimate_speedup[4])}), ${fmt.ms(s.estimate_ms[8])} at 8 (${ratio(s.estimate_speedup[8])}); ` +
		`stops scaling: ${s.stops_scaling} (${pct(s.stops_scaling_share)} of the 8-thread step)`);
}

/** The issue's targets against this run: >= 1.7x at 2 threads on every case and build, the 100k cloth <= 8.5 ms in wasm. */
export function threadsTargets(records, clothCase) {
	const lines = [];
	for (const r of records.filter((x) => x.mode === 'step' && x.threads === 2 && x.speedup_vs_1)) {
		lines.push(`${r.case} ${r.impl}: ${ratio(r.speedup_vs_1)} at 2 threads (min vs min ${ratio(r.speedup_vs_1_min)}), target >= 1.7x: ${r.speedup_vs_1 >= 1.7 ? 'met' : 'MISSED'}`);
	}
	const cloth = find(records, clothCase, 'wasm-threads', 2);
	if (cloth) lines.push(`${clothCase} wasm-threads x2: ${fmt.ms(cloth.ms_median)} ms per step (min ${fmt.ms(cloth.ms_min)}), target <= 8.5 ms: ${cloth.ms_median <= 8.5 ? 'met' : 'MISSED'}`);
	for (const r of records.filter((x) => x.mode === 'step' && x.impl === 'wasm-threads' && x.threads === 1 && x.ratio_vs_single)) {
		lines.push(`${r.case}: threaded build at 1 thread / single-thread build = ${ratio(r.ratio_vs_single)} (the cost of atomics and shared memory)`);
	}
	return lines;
}
