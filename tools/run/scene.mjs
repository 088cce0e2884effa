// scene.mjs — the scene minipbd-run runs: a scene file (the page's format, checked by format/scene.js before the
// wasm is loaded), a link (its fragment decoded as the page decodes it) or builtin:NAME, and an OBJ model added to
// it as a body.

import fs from 'node:fs';
import path from 'node:path';
import { BUILTIN_SCENE_IDS, loadBuiltinScene, decodeRun, parseObj, ObjError, OBJ_LIMITS, SCENE_VERSION, SCENE_LIMITS, parseSceneFile,
	checkSceneFileSize, MESH_FIT } from './web.mjs';
import { UsageError } from './args.mjs';

/** The scene to run and the recording to replay on it (null unless a link carries one). */
export async function readScene(arg) {
	if (arg.startsWith('builtin:')) {
		const name = arg.slice('builtin:'.length);
		if (!BUILTIN_SCENE_IDS.includes(name)) throw new UsageError(`no built-in scene "${name}"; there are: ${BUILTIN_SCENE_IDS.join(', ')}`);
		return { scene: await loadBuiltinScene(name), replay: null };
	}
	const hash = arg.indexOf('#');
	if (hash >= 0 || arg.startsWith('s=')) {
		const { scene, replay } = await decodeRun(hash >= 0 ? arg.slice(hash) : arg);
		return { scene, replay };
	}
	const stat = fs.statSync(arg, { throwIfNoEntry: false });
	if (!stat) throw new UsageError(`no such scene file: ${arg}`);
	// The page's reader (format/scene-file.js): the same checks, limits and messages as a dropped file and a link.
	checkSceneFileSize(stat.size, arg);
	return { scene: parseSceneFile(fs.readFileSync(arg), arg), replay: null };
}

/** The OBJ file as a body: centred over the origin in x and z, its lowest point 0.5 m above y = 0; scaled to
 *  `size` m (its longest side), or fitted to MESH_FIT.size when it is far outside the world's scale (in
 *  millimetres, microscopic) as the scene reader does, before it is placed. */
export function objBody(file, rigid, resolution, size = null) {
	const stat = fs.statSync(file, { throwIfNoEntry: false });
	if (!stat) throw new UsageError(`no such OBJ file: ${file}`);
	// Refused by its size before a byte of it is read.
	if (stat.size > OBJ_LIMITS.maxBytes) throw new ObjError(0, `it is ${stat.size.toLocaleString('en-US')} bytes; at most ${OBJ_LIMITS.maxBytes.toLocaleString('en-US')} are read`);
	let text;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(file));
	} catch {
		throw new ObjError(0, 'it is not UTF-8 text (a binary file?)');
	}
	const { vertices, triangles, name } = parseObj(text);
	const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
	for (let i = 0; i < vertices.length; i++) {
		lo[i % 3] = Math.min(lo[i % 3], vertices[i]);
		hi[i % 3] = Math.max(hi[i % 3], vertices[i]);
	}
	const longest = Math.max(...hi.map((h, k) => h - lo[k]));
	const target = size ?? (longest > 0 && (longest < MESH_FIT.min || longest > MESH_FIT.max) ? MESH_FIT.size : null);
	const factor = target !== null && longest > 0 ? target / longest : 1;
	for (let k = 0; k < 3; k++) lo[k] *= factor, hi[k] *= factor;
	const v = [];
	for (let i = 0; i < vertices.length; i += 3) v.push([vertices[i] * factor, vertices[i + 1] * factor, vertices[i + 2] * factor]);
	const t = [];
	for (let i = 0; i < triangles.length; i += 3) t.push([triangles[i], triangles[i + 1], triangles[i + 2]]);
	return {
		type: rigid ? 'rigid' : 'soft', name: (name || path.basename(file)).slice(0, SCENE_LIMITS.maxNameLength), shape: 'mesh',
		position: [-(lo[0] + hi[0]) / 2, 0.5 - lo[1], -(lo[2] + hi[2]) / 2], resolution: resolution ?? 8,
		...(target !== null ? { size: target } : {}),
		mesh: { vertices: v, triangles: t },
	};
}

/** The scene with the body added (a copy: built-in scenes are frozen), or an empty scene holding it. */
export function withBody(scene, body) {
	if (scene === null) return { format: 'minipbd-scene', version: SCENE_VERSION, name: `OBJ model: ${body.name}`.slice(0, SCENE_LIMITS.maxNameLength), objects: [body] };
	const copy = JSON.parse(JSON.stringify(scene));
	if (!Array.isArray(copy?.objects)) return copy; // the validator names what is wrong
	copy.objects.push(body);
	return copy;
}
