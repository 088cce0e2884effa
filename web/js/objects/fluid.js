// fluid.js — the fluid object type: Position Based Fluids (Macklin & Müller 2013, seed 002) in the same
// world as cloth and bodies. A fluid object is one range of particles reserved up front (its capacity): a block
// of water on the lattice of the scene's fluid.spacing is live from the start, the rest is parked until a hose
// (an emitter) fills it; a drain removes what enters its box. The fluid's parameters (rest density, spacing,
// smoothing radius, s_corr, vorticity, viscosity) are the scene's "fluid" section, one set per world
// (engine/params.js); this module is the object: its block, capacity, emitters and drains
// (pbdjs_AddFluid, pbdjs_AddEmitter, pbdjs_AddDrain, src/wasm/api_fluids.c), registered in objects/index.js.
//
//   { "type": "fluid", "name": "water", "block": { "lower": [0, 0, 0], "upper": [0.4, 0.8, 0.4] },
//     "velocity": [0, 0, 0], "capacity": 0,
//     "emitters": [{ "position": [0, 1, 0], "direction": [0, -1, 0], "speed": 2, "radius": 0.05, "enabled": true }],
//     "drains": [{ "lower": [-2, -1, -2], "upper": [2, 0.02, 2] }] }
//
// capacity 0 means the block's own count (no room for a hose); a block is optional (an empty fluid for a hose).

import { ENGINE_LIMITS, PARAMS } from '../engine/params.js';
import { SCENE_LIMITS as L } from '../format/limits.js';
import { NAME_ROW, boxRecord, fieldKeys, fieldReader, typeRow } from '../format/fields.js';
import { SceneError, fail, join } from '../format/read.js';
import { control } from '../panel/control.js';

const TYPE = 'fluid';
const f = Math.fround;

/** The scene's fluid spacing d (the "fluid" section; the table's default for a bare object). */
const spacingOf = (scene) => scene?.fluid?.spacing ?? PARAMS['fluid.spacing'].default;

const BOX = boxRecord('lower', 'upper');

/** A hose. A nozzle narrower than half a particle emits nothing but its centre: the engine refuses it (pbdEmitterDef),
 *  so its radius is at least the scene's fluid.spacing / 2 (the schema cannot say it). */
const EMITTER = {
  kind: 'record',
  fields: [
    { key: 'position', kind: 'coord3', required: true, unit: 'm' },
    {
      key: 'direction', kind: 'coord3', required: true, first: true,
      check: (d, p) => { if (Math.hypot(...d) < 1e-6) fail(p, 'must be a non-zero vector', d); },
    },
    { key: 'speed', kind: 'number', min: 0, minExcl: true, max: L.emitterSpeed.max, default: 1, unit: 'm/s' },
    {
      key: 'radius', kind: 'number', min: 0, minExcl: true, max: L.emitterRadius.max, unit: 'm',
      range: (ctx) => ({ min: ctx.spacing / 2, max: L.emitterRadius.max }), default: (ctx) => ctx.spacing,
    },
    { key: 'enabled', kind: 'boolean', default: true },
  ],
};
/** An emitter's keys (World.setEmitter takes any of them). */
export const EMITTER_KEYS = fieldKeys(EMITTER.fields);

/** Its scene keys (format/fields.js). capacity 0 means the block's own count (no room for a hose). */
const FIELDS = [
  typeRow(TYPE),
  NAME_ROW,
  // null (what a description without a block says) and absent alike: no block.
  { key: 'block', kind: 'nullable', of: BOX, default: null },
  { key: 'velocity', kind: 'vec', n: 3, min: -L.maxFluidSpeed, max: L.maxFluidSpeed, default: [0, 0, 0], unit: 'm/s' },
  { key: 'capacity', kind: 'integer', min: 0, max: L.maxFluidParticles, default: 0 },
  { key: 'emitters', kind: 'list', item: EMITTER, max: L.maxEmitters, noun: 'emitters', default: [] },
  { key: 'drains', kind: 'list', item: BOX, max: L.maxDrains, noun: 'boxes {lower, upper}', default: [] },
];

/** A fluid with no room for a particle: no capacity, and no block or one of no lattice point. */
const noRoom = (path) => new SceneError(join(path, 'capacity'),
  `${join(path, 'capacity')} must be above 0 when the block holds no particle (a fluid needs room for its hose)`);

/** @type {import('./index.js').ObjectType} */
export const fluid = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),

  /** Reads a fluid object against the scene read so far (its fluid section: the spacing). Its block's count is the
   *  engine's (counts below), so only a fluid with neither block nor capacity is refused here. */
  read(get, path, index, scene) {
    const spacing = spacingOf(scene);
    const o = fieldReader(FIELDS, get, path, { type: TYPE, index, scene, spacing }).all();
    if (o.capacity === 0 && o.block === null) throw noRoom(path);
    return o;
  },

  /** The fluid objects of a scene together: at most the engine's objects, emitters and drains (their particles:
   *  objects/index.js checkSceneCounts, from the engine's counts). */
  checkScene(scene) {
    const fluids = scene.objects.map((o, i) => [o, i]).filter(([o]) => o.type === TYPE);
    const limit = (what, n, max, [, i]) => {
      if (n > max) fail('objects', `must have at most ${max} ${what} in all (exceeded at objects[${i}])`, n);
    };
    let emitters = 0, drains = 0;
    fluids.forEach((entry, k) => {
      const [o] = entry;
      limit('fluid objects', k + 1, L.maxFluidObjects, entry);
      limit('emitters', (emitters += o.emitters.length), L.maxEmitters, entry);
      limit('drains', (drains += o.drains.length), L.maxDrains, entry);
    });
  },

  /** What the engine reserves: the capacity, all of it fluid (the world's fluidParticles capacity), or the block's
   *  count when the capacity is 0. The block's count is the engine's (pbdjs_FluidBlockCount: its lattice at the
   *  scene's fluid.spacing in float32 corners), checked here against the capacity and the limit. */
  counts(engine, o, index, scene) {
    const spacing = spacingOf(scene);
    const path = join('objects', index);
    const b = o.block ?? { lower: [0, 0, 0], upper: [0, 0, 0] };
    const count = engine.exports.pbdjs_FluidBlockCount(...b.lower, ...b.upper, spacing);
    // PBD_ERR_PARTICLE_CAPACITY (-4): past PBD_MAX_PARTICLES, beyond the scene's limit too.
    if (count > L.maxFluidParticles || count === -4) {
      const holds = count < 0 ? `more than ${ENGINE_LIMITS.maxParticles}` : count;
      fail(join(path, 'block'), `must hold at most ${L.maxFluidParticles} particles at fluid.spacing ${spacing} (it holds ${holds})`, o.block);
    }
    if (count < 0) throw new SceneError(join(path, 'block'), `${join(path, 'block')} is refused by the engine: ${engine.lastError(0)}`);
    if (o.capacity > 0 && count > o.capacity) {
      fail(join(path, 'capacity'), `must be at least the block's ${count} particles (at fluid.spacing ${spacing}), or 0 for exactly those`, o.capacity);
    }
    if (o.capacity === 0 && count === 0) throw noRoom(path);
    const particles = o.capacity > 0 ? o.capacity : count;
    return { particles, constraints: 0, triangles: 0, lines: 0, fluidParticles: particles };
  },

  /** Adds it to world `id` (block, capacity, then its emitters and drains); returns its first particle. */
  build(engine, id, o, index) {
    const e = engine.exports;
    // No block: an empty one at the first nozzle (where the parked slots wait; they neither move nor collide).
    const at = o.emitters[0]?.position ?? [0, 0, 0];
    const b = o.block ?? { lower: at, upper: at };
    const first = engine.check(e.pbdjs_AddFluid(id, ...b.lower, ...b.upper, ...o.velocity, o.capacity), 'engine', id);
    for (const m of o.emitters) {
      engine.check(e.pbdjs_AddEmitter(id, index, ...m.position, ...m.direction, m.speed, m.radius, m.enabled ? 1 : 0), 'engine', id);
    }
    for (const d of o.drains) engine.check(e.pbdjs_AddDrain(id, ...d.lower, ...d.upper), 'engine', id);
    return first;
  },

  /** Every live fluid particle has the mass rho0 d^3 of the scene's fluid section, in the engine's float32
   *  arithmetic (pbd_Fluid_ParticleMass: ((rho0 d) d) d); a fluid has no `mass` of its own. */
  particleMass(o, count, scene) {
    const d = f(spacingOf(scene));
    const rho0 = f(scene?.fluid?.restDensity ?? PARAMS['fluid.restDensity'].default);
    return f(f(f(rho0 * d) * d) * d);
  },
  /** The parked slots of its capacity (w = 0 until a hose fills them): past its block's count. */
  particlesWithOwnMass(o, world, index) {
    const keep = new Set();
    if (!world) return keep;
    const { particleCount, activeParticles } = world.objects[index];
    for (let j = activeParticles; j < particleCount; j++) keep.add(j);
    return keep;
  },
  stiffness: {},

  /** Its particles are water: hoses and drains change how many live at any step (World.objects reads them again),
   *  World.fluidStats measures them, the renderer draws them as water and the pointer does not grab them. */
  water: true,
  /** Its hoses (objects/index.js sceneEmitters numbers them over the scene). */
  emitters: (o) => o.emitters,

  /** Its largest size in metres: the block's, or the reach of its drains and nozzles (a recording's quantum). */
  extent(o) {
    const boxes = [...(o.block ? [o.block] : []), ...o.drains];
    let e = 0.1;
    for (const b of boxes) for (let k = 0; k < 3; k++) e = Math.max(e, b.upper[k] - b.lower[k]);
    return e;
  },

  /** Drawn as water by render/fluid*.js; as particles at radius d / 2 (the contact radius) otherwise. */
  render: {
    primitive: 'fluid', pointColor: 'waterParticle',
    sprite: (o, scene) => { const r = spacingOf(scene) / 2; return { radius: r, pinnedRadius: r, columns: 0, rows: 0 }; },
  },

  /** The Fluid folder: the fluid's parameters from the table (owner "fluid"), shown when the scene has a fluid. */
  controls: Object.values(PARAMS).filter((p) => p.owner === 'fluid').map((p) => control({
    name: p.name, param: p.name, group: 'fluid', step: p.integer ? 1 : niceStep(p),
  })),
  folders: ['fluid'],

};

/** A slider step of about a hundredth of the parameter's usual size (its default), a power of ten. */
function niceStep(p) {
  const base = p.default > 0 ? p.default : p.max;
  return 10 ** Math.floor(Math.log10(base / 100));
}

/** Its words (objects/index.js objectStrings, for the page's i18n; kept off the type so that a bundle without
 *  the panel, the element's, leaves them out). */
export const FLUID_STRINGS = {
  en: {
    'object.fluid': 'Fluid',
    'folder.fluid': 'Fluid',
    'param.fluid.restDensity': 'Rest density (kg/m³)',
    'param.fluid.restDensity.help': 'The density the fluid keeps (water: 1000); bodies float when lighter',
    'param.fluid.spacing': 'Particle spacing (m)',
    'param.fluid.spacing.help': 'Distance between fluid particles at rest; each weighs rest density × spacing³',
    'param.fluid.smoothingRadius': 'Smoothing radius (m)',
    'param.fluid.smoothingRadius.help': 'How far a particle feels its neighbours: 1 to 4 times the spacing',
    'param.fluid.relaxation': 'Relaxation ε',
    'param.fluid.relaxation.help': 'Softens the density constraint (relative ε of seed 002); larger is softer and steadier',
    'param.fluid.scorrK': 'Surface tension k',
    'param.fluid.scorrK.help': 'Artificial pressure s_corr: keeps particles from clumping at the surface',
    'param.fluid.scorrN': 'Surface tension n',
    'param.fluid.scorrN.help': 'Exponent of the artificial pressure',
    'param.fluid.scorrDq': 'Surface tension Δq',
    'param.fluid.scorrDq.help': 'Distance (fraction of the smoothing radius) where the artificial pressure is k',
    'param.fluid.vorticity': 'Vorticity',
    'param.fluid.vorticity.help': 'Gives back the swirls the solver damps (vorticity confinement)',
    'param.fluid.viscosity': 'Viscosity',
    'param.fluid.viscosity.help': 'XSPH: neighbours move alike; 0 = water, larger = honey',
    'param.fluid.sortInterval': 'Sort every (steps)',
    'param.fluid.sortInterval.help': 'Steps between re-sorting fluid particles into cell order (speed only); 0 = never',
    'param.fluid.friction': 'Wall friction',
    'param.fluid.friction.help': 'Share of the ground\'s and colliders\' friction the water feels; 0 = it slips (water)',
    'fluid.hose': 'Hose {n}',
    'fluid.hose.help': 'Turn this emitter on or off',
    'fluid.stats': 'Fluid: {particles} of {capacity} particles, density error {error}%',
    'fluid.full': 'The fluid is full: {particles} of {capacity} particles; the hose has stopped',
  },
  zh: {
    'object.fluid': '流体',
    'folder.fluid': '流体',
    'param.fluid.restDensity': '静止密度（千克/立方米）',
    'param.fluid.restDensity.help': '流体保持的密度（水：1000）；较轻的物体会浮起',
    'param.fluid.spacing': '粒子间距（米）',
    'param.fluid.spacing.help': '静止时流体粒子之间的距离；每个粒子的质量为静止密度 × 间距³',
    'param.fluid.smoothingRadius': '平滑半径（米）',
    'param.fluid.smoothingRadius.help': '粒子感受邻居的范围：间距的 1 到 4 倍',
    'param.fluid.relaxation': '松弛 ε',
    'param.fluid.relaxation.help': '软化密度约束（种子 002 的相对 ε）；越大越软越稳',
    'param.fluid.scorrK': '表面张力 k',
    'param.fluid.scorrK.help': '人工压力 s_corr：防止粒子在表面聚集',
    'param.fluid.scorrN': '表面张力 n',
    'param.fluid.scorrN.help': '人工压力的指数',
    'param.fluid.scorrDq': '表面张力 Δq',
    'param.fluid.scorrDq.help': '人工压力等于 k 时的距离（平滑半径的比例）',
    'param.fluid.vorticity': '涡度',
    'param.fluid.vorticity.help': '找回求解器耗散的旋涡（涡度约束）',
    'param.fluid.viscosity': '黏度',
    'param.fluid.viscosity.help': 'XSPH：邻近粒子趋于同速；0 = 水，越大越像蜂蜜',
    'param.fluid.sortInterval': '排序间隔（步）',
    'param.fluid.sortInterval.help': '每隔多少步把流体粒子按网格单元重新排序（只影响速度）；0 = 从不',
    'param.fluid.friction': '壁面摩擦',
    'param.fluid.friction.help': '流体粒子感受到的地面和碰撞体摩擦的比例；0 = 滑动（水）',
    'fluid.hose': '水管 {n}',
    'fluid.hose.help': '打开或关闭这个发射器',
    'fluid.stats': '流体：{particles} / {capacity} 个粒子，密度误差 {error}%',
    'fluid.full': '流体已满：{particles} / {capacity} 个粒子；水管已停止',
  },
};
