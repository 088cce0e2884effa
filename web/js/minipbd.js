/* minipbd.js -- loads the MiniPBD wasm and wraps a world in a small JS API.
   Runs unchanged in browsers and in Node 20 (ES module, no dependencies but scene.js).

     import { loadMiniPBD } from './minipbd.js';
     const pbd = await loadMiniPBD('./minipbd.wasm');   // or bytes (Node: fs.readFileSync)
     const world = pbd.createWorld(scene);               // scene: see scene.js / README
     world.step(1);
     gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.positions);  // a view over wasm memory

   The memory map (where buffers live) is declared once in C (pbd_World_GetBuffer,
   src/wasm/api.c's record layouts) and read here once. Views are rebuilt only when
   wasm memory has grown, which can happen in createWorld but never in a step (the
   world's pool is reserved at creation), so the views a frame holds stay valid. */
import { validateScene } from './scene.js';

/** Thrown for refused calls; `.code` names the kind, the message names what is wrong. */
export class MiniPBDError extends Error {
	constructor(code, message) {
		super(message);
		this.name = 'MiniPBDError';
		this.code = code;
	}
}

// Mirrors src/minipbd.h enums (pbdBuffer, pbdConstraintKind).
const BUFFER = { positions: 0, velocities: 1, normals: 2, triangles: 3, lines: 4, errors: 5, convergence: 6 };
const KIND = { stretch: 0, shear: 1, bend: 2, chain: 3 };
// Mirrors the records of src/wasm/api.c, written to this engine's exchange block (its own malloc'd memory).
const STATS_FIELDS = ['steps', 'particles', 'constraints', 'attachments', 'maxError', 'meanError', 'maxStretch',
	'kineticEnergy', 'potentialEnergy'];
const OBJECT_FIELDS = ['type', 'firstParticle', 'particleCount', 'firstConstraint', 'constraintCount',
	'firstTriangle', 'triangleCount', 'firstLine', 'lineCount', 'resolutionU', 'resolutionV', 'tornConstraints'];
const MAX_POINTERS = 16; // attachments reserved per world: one per finger and then some
const COLLIDER_TYPES = ['sphere', 'capsule', 'box']; // mirrors pbdShapeType
// Mirrors pbdColliderInfo, written as float64 into the exchange block by pbdjs_GetColliderInfo.
const COLLIDER_FIELDS = 16;

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

async function fetchBytes(source) {
	if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
	const url = source instanceof URL ? source : new URL(String(source), typeof location !== 'undefined' ? location.href : undefined);
	if (url.protocol === 'file:') {
		// Node only: fetch() does not read files. The import never runs in a browser.
		const fs = await import('node:fs/promises');
		return fs.readFile(url);
	}
	const response = await fetch(url);
	if (!response.ok) throw new MiniPBDError('load', `could not load ${url.href}: HTTP ${response.status}`);
	return response.arrayBuffer();
}

/**
 * Loads the engine. `source` is a URL (string or URL; file: URLs work in Node) or the
 * wasm bytes. Resolves to an engine whose createWorld builds worlds.
 * @param {string|URL|ArrayBuffer|Uint8Array} source
 */
export async function loadMiniPBD(source) {
	const bytes = await fetchBytes(source);
	const module = await WebAssembly.compile(bytes);
	const engine = new Engine();
	// The standalone wasm imports almost nothing; answer whatever it names so a libc
	// detail (WASI, memory-growth notices) cannot stop it from loading.
	const imports = {};
	for (const imp of WebAssembly.Module.imports(module)) {
		if (imp.kind !== 'function') continue;
		imports[imp.module] ??= {};
		imports[imp.module][imp.name] = imp.name === 'emscripten_notify_memory_growth'
			? () => engine.refreshViews()
			: imp.name === 'proc_exit'
				? (code) => { throw new MiniPBDError('abort', `engine exited with code ${code}`); }
				: () => 0;
	}
	const instance = await WebAssembly.instantiate(module, imports);
	engine.attach(instance.exports);
	return engine;
}

class Engine {
	attach(exports) {
		this.exports = exports;
		this.memory = exports.memory;
		if (exports._initialize) exports._initialize();
		this.refreshViews();
		this.paramIds = new Map();
		for (let i = 0; ; i++) {
			const ptr = exports.pbd_ParamName(i);
			if (!ptr) break;
			this.paramIds.set(this.readString(ptr), i);
		}
		this.exchange = exports.malloc(exports.pbdjs_ExchangeBytes()); // the records' block: this engine's, not the core's
		this.refreshViews();
		this.worlds = new Set();
	}

	/** Rebuilds the heap views when memory has grown (its buffer is then a new object). */
	refreshViews() {
		if (this.u8 && this.u8.buffer === this.memory.buffer) return;
		const buf = this.memory.buffer;
		this.u8 = new Uint8Array(buf);
		this.i32 = new Int32Array(buf);
		this.u32 = new Uint32Array(buf);
		this.f32 = new Float32Array(buf);
		this.f64 = new Float64Array(buf);
		this.generation = (this.generation ?? 0) + 1;
	}

	readString(ptr) {
		this.refreshViews();
		let end = ptr;
		while (this.u8[end] !== 0) end++;
		return new TextDecoder().decode(this.u8.subarray(ptr, end));
	}

	/** The message of the last refused call on `world` (a live world id), else of the last call that had no world. */
	lastError(world = 0) {
		const e = this.exports;
		return this.readString(world > 0 && e.pbd_World_IsValid(world) ? e.pbd_World_GetLastErrorMessage(world) : e.pbd_GetLastErrorMessage());
	}

	/** Throws a MiniPBDError carrying the engine's message (`world`'s, if given) when `result` is negative. */
	check(result, code = 'engine', world = 0) {
		if (result < 0) throw new MiniPBDError(code, this.lastError(world));
		return result;
	}

	/** Names of the settable parameters, in C order. */
	get paramNames() { return [...this.paramIds.keys()]; }

	/**
	 * Builds a world from a scene description (validated here; throws SceneError or
	 * MiniPBDError). On failure nothing is left behind.
	 */
	createWorld(input) {
		const scene = validateScene(input);
		const e = this.exports;
		let particles = 0, constraints = 0, triangles = 0, lines = 0;
		for (const o of scene.objects) {
			if (o.type === 'chain') e.pbdjs_ChainCounts(o.segments, this.exchange);
			else e.pbdjs_ClothCounts(o.resolution[0], o.resolution[1], this.exchange);
			this.refreshViews();
			const c = this.i32.subarray(this.exchange >> 2, (this.exchange >> 2) + 3);
			particles += c[0];
			constraints += c[1];
			if (o.type === 'chain') lines += c[2];
			else triangles += c[2];
		}
		const id = e.pbdjs_CreateWorld(Math.max(particles, 1), Math.max(constraints, 1), Math.max(triangles, 1),
			Math.max(lines, 1), MAX_POINTERS, scene.objects.length, Math.max(scene.colliders.length, 1));
		this.refreshViews();
		this.check(id, 'create');
		const world = new World(this, id, scene);
		try {
			world.build();
		} catch (err) {
			e.pbd_DestroyWorld(id);
			throw err;
		}
		this.worlds.add(world);
		return world;
	}
}

/** Parameter name -> where it lives in a scene description (so links carry changes). */
const SCENE_PARAM = {
	dt: (s, v) => { s.solver.dt = v; },
	substeps: (s, v) => { s.solver.substeps = v; },
	iterations: (s, v) => { s.solver.iterations = v; },
	damping: (s, v) => { s.solver.damping = v; },
	gravityX: (s, v) => { s.solver.gravity[0] = v; },
	gravityY: (s, v) => { s.solver.gravity[1] = v; },
	gravityZ: (s, v) => { s.solver.gravity[2] = v; },
	groundEnabled: (s, v) => { s.ground.enabled = v !== 0; },
	groundHeight: (s, v) => { s.ground.height = v; },
	restitution: (s, v) => { s.ground.restitution = v; },
	staticFriction: (s, v) => { s.ground.staticFriction = v; },
	kineticFriction: (s, v) => { s.ground.kineticFriction = v; },
	maxSpeed: (s, v) => { s.solver.maxSpeed = v; },
	'stiffness.stretch': (s, v) => { for (const o of s.objects) if (o.type === 'cloth') o.stiffness.stretch = v; },
	'stiffness.shear': (s, v) => { for (const o of s.objects) if (o.type === 'cloth') o.stiffness.shear = v; },
	'stiffness.bend': (s, v) => { for (const o of s.objects) if (o.type === 'cloth') o.stiffness.bend = v; },
	'stiffness.chain': (s, v) => { for (const o of s.objects) if (o.type === 'chain') o.stiffness = v; },
	thickness: (s, v) => { s.solver.thickness = v; },
	tethers: (s, v) => { s.solver.tethers = v; },
	tetherSlack: (s, v) => { s.solver.tetherSlack = v; },
	selfCollision: (s, v) => { s.solver.selfCollision = v !== 0; },
	selfFriction: (s, v) => { s.solver.selfFriction = v; },
	tearStretch: (s, v) => { s.solver.tearStretch = v; },
	windX: (s, v) => { s.wind.velocity[0] = v; },
	windY: (s, v) => { s.wind.velocity[1] = v; },
	windZ: (s, v) => { s.wind.velocity[2] = v; },
	airDensity: (s, v) => { s.wind.density = v; },
	drag: (s, v) => { s.wind.drag = v; },
	lift: (s, v) => { s.wind.lift = v; },
};

/** Local indices of an object's particles whose mass its `mass` does not set: pins and `masses` ranges. */
function particlesWithOwnMass(object) {
	const keep = new Set();
	if (object.type === 'chain') {
		for (const i of object.pins) keep.add(i);
		for (const m of object.masses) for (let i = m.from; i <= m.to; i++) keep.add(i);
	} else {
		const nu = object.resolution[0];
		for (const [i, j] of object.pins) keep.add(j * nu + i);
		for (const m of object.masses) {
			for (let j = m.from[1]; j <= m.to[1]; j++) for (let i = m.from[0]; i <= m.to[0]; i++) keep.add(j * nu + i);
		}
	}
	return keep;
}

export class World {
	constructor(engine, id, scene) {
		this.engine = engine;
		this.id = id;
		this.scene = structuredClone(scene);
		this.lastStepMs = 0;
		this.views = null;
		this.destroyed = false;
		this.attachmentIds = new Set();
	}

	/** engine.check with this world's own message. */
	check(result, code = 'engine') { return this.engine.check(result, code, this.id); }

	build() {
		const e = this.engine.exports;
		const s = this.scene;
		const check = (r) => this.check(r);
		// Parameters first: objects take their default stiffness from them.
		const g = s.solver.gravity;
		const ground = s.ground;
		const params = {
			dt: s.solver.dt, substeps: s.solver.substeps, iterations: s.solver.iterations, damping: s.solver.damping,
			gravityX: g[0], gravityY: g[1], gravityZ: g[2],
			groundEnabled: ground.enabled ? 1 : 0, groundHeight: ground.height, restitution: ground.restitution,
			staticFriction: ground.staticFriction, kineticFriction: ground.kineticFriction, maxSpeed: s.solver.maxSpeed,
			thickness: s.solver.thickness, tethers: s.solver.tethers, tetherSlack: s.solver.tetherSlack,
			selfCollision: s.solver.selfCollision ? 1 : 0, selfFriction: s.solver.selfFriction,
			tearStretch: s.solver.tearStretch,
			windX: s.wind.velocity[0], windY: s.wind.velocity[1], windZ: s.wind.velocity[2],
			airDensity: s.wind.density, drag: s.wind.drag, lift: s.wind.lift,
		};
		for (const [name, value] of Object.entries(params)) this.setParamRaw(name, value);
		s.objects.forEach((o, index) => {
			let first;
			if (o.type === 'chain') {
				first = check(e.pbdjs_AddChain(this.id, ...o.start, ...o.end, o.segments, o.mass));
				check(e.pbd_World_SetObjectStiffness(this.id, index, KIND.chain, o.stiffness));
				for (const m of o.masses) for (let i = m.from; i <= m.to; i++) check(e.pbd_World_SetMass(this.id, first + i, m.mass));
				for (const i of o.pins) check(e.pbd_World_SetInvMass(this.id, first + i, 0));
			} else {
				const [w, h] = o.size;
				const [nu, nv] = o.resolution;
				const v = o.plane === 'xz' ? [0, 0, h] : [0, -h, 0];
				first = check(e.pbdjs_AddCloth(this.id, ...o.origin, w, 0, 0, ...v, nu, nv, o.mass));
				for (const kind of ['stretch', 'shear', 'bend']) {
					check(e.pbd_World_SetObjectStiffness(this.id, index, KIND[kind], o.stiffness[kind]));
				}
				for (const m of o.masses) {
					for (let j = m.from[1]; j <= m.to[1]; j++) {
						for (let i = m.from[0]; i <= m.to[0]; i++) check(e.pbd_World_SetMass(this.id, first + j * nu + i, m.mass));
					}
				}
				for (const [i, j] of o.pins) check(e.pbd_World_SetInvMass(this.id, first + j * nu + i, 0));
			}
		});
		this.objectsVersion = -1;
		for (const c of s.colliders) {
			const q = c.rotation ?? [0, 0, 0, 1];
			const hx = c.halfExtents ?? [0.5, 0.5, 0.5];
			check(e.pbdjs_AddCollider(this.id, COLLIDER_TYPES.indexOf(c.type), ...c.position, ...q, c.radius ?? 0.5,
				c.halfHeight ?? 0.5, ...hx, c.staticFriction, c.kineticFriction, c.restitution));
		}
		// The world-wide stiffness of a kind reads back what the objects use, when they agree.
		const kinds = {
			'stiffness.chain': s.objects.filter((o) => o.type === 'chain').map((o) => o.stiffness),
			'stiffness.stretch': s.objects.filter((o) => o.type === 'cloth').map((o) => o.stiffness.stretch),
			'stiffness.shear': s.objects.filter((o) => o.type === 'cloth').map((o) => o.stiffness.shear),
			'stiffness.bend': s.objects.filter((o) => o.type === 'cloth').map((o) => o.stiffness.bend),
		};
		for (const [name, values] of Object.entries(kinds)) {
			if (values.length > 0 && values.every((v) => v === values[0])) this.setParamRaw(name, values[0]);
		}
	}

	alive() {
		if (this.destroyed) throw new MiniPBDError('destroyed', 'this world was destroyed');
	}

	/** Objects with their particle, constraint and triangle ranges, read again whenever the
	 *  topology has changed (tearing moves triangle ranges and counts torn constraints). */
	get objects() {
		this.alive();
		const version = this.topologyVersion;
		if (this.objectsVersion !== version) {
			const engine = this.engine;
			this.objectsCache = this.scene.objects.map((o, index) => {
				this.check(engine.exports.pbdjs_GetObjectInfo(this.id, index, engine.exchange));
				engine.refreshViews();
				const info = { type: o.type, name: o.name };
				const base = engine.exchange >> 2;
				OBJECT_FIELDS.forEach((f, k) => { if (f !== 'type') info[f] = engine.i32[base + k]; });
				return info;
			});
			this.objectsVersion = version;
		}
		return this.objectsCache;
	}

	/** Typed-array views over the world's buffers; rebuilt only if wasm memory grew. */
	view(name) {
		this.alive();
		const engine = this.engine;
		engine.refreshViews();
		if (!this.views || this.views.generation !== engine.generation || this.views.topology !== this.topologyVersion) {
			const e = engine.exports;
			const make = (buffer, Type, per) => {
				const ptr = e.pbd_World_GetBuffer(this.id, buffer, 0);
				const count = e.pbd_World_GetCount(this.id, buffer);
				return new Type(engine.memory.buffer, ptr, count * per);
			};
			this.views = {
				generation: engine.generation,
				topology: this.topologyVersion,
				positions: make(BUFFER.positions, Float32Array, 4),
				velocities: make(BUFFER.velocities, Float32Array, 4),
				normals: make(BUFFER.normals, Float32Array, 4),
				triangles: make(BUFFER.triangles, Uint32Array, 3),
				lines: make(BUFFER.lines, Uint32Array, 2),
				errors: make(BUFFER.errors, Float32Array, 1),
			};
		}
		return this.views[name];
	}

	/** x, y, z, w (= 1/mass, 0 for pins) per particle. */
	get positions() { return this.view('positions'); }
	/** vx, vy, vz, 0 per particle. */
	get velocities() { return this.view('velocities'); }
	/** Unit normals, 4 floats per particle; call updateNormals() first. */
	get normals() { return this.view('normals'); }
	/** Three particle indices per cloth triangle. */
	get triangles() { return this.view('triangles'); }
	/** Two particle indices per chain segment. */
	get lines() { return this.view('lines'); }
	/** Per particle, the largest relative error of its constraints; call updateErrors() first. */
	get errors() { return this.view('errors'); }
	/** Mean relative constraint error after each solver pass of the last step, when the
	 *  'recordConvergence' parameter is 1 (a fresh view: its length follows the step). */
	get convergence() {
		this.alive();
		const e = this.engine.exports;
		const ptr = e.pbd_World_GetBuffer(this.id, BUFFER.convergence, 0);
		const count = e.pbd_World_GetCount(this.id, BUFFER.convergence);
		this.engine.refreshViews();
		return new Float32Array(this.engine.memory.buffer, ptr, count);
	}
	updateErrors() {
		this.alive();
		this.engine.exports.pbd_World_UpdateErrors(this.id);
	}
	get particleCount() { this.alive(); return this.engine.exports.pbd_World_GetParticleCount(this.id); }
	get constraintCount() { this.alive(); return this.engine.exports.pbd_World_GetConstraintCount(this.id); }
	get topologyVersion() { return this.engine.exports.pbd_World_GetTopologyVersion(this.id); }

	/** Advances n fixed steps of scene.solver.dt. */
	step(n = 1) {
		this.alive();
		if (!Number.isInteger(n) || n < 0 || n > 100000) throw new MiniPBDError('argument', `step count must be an integer in [0, 100000], got ${n}`);
		const t0 = now();
		this.check(this.engine.exports.pbdjs_StepN(this.id, n));
		if (n > 0) this.lastStepMs = (now() - t0) / n;
	}

	updateNormals() {
		this.alive();
		this.engine.exports.pbd_World_UpdateNormals(this.id);
	}

	paramId(name) {
		const id = this.engine.paramIds.get(name);
		if (id === undefined) throw new MiniPBDError('unknown-param', `unknown parameter "${String(name).slice(0, 40)}"; known: ${this.engine.paramNames.join(', ')}`);
		return id;
	}

	setParamRaw(name, value) {
		const id = this.paramId(name);
		if (typeof value !== 'number') throw new MiniPBDError('argument', `parameter ${name} needs a number, got ${typeof value}`);
		this.check(this.engine.exports.pbd_World_SetParam(this.id, id, value), 'argument');
	}

	/** Sets a solver/environment parameter (see engine.paramNames); the scene follows. */
	setParam(name, value) {
		this.alive();
		this.setParamRaw(name, value);
		SCENE_PARAM[name]?.(this.scene, value);
	}

	getParam(name) {
		this.alive();
		return this.engine.exports.pbd_World_GetParam(this.id, this.paramId(name));
	}

	/** The scene description with the current parameters: what a link should carry. */
	describe() { return structuredClone(this.scene); }

	vec3(v, what) {
		if (!Array.isArray(v) && !ArrayBuffer.isView(v)) throw new MiniPBDError('argument', `${what} must be [x, y, z]`);
		if (v.length !== 3 || ![0, 1, 2].every((i) => typeof v[i] === 'number')) throw new MiniPBDError('argument', `${what} must be three numbers`);
		return v;
	}

	/** Pulls `particle` toward `target` with stiffness k in [0, 1]. Returns an id. */
	addAttachment(particle, target, stiffness = 1) {
		this.alive();
		const t = this.vec3(target, 'attachment target');
		if (!Number.isInteger(particle)) throw new MiniPBDError('argument', `particle must be an integer index, got ${particle}`);
		const id = this.check(this.engine.exports.pbd_World_AddAttachment(this.id, particle, t[0], t[1], t[2], stiffness), 'argument');
		this.attachmentIds.add(id);
		return id;
	}

	moveAttachment(id, target) {
		this.alive();
		const t = this.vec3(target, 'attachment target');
		this.check(this.engine.exports.pbd_World_MoveAttachment(this.id, id, t[0], t[1], t[2]), 'argument');
	}

	removeAttachment(id) {
		this.alive();
		this.check(this.engine.exports.pbd_World_RemoveAttachment(this.id, id), 'argument');
		this.attachmentIds.delete(id);
	}

	/** Moves a particle (and its prediction) to `position`; its velocity is kept. */
	setPosition(particle, position) {
		this.alive();
		const p = this.vec3(position, 'position');
		this.check(this.engine.exports.pbd_World_SetPosition(this.id, particle, p[0], p[1], p[2]), 'argument');
	}

	/** Sets a particle's velocity; pins (w = 0) keep none. */
	setVelocity(particle, velocity) {
		this.alive();
		const v = this.vec3(velocity, 'velocity');
		this.check(this.engine.exports.pbd_World_SetVelocity(this.id, particle, v[0], v[1], v[2]), 'argument');
	}

	/** Sets a particle's mass in kg (w = 1/m); use setInvMass(i, 0) to pin. */
	setMass(particle, mass) {
		this.alive();
		this.check(this.engine.exports.pbd_World_SetMass(this.id, particle, mass), 'argument');
	}

	setInvMass(particle, invMass) {
		this.alive();
		this.check(this.engine.exports.pbd_World_SetInvMass(this.id, particle, invMass), 'argument');
	}

	/**
	 * Object `index` weighs `mass` kg per particle, as if its scene had said `mass`: its pins and its
	 * `masses` ranges keep theirs. The description follows, so links carry it. Goes through setMass, so
	 * whatever wraps setMass (recorder.js) sees every particle. A refused mass changes nothing.
	 */
	setObjectMass(index, mass) {
		this.alive();
		const o = this.scene.objects[index];
		if (!Number.isInteger(index) || !o) throw new MiniPBDError('argument', `object ${index} of ${this.scene.objects.length}`);
		if (typeof mass !== 'number') throw new MiniPBDError('argument', `mass must be a number, got ${typeof mass}`);
		const { firstParticle, particleCount } = this.objects[index];
		const keep = particlesWithOwnMass(o);
		for (let k = 0; k < particleCount; k++) if (!keep.has(k)) this.setMass(firstParticle + k, mass); // the first refusal throws before any change
		o.mass = mass;
	}

	get attachmentCount() { this.alive(); return this.engine.exports.pbd_World_GetAttachmentCount(this.id); }

	/** Colliders as they are now: [{type, position, rotation, radius, halfHeight, halfExtents, ...}]. */
	get colliders() {
		this.alive();
		const engine = this.engine;
		const n = engine.exports.pbd_World_GetColliderCount(this.id);
		const out = [];
		for (let i = 0; i < n; i++) {
			this.check(engine.exports.pbdjs_GetColliderInfo(this.id, i, engine.exchange));
			engine.refreshViews();
			const f = engine.f64.subarray(engine.exchange >> 3, (engine.exchange >> 3) + COLLIDER_FIELDS);
			out.push({
				type: COLLIDER_TYPES[f[0]], name: this.scene.colliders[i]?.name ?? `collider ${i + 1}`,
				position: [f[1], f[2], f[3]], rotation: [f[4], f[5], f[6], f[7]], radius: f[8], halfHeight: f[9],
				halfExtents: [f[10], f[11], f[12]], staticFriction: f[13], kineticFriction: f[14], restitution: f[15],
			});
		}
		return out;
	}

	/** Moves collider i (kinematic: particles feel the motion through contact and friction). */
	setColliderTransform(index, position, rotation = [0, 0, 0, 1]) {
		this.alive();
		const p = this.vec3(position, 'collider position');
		if (!Array.isArray(rotation) || rotation.length !== 4 || !rotation.every((v) => typeof v === 'number')) {
			throw new MiniPBDError('argument', 'collider rotation must be a quaternion [x, y, z, w]');
		}
		this.check(this.engine.exports.pbd_World_SetColliderTransform(this.id, index, p[0], p[1], p[2], ...rotation), 'argument');
		const c = this.scene.colliders[index];
		if (c) {
			c.position = [p[0], p[1], p[2]];
			if (c.type !== 'sphere') c.rotation = [...rotation];
		}
	}

	/**
	 * Sets a collider's friction and restitution (pbd_World_SetColliderMaterial): any of
	 * { staticFriction, kineticFriction, restitution }, the others kept. Out-of-range or non-finite values are
	 * refused with a MiniPBDError naming the field, and nothing changes. The description (describe()) follows.
	 */
	setColliderMaterial(index, material) {
		this.alive();
		const c = this.scene.colliders[index];
		if (!Number.isInteger(index) || !c) throw new MiniPBDError('argument', `collider ${index} of ${this.scene.colliders.length}`);
		if (material === null || typeof material !== 'object') throw new MiniPBDError('argument', 'collider material must be an object');
		const next = {};
		for (const key of ['staticFriction', 'kineticFriction', 'restitution']) {
			const v = material[key] ?? c[key];
			if (typeof v !== 'number') throw new MiniPBDError('argument', `collider ${key} must be a number`);
			next[key] = v;
		}
		this.check(
			this.engine.exports.pbd_World_SetColliderMaterial(this.id, index, next.staticFriction, next.kineticFriction, next.restitution),
			'argument',
		);
		Object.assign(c, next);
	}

	/** Nearest collider hit by the ray: { index, t } or null. */
	pickCollider(origin, dir) {
		this.alive();
		const o = this.vec3(origin, 'ray origin'), d = this.vec3(dir, 'ray direction');
		const index = this.engine.exports.pbdjs_RayCastColliders(this.id, o[0], o[1], o[2], d[0], d[1], d[2], this.engine.exchange);
		if (index < 0) return null;
		this.engine.refreshViews();
		return { index, t: this.engine.f64[this.engine.exchange >> 3] };
	}

	/** Nearest particle to the ray (origin, dir) within `radius`, first along the ray; -1 if none. */
	pick(origin, dir, radius) {
		this.alive();
		const o = this.vec3(origin, 'ray origin'), d = this.vec3(dir, 'ray direction');
		return this.engine.exports.pbd_World_RayPick(this.id, o[0], o[1], o[2], d[0], d[1], d[2], radius);
	}

	/** Errors, energies and counts of the current state, plus the last step's time. */
	stats() {
		this.alive();
		const engine = this.engine;
		this.check(engine.exports.pbdjs_GetStats(this.id, engine.exchange));
		engine.refreshViews();
		const out = {};
		const base = engine.exchange >> 3;
		STATS_FIELDS.forEach((f, k) => { out[f] = engine.f64[base + k]; });
		out.stepMs = this.lastStepMs;
		return out;
	}

	/** FNV-1a of positions and velocities: equal hashes mean bit-identical states. */
	hash() { this.alive(); return this.engine.exports.pbd_World_Hash(this.id) >>> 0; }

	destroy() {
		if (this.destroyed) return;
		this.engine.exports.pbd_DestroyWorld(this.id);
		this.engine.worlds.delete(this);
		this.destroyed = true;
		this.views = null;
	}
}
