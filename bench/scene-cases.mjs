/* scene-cases.mjs -- bench cases that run one of the page's built-in scenes (bench.mjs: the
   cloth-100k case) instead of the bench cloth: the scene, optionally shrunk for --quick, and how
   bench_native is told to build exactly the world the scene builds in wasm. */
import { builtinScenes } from '../web/js/minipbd.js';

/**
 * The built-in scene `c.scene` (normalised by the validator), at its own resolution or, with
 * `c.res`, shrunk to res x res with its pins mapped onto the smaller grid (the whole top row
 * stays the whole top row; the corners stay the corners).
 */
export function builtinCaseScene(c) {
	if (!builtinScenes[c.scene]) throw new Error(`no built-in scene ${c.scene}`);
	const scene = structuredClone(builtinScenes[c.scene]);
	if (c.res) {
		for (const o of scene.objects) {
			if (o.type !== 'cloth') continue;
			const [nu, nv] = o.resolution;
			const top = pinPattern(o) === 'top';
			o.pins = o.pins.map(([i, j]) => [i === nu - 1 ? c.res - 1 : i, j === nv - 1 ? c.res - 1 : j]).filter(([i, j]) => i < c.res && j < c.res);
			if (top) o.pins = Array.from({ length: c.res }, (_, i) => [i, 0]);
			o.resolution = [c.res, c.res];
		}
	}
	return scene;
}

/** 'top' (every particle of row 0), 'corners' (the two top corners) or null. */
function pinPattern(cloth) {
	const nu = cloth.resolution[0];
	const cells = new Set(cloth.pins.map(([i, j]) => j * nu + i));
	if (cells.size === nu && cloth.pins.every(([, j]) => j === 0)) return 'top';
	if (cells.size === 2 && cells.has(0) && cells.has(nu - 1)) return 'corners';
	return null;
}

/**
 * bench_native's description of a scene case: the cloth as World.build() makes it and, as
 * base.NAME=VALUE, every world parameter of the wasm world the scene builds (so both start from
 * the same floats whatever the scene format's defaults are). null when bench_native cannot build
 * the scene: it builds one square cloth in plane xy or xz pinned at its top corners or top row.
 */
export function nativeSceneSpec(engine, c) {
	const scene = builtinCaseScene(c);
	const [o] = scene.objects;
	const pins = o?.type === 'cloth' ? pinPattern(o) : null;
	if (scene.objects.length !== 1 || o.type !== 'cloth' || o.resolution[0] !== o.resolution[1] || o.masses.length > 0 ||
		!pins || scene.colliders.length > 0) return null;
	const world = engine.createWorld(scene);
	try {
		const base = engine.paramNames.map((n) => `base.${n}=${world.getParam(n)}`);
		return [`scene=${c.scene}`, `res=${o.resolution[0]}`, ...base, `cloth.origin=${o.origin.join(':')}`, `cloth.size=${o.size.join(':')}`,
			`cloth.mass=${o.mass}`, `cloth.stiffness=${[o.stiffness.stretch, o.stiffness.shear, o.stiffness.bend].join(':')}`,
			`cloth.plane=${o.plane}`, `cloth.pins=${pins}`].join(',');
	} finally {
		world.destroy();
	}
}

/** The benchmark scene: same values as bench_native.c's BuildCloth and peers.mjs's CLOTH. */
export function clothScene(res) {
	return {
		format: 'minipbd-scene', version: 1,
		name: `bench cloth ${res}x${res}`,
		solver: { dt: 1 / 60, substeps: 1, iterations: 10, gravity: [0, -9.81, 0], damping: 0 },
		ground: { enabled: true, height: 0, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3 },
		objects: [{
			type: 'cloth', name: 'cloth', origin: [-1, 2.5, 0], size: [2, 2], resolution: [res, res], plane: 'xy',
			mass: 0.01, stiffness: { stretch: 1, shear: 1, bend: 0.1 }, pins: [[0, 0], [res - 1, 0]],
		}],
	};
}
