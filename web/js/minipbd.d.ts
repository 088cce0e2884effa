// Types for editors: web/js/minipbd.js (the engine, the scene format, links, recordings). See docs/api.md "JS API".

export type Vec3 = [number, number, number] | Float32Array | Float64Array;

// The ranges, defaults and units of the solver, ground, wind and fluid fields and of the object stiffnesses are the
// engine's parameter table: web/js/engine/param-table.js (generated from src/minipbd.h PBD_PARAMS).
export interface SolverSettings {
  dt: number; substeps: number; iterations: number; gravity: [number, number, number]; damping: number;
  /** m/s: no particle moves faster */ maxSpeed: number;
  thickness: number; tethers: number; /** a tether lets its particle go (1 + slack) x its rest distance */ tetherSlack: number;
  selfCollision: boolean; /** particles of different objects collide */ collisions: boolean;
  /** friction between particles in contact */ selfFriction: number; tearStretch: number;
  /** times a pass sweeps soft bodies' cells to hold their volume; 0: tet by tet (scenes of version 1 and 2) */ volumeSweeps: number;
}
export interface WindSettings { velocity: [number, number, number]; density: number; drag: number; lift: number; }
export interface ColliderDescription {
  type: 'sphere' | 'capsule' | 'box'; name?: string; position: [number, number, number];
  rotation?: [number, number, number, number]; radius?: number; halfHeight?: number; halfExtents?: [number, number, number];
  staticFriction?: number; kineticFriction?: number; restitution?: number;
  /** drawn as translucent glass (false): how it looks only, the physics is the same */ glass?: boolean;
}
/** The fluid's parameters (Position Based Fluids, seed 002), one set per world; smoothingRadius is 1 to 4 times
 *  spacing (refused otherwise). */
export interface FluidSettings {
  /** kg/m^3 */ restDensity: number; /** particle spacing d (m) */ spacing: number; /** kernel radius h (m) */ smoothingRadius: number;
  /** epsilon, relative to a full lattice's sum of squared gradients */ relaxation: number;
  /** artificial pressure s_corr = -k (W(r) / W(dq h))^n */ scorr: { k: number; n: number; dq: number };
  vorticity: number; viscosity: number; /** steps between re-sorts into cell order, 0 = never */ sortInterval: number;
  /** share of the ground's and colliders' friction fluid particles feel (0 = slip) */ friction: number;
}
export interface GroundSettings { enabled: boolean; height: number; restitution: number; staticFriction: number; kineticFriction: number; }
export interface CameraSettings { target: [number, number, number]; yaw: number; pitch: number; distance: number; fov: number; }
// Each object type's description is declared beside its module (objects/).
import type { ChainObject, ChainStiffnessKind } from './objects/chain.js';
import type { ClothObject, ClothStiffnessKind } from './objects/cloth.js';
import type { SoftObject, SoftStiffnessKind } from './objects/soft.js';
import type { RigidObject, RigidStiffnessKind } from './objects/rigid.js';
import type { BodyShape, Plasticity, SurfaceMesh, TetMesh } from './objects/body-common.js';
import type { FluidObject, EmitterDescription, DrainDescription, FluidStats } from './objects/fluid.js';
export type { ChainObject, ClothObject, SoftObject, RigidObject, BodyShape, Plasticity, SurfaceMesh, TetMesh };
export type { FluidObject, EmitterDescription, DrainDescription, FluidStats };
import type { InflatableObject } from './objects/inflatable.js';
export type { InflatableObject };
export type SceneObject = ChainObject | ClothObject | SoftObject | RigidObject | FluidObject | InflatableObject;
export type StiffnessKind = ChainStiffnessKind | ClothStiffnessKind | SoftStiffnessKind | RigidStiffnessKind;

/** Scene description, format "minipbd-scene" version 3 (docs/scene-format.md). */
export interface Scene {
  /** The address of scene.schema.json, for editors' completion; read, bounded and left out of the normalised scene. */
  $schema?: string;
  format: 'minipbd-scene'; /** 3; version 1 and 2 scenes are read too */ version: 1 | 2 | 3; name?: string;
  solver?: Partial<SolverSettings>; ground?: Partial<GroundSettings> | null; camera?: Partial<CameraSettings>;
  wind?: Partial<WindSettings>; fluid?: Partial<FluidSettings>; colliders?: ColliderDescription[];
  objects: SceneObject[];
}

export type ParamName = 'dt' | 'substeps' | 'iterations' | 'damping' | 'gravityX' | 'gravityY' | 'gravityZ'
  | 'groundEnabled' | 'groundHeight' | 'restitution' | 'staticFriction' | 'kineticFriction'
  | 'maxSpeed' | 'thickness' | 'tethers' | 'tetherSlack' | 'selfCollision' | 'collisions' | 'selfFriction' | 'tearStretch'
  | 'windX' | 'windY' | 'windZ' | 'airDensity' | 'drag' | 'lift' | 'recordConvergence' | 'stiffness.stretch' | 'stiffness.shear' | 'stiffness.bend' | 'stiffness.chain'
  | 'stiffness.edge' | 'stiffness.volume' | 'stiffness.shape'
  | 'fluid.restDensity' | 'fluid.spacing' | 'fluid.smoothingRadius' | 'fluid.relaxation' | 'fluid.scorrK' | 'fluid.scorrN'
  | 'fluid.scorrDq' | 'fluid.vorticity' | 'fluid.viscosity' | 'fluid.sortInterval' | 'fluid.friction' | 'volumeSweeps';

export interface Stats {
  steps: number; particles: number;
  /** every family's constraints, summed (constraintsByFamily) */ constraints: number; attachments: number;
  /** max |length - rest| over distance constraints (m) */ maxError: number;
  /** mean |length - rest| (m) */ meanError: number;
  /** max length/rest - 1 over stretch and chain constraints */ maxStretch: number;
  kineticEnergy: number; potentialEnergy: number;
  /** wall-clock ms per step of the last step() call */ stepMs: number;
  /** the constraints each family holds now, by family name (distance, volume, tethers, attachments, fluid, shapes, ...) */
  constraintsByFamily: Record<string, number>;
}

export interface ObjectInfo {
  type: SceneObject['type']; name: string; firstParticle: number; particleCount: number;
  firstConstraint: number; constraintCount: number; firstTriangle: number; triangleCount: number;
  firstLine: number; lineCount: number; resolutionU: number; resolutionV: number;
  /** constraints of this object broken by tearing so far */ tornConstraints: number;
  /** soft bodies: their volume constraints */ firstTet: number; tetCount: number;
  /** bodies: their skin (World.skinPositions, skinNormals: vertices; skinTriangles: triangles) */
  firstSkinVertex: number; skinVertexCount: number; firstSkinTriangle: number; skinTriangleCount: number;
  /** particles in use: = particleCount, but a fluid's live ones (the rest of its capacity is parked) */ activeParticles: number;
}

export class MiniPBDError extends Error { code: string; }

/** One row of the engine's parameter table (engine/param-table.js). */
export interface ParamInfo {
  id: number; name: ParamName; default: number; min: number; max: number; integer: boolean; boolean: boolean;
  unit: string; owner: string; /** place in the scene format, "" for none */ scene: string;
}

export interface Collider {
  type: 'sphere' | 'capsule' | 'box'; name: string; position: [number, number, number];
  rotation: [number, number, number, number]; radius: number; halfHeight: number;
  halfExtents: [number, number, number]; staticFriction: number; kineticFriction: number; restitution: number;
  glass: boolean;
}

export class World {
  readonly id: number;
  /** The normalised scene with the current parameters. */
  readonly scene: Scene;
  readonly objects: ObjectInfo[];
  /** x, y, z, w (= 1/mass; 0 = pinned) per particle: a view over wasm memory. */
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
  /** valid after updateNormals() */
  readonly normals: Float32Array;
  readonly triangles: Uint32Array;
  /** per particle, the largest relative constraint error; valid after updateErrors() */
  readonly errors: Float32Array;
  /** mean relative constraint error after each pass of the last step (param recordConvergence = 1) */
  readonly convergence: Float32Array;
  updateErrors(): void;
  readonly lines: Uint32Array;
  /** bodies' render surfaces: x, y, z, 1 per skin vertex; valid after updateSkin() */
  readonly skinPositions: Float32Array;
  /** unit normals, 4 floats per skin vertex; valid after updateSkin() */
  readonly skinNormals: Float32Array;
  /** three skin vertex indices per skin triangle */
  readonly skinTriangles: Uint32Array;
  /** Moves every body's skin with its particles (the renderer calls it once per frame), drawn `blend` (0..1, default
   *  1: the state itself) of the way from where the last step began to where it ended, once keepPrevious() was called. */
  updateSkin(blend?: number): void;
  /** x, y, z, w per particle where the last step began (after its start: a hose's new particles, the fluid's cell
   *  sort), or where it was built or set since; kept from the step after keepPrevious() */
  readonly previous: Float32Array;
  /** Keep `previous` each step (the renderer does, to draw between steps); it changes no bit of the physics. */
  keepPrevious(keep?: boolean): void;
  readonly particleCount: number;
  readonly constraintCount: number;
  readonly topologyVersion: number;
  readonly attachmentCount: number;
  /** n steps now (blocking). */
  step(n?: number): void;
  /** Starts n steps and returns at once (the threaded runner, or slices taken by poll: engine/stepper-slices.js);
   *  any other call on the world finishes them first, so the order of calls is step(n)'s. */
  stepAsync(n?: number): void;
  /** True while steps started by stepAsync are in flight (asks nothing of the engine). */
  readonly busy: boolean;
  /** Lets the steps in flight advance for about budgetMs; true when none is left (a failed step throws here). */
  poll(budgetMs?: number): boolean;
  /** Finishes the steps in flight now (blocking). */
  settle(): void;
  updateNormals(): void;
  setParam(name: ParamName, value: number): void;
  getParam(name: ParamName): number;
  describe(): Scene;
  addAttachment(particle: number, target: Vec3, stiffness?: number): number;
  moveAttachment(id: number, target: Vec3): void;
  removeAttachment(id: number): void;
  setPosition(particle: number, position: Vec3): void;
  setVelocity(particle: number, velocity: Vec3): void;
  setMass(particle: number, mass: number): void;
  setInvMass(particle: number, invMass: number): void;
  /** Every particle of object `index` but its pins and `masses` ranges weighs `mass` kg (a soft or rigid body:
   *  `mass` is the whole body's, spread evenly over its particles); the description follows. */
  setObjectMass(index: number, mass: number): void;
  /** One object's stiffness of one of its type's kinds (objects/*.d.ts); the description follows. */
  setObjectStiffness(index: number, kind: StiffnessKind, stiffness: number): void;
  /** A body's plasticity; omitted fields keep their value; the description follows. */
  setObjectPlasticity(index: number, plasticity: Plasticity): void;
  /** A body's contact radius (m), 0 = half its lattice spacing; the description follows. */
  setObjectRadius(index: number, radius: number): void;
  /** Object `index`'s contact radius now (0: thickness / 2). */
  getObjectRadius(index: number): number;
  /** A soft body's volume now and at rest (m^3), and how many of its tets are inverted. */
  getObjectVolume(index: number): { volume: number; rest: number; inverted: number };
  /** A rigid body's transform from the last solve: x = position + R(rotation) (x0 - c0); null for other objects. */
  getBodyTransform(index: number): { position: number[]; rotation: number[] } | null;
  pick(origin: Vec3, dir: Vec3, radius: number): number;
  /** The fluid now: live particles, capacity, emitted and drained so far, full (an emitter stopped at capacity in
   *  the last step), neighbours, densities (rho / rho0) and the density error. */
  fluidStats(): FluidStats;
  /** Object `index`'s live particles now: a fluid's change as emitters and drains work (objects[index] keeps
   *  the count of the last topology change); particleCount for other objects. */
  liveParticles(index: number): number;
  /** rho / rho0 of every live fluid particle into `densities` (0 for other particles). */
  updateDensities(): void;
  /** per particle, rho / rho0; valid after updateDensities() */
  readonly densities: Float32Array;
  /** Changes emitter `index` (scene order over the fluid objects); omitted fields keep their value. The
   *  description follows; a recording carries on/off. */
  setEmitter(index: number, emitter: Partial<EmitterDescription>): void;
  /** Colliders as they are now. */
  readonly colliders: Collider[];
  /** Moves collider i; particles feel the motion through contact and friction. */
  setColliderTransform(index: number, position: Vec3, rotation?: [number, number, number, number]): void;
  /** Friction and restitution of a collider; omitted fields keep their value. Refused values change nothing. */
  setColliderMaterial(index: number, material: { staticFriction?: number; kineticFriction?: number; restitution?: number }): void;
  /** Nearest collider hit by the ray, or null. */
  pickCollider(origin: Vec3, dir: Vec3): { index: number; t: number } | null;
  stats(): Stats;
  /** the constraints each family holds now, by family name; stats().constraints is their sum */
  constraintCounts(): Record<string, number>;
  /** stats() without ever waiting: stats() when the world is free, else the last read with the steps ended since
   *  (counted one by one on the single-thread stepper), the last step's time (or the estimate of the one in
   *  flight) and its progress; busy says steps are in flight, measuredAt the step of the errors and energies. */
  peekStats(): Stats & { busy: boolean; measuredAt?: number; progress: number };
  /** fluidStats() without waiting or searching: what the last step measured at its end (the first call asks every step
   *  to measure: one density pass in its slices or on the threaded runner); measuredAt is that step, 0 before any (the
   *  densities 0 then, unless fluidStats() was read); while steps are in flight the last read (null before any). */
  peekFluidStats(): (FluidStats & { measuredAt?: number }) | null;
  /** Stops the steps in flight after the one running (the single-thread stepper and the threaded runner). */
  cancelSteps(): void;
  hash(): number;
  /** The threads this world's steps share out over (1 without a team). */
  readonly threads: number;
  /** From the next step on, in [1, engine.maxThreads] (else a MiniPBDError naming the range); same bits for any n. */
  setThreads(n: number): void;
  destroy(): void;
}

/**
 * Steps a world without blocking the caller (engine/threads.js). In a browser the threaded build steps on a
 * runner worker; where the thread may wait (Node, a worker) start() runs the step itself. A step is "busy" from
 * start() until poll() returned true or settle() returned; the step's error (a MiniPBDError) is thrown there.
 */
export interface Stepper {
  /** Starts n steps of world `worldId` (world.id); refused (code 'busy') while a step is in flight. */
  start(worldId: number, n: number): void;
  readonly busy: boolean;
  /** Non-blocking: true when no step is in flight (a finished one is taken now). */
  poll(): boolean;
  /** Waits (spinning on a page's main thread) until the step in flight has finished. */
  settle(): void;
  /** Wall-clock ms of the last step call (all n steps). */
  readonly lastStepMs: number;
  /** Called when a started step finishes (the runner's message), if set. */
  ondone: (() => void) | null;
}

/** The engine a loadMiniPBD() call resolves to (engine/loader.js). */
export interface Engine {
  readonly memory: WebAssembly.Memory;
  readonly paramNames: ParamName[];
  createWorld(scene: Scene): World;
  /** createWorld(scene) in pieces, ahead (a mesh body's inside test, then an object at a time): run(ms) works about
   *  ms and is true when done; createWorld(scene), the same object, then returns the world built. */
  prepareScene(scene: Scene): { run(ms?: number): boolean; cancel(): void };
  /** What a world of `scene` would reserve, from the engine's own counts, checked against the scene's limits (the
   *  validator has no particle counts): total by capacity name (particles, constraints, fluidParticles...), objects
   *  each object's. Throws the SceneError createWorld would; makes nothing. */
  countScene(scene: Scene): { scene: NormalisedScene; total: Record<string, number>; objects: Record<string, number>[] };
  /** The engine's capacity table (src/minipbd.h PBD_CAPACITIES) in pbdjs_CreateWorld's order: name (what object
   *  counts call it), the default (fixed + perParticle x particles), the limit, counted (exactly what objects use). */
  readonly capacities: ReadonlyArray<{ name: string; offset: number; fixed: number; perParticle: number; limit: number;
    counted: boolean; clamped: boolean }>;
  /** An empty engine world of these capacities by name (the rest the engine's defaults); its id, or throws. */
  createWorldWith(capacities: Record<string, number>): number;
  /** The threaded build (minipbd_threads.wasm) with its team of workers. */
  readonly threaded: boolean;
  /** The team's size: 1 for the single-thread build or once closed. */
  readonly maxThreads: number;
  /** The thread count of new worlds, in [1, maxThreads] (default maxThreads). */
  threads: number;
  /** The threaded build's stepper (the page's fallback sets its own: engine/stepper-slices.js). */
  stepper?: Stepper;
  /** Stops the team and terminates its workers; worlds go on stepping alone (same bits). Node can exit. */
  close(): void;
}

export interface LoadOptions {
  /** The threaded build's team size, in [1, 16] (default: the host's cores, at most 16). Ignored by the
   *  single-thread build. */
  threads?: number;
  /** Step on a runner worker (default: only where this thread may not wait, i.e. a browser's main thread). */
  runner?: boolean;
}

/** Loads the engine from a URL (file: URLs in Node) or the wasm bytes; with no source (or the options alone),
 *  minipbd.wasm beside js/ (fetched in a browser, read with node:fs in Node). */
export function loadMiniPBD(source?: string | URL | ArrayBuffer | ArrayBufferView, options?: LoadOptions): Promise<Engine>;
export function loadMiniPBD(options: LoadOptions): Promise<Engine>;
/** The class behind Engine (loadMiniPBD makes and attaches one). */
export const Engine: { new (): Engine; prototype: Engine };

/** A refused OBJ file: `line` is the 1-based line of the problem (0: the file as a whole). */
export class ObjError extends Error { line: number; }
export interface ObjSurface { vertices: Float32Array; triangles: Uint32Array; name: string; }
export interface ObjLimits { maxBytes?: number; maxVertices?: number; maxTriangles?: number; }
/** Reads a closed triangle surface from OBJ text (v and f lines); throws ObjError naming the line. */
export function parseObj(text: string, limits?: ObjLimits): ObjSurface;
/** The same from a File or Blob, whose size is checked before it is read. */
export function readObjFile(file: Blob, limits?: ObjLimits): Promise<ObjSurface>;

/** The built-in scenes that need no model file, normalised and frozen. */
export const builtinScenes: Readonly<Record<string, Scene>>;
/** Every built-in scene's id (bunny included), in the picker's order. */
export const BUILTIN_SCENE_IDS: readonly string[];
/** Any built-in scene, normalised and frozen; those made from a model file read it first. */
export function loadBuiltinScene(id: string): Promise<Scene>;
/** The default built-in scene's id (format/builtin-scenes.js). */
export const DEFAULT_SCENE_KEY: string;
/** A fresh, mutable copy of the default built-in scene. */
export function defaultScene(): NormalisedScene;
export const OBJ_LIMITS: { readonly maxBytes: number; readonly maxVertices: number; readonly maxTriangles: number; readonly maxCoord: number };

/** The engine's parameter table, one row per parameter in C order (engine/param-table.js). */
export const PARAM_TABLE: readonly ParamInfo[];
/** name -> row. */
export const PARAMS: Readonly<Record<ParamName, ParamInfo>>;
/** Parameter names in C order. */
export const PARAM_NAMES: readonly ParamName[];

/** One registered object type (objects/index.js): its scene type and keys, and what the page asks of it. */
export interface ObjectType {
  readonly type: SceneObject['type'];
  /** Its scene keys, one row each (format/fields.js): the validator, the JSON Schema and objects/*.d.ts follow them. */
  readonly fields: readonly { readonly key: string; readonly kind?: string; readonly required?: boolean | readonly string[]; readonly unit?: string }[];
  readonly keys: readonly string[];
  readonly stiffness: Readonly<Record<string, { kind: number; param: string }>>;
  readonly render: { primitive: 'lines' | 'triangles' | 'skin' | 'fluid' | string; pointColor: string };
  extent(o: SceneObject): number;
  [member: string]: unknown;
}
export const OBJECT_TYPES: readonly ObjectType[];

// The scene format, links, replays and recordings: declared beside their modules (the package's entry points
// minipbd/scene, minipbd/link, minipbd/recorder).
import type { NormalisedScene } from './format/scene.js';
export type { NormalisedScene, SceneLimits } from './format/scene.js';
export { validateScene, SceneError, SCENE_LIMITS, SCENE_VERSION } from './format/scene.js';
export { parseSceneFile, checkSceneFileSize, sceneFileText, SceneFileError, MAX_SCENE_FILE_BYTES } from './format/scene-file.js';
export type { Replay, ReplayEvent } from './format/replay.js';
export { readReplay, validateReplay, replayParamValue, REPLAY_VERSION, REPLAY_LIMITS, REPLAY_PARAMS } from './format/replay.js';
export type { LinkErrorReason } from './format/link.js';
export { encodeLink, decodeLink, decodeRun, parseFragment, LinkError, LINK_VERSION, LINK_WARN_LENGTH } from './format/link.js';
export type { RecorderOptions } from './record/recorder.js';
export { Recorder, chooseQuantum } from './record/recorder.js';
export type { ReplayEnd } from './record/replayer.js';
export { Replayer } from './record/replayer.js';
