// One parameter table: web/js/engine/param-table.js is the wasm's table (src/minipbd.h PBD_PARAMS), and
// every place in web/js that takes or shows a parameter — the scene validator, the replay format, World.setParam,
// the panel, the types — agrees with it, value by value at the edges of each range.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readParamTable, renderParamTable, float32Decimal } from '../../tools/gen-param-table.mjs';
import { PARAM_TABLE, PARAMS, SCENE_PARAMS, parsePlace, sceneParamValue } from '../../web/js/engine/params.js';
import { loadMiniPBD, MiniPBDError, Engine } from '../../web/js/minipbd.js';
import { validateScene, SceneError, SCENE_TABLES } from '../../web/js/format/scene.js';
import { REPLAY_PARAMS, replayParamValue } from '../../web/js/format/replay.js';
import { PARAMS_CONTROLS } from '../../web/js/panel/controls.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmBytes = fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm'));
const pbd = await loadMiniPBD(wasmBytes);

// The neighbouring doubles: just outside a range.
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  u64[0] += x > 0 ? 1n : -1n;
  return f64[0];
}
const nextDown = (x) => -nextUp(-x);

/** A scene with one object of each type (so every object-type parameter has a place), `edit` applied. */
function scene(edit = () => {}) {
  const s = {
    format: 'minipbd-scene', version: 3,
    objects: [
      { type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 4, pins: [0] },
      { type: 'cloth', origin: [0, 2, 0], size: [1, 1], resolution: [4, 4], pins: [[0, 0]] },
      { type: 'soft', shape: 'box', position: [2, 1, 0], halfExtents: [0.1, 0.1, 0.1], resolution: 2 },
      { type: 'rigid', shape: 'ball', position: [-2, 1, 0], radius: 0.1, resolution: 2 },
    ],
  };
  edit(s);
  return s;
}

/** The fluid's smoothing radius must be 1 to 4 times its spacing (FLUID_RATIO): a test of one at an end of its
 *  range moves the other to a value that keeps the pair valid (the ratio's own refusals: fluid-format.test.mjs). */
function partner(p, v) {
  const clamp = (q, x) => Math.min(q.max, Math.max(q.min, x));
  if (p.name === 'fluid.spacing') return [PARAMS['fluid.smoothingRadius'], clamp(PARAMS['fluid.smoothingRadius'], 2 * v)];
  if (p.name === 'fluid.smoothingRadius') return [PARAMS['fluid.spacing'], clamp(PARAMS['fluid.spacing'], v / 2)];
  return null;
}
/** Moves a world's fluid spacing d and smoothing radius h to (d1, h1) through pairs the World takes (each move
 *  keeps h / d in [1, 4]: setParam refuses the others). */
function setFluidPair(world, d1, h1) {
  const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
  for (let k = 0; k < 40; k++) {
    const { spacing: d, smoothingRadius: h } = world.scene.fluid;
    if (d === d1 && h === h1) return;
    const hn = clamp(h1, d, 4 * d);
    if (hn !== h) world.setParam('fluid.smoothingRadius', hn);
    const dn = clamp(d1, hn / 4, hn);
    if (dn !== d) world.setParam('fluid.spacing', dn);
  }
  assert.fail(`the fluid pair did not reach (${d1}, ${h1})`);
}
const withPartner = (x, p, v) => {
  const other = partner(p, v);
  if (other && Number.isFinite(v) && v > 0) put(x, other[0], other[1]);
  put(x, p, v);
};

/** Puts a scene value at parameter p's place (every object of its type). */
function put(s, p, value) {
  const { head, rest } = parsePlace(p.scene);
  const holders = SCENE_TABLES.sections.includes(head) ? [(s[head] ??= {})] : s.objects.filter((o) => o.type === head);
  for (const h of holders) {
    let at = h;
    for (const k of rest.slice(0, -1)) {
      const next = typeof rest[rest.indexOf(k) + 1] === 'number' ? [0, 0, 0] : {};
      at = at[k] ??= next;
    }
    if (typeof rest[rest.length - 1] === 'number') {
      // a vector component: the other components at their defaults
      const vec = SCENE_PARAMS.filter((q) => q.scene.replace(/\.\d+$/, '') === p.scene.replace(/\.\d+$/, ''));
      vec.forEach((q, i) => { if (at[i] === 0 || at[i] === undefined) at[i] = q.default; });
    }
    at[rest[rest.length - 1]] = value;
  }
}

test('web/js/engine/param-table.js is the table of the shipped wasm (regenerate with make)', async () => {
  const rows = await readParamTable(wasmBytes);
  const committed = fs.readFileSync(path.join(root, 'web', 'js', 'engine', 'param-table.js'), 'utf8');
  assert.equal(committed, renderParamTable(rows), 'the committed module differs from the wasm: run make (or node tools/gen-param-table.mjs)');
  assert.deepEqual(PARAM_TABLE.map((p) => ({ ...p })), rows);
  assert.deepEqual(pbd.paramNames, rows.map((r) => r.name), 'the engine names its parameters in table order');
  // Every number is the float32 the engine holds, written shortest.
  for (const p of PARAM_TABLE) {
    for (const k of ['default', 'min', 'max']) assert.equal(float32Decimal(Math.fround(p[k])), p[k], `${p.name}.${k}`);
  }
  assert.equal(float32Decimal(Math.fround(1 / 60)), 0.016666668);
  assert.equal(float32Decimal(Math.fround(0.2)), 0.2);
});

test('an engine whose table is not param-table.js\'s is refused at load, naming the parameter', () => {
  // The shipped engine, with one row changed as a C edit without `make` would leave it.
  const engineWith = (id, slot, value) => ({
    paramIds: pbd.paramIds, heap: pbd.heap,
    exports: {
      pbdjs_ParamInfo(i, out) {
        const r = pbd.exports.pbdjs_ParamInfo(i, out);
        if (i === id) new Float64Array(pbd.memory.buffer, out, 4)[slot] = value;
        return r;
      },
    },
  });
  assert.doesNotThrow(() => Engine.prototype.checkParamTable.call(engineWith(-1)));
  assert.throws(() => Engine.prototype.checkParamTable.call(engineWith(PARAMS.damping.id, 2, 1000)),
    (e) => e instanceof MiniPBDError && /damping is \[0, 1000\]/.test(e.message) && /regenerate it with make/.test(e.message));
  assert.throws(() => Engine.prototype.checkParamTable.call(engineWith(PARAMS.iterations.id, 0, 10)), /iterations/);
  assert.throws(() => Engine.prototype.checkParamTable.call(engineWith(PARAMS.selfCollision.id, 3, 0)), /selfCollision/);
});

test('a bare engine world holds the table\'s defaults', () => {
  const e = pbd.exports;
  const raw = pbd.createWorldWith({ particles: 1, constraints: 1, triangles: 1, lines: 1, attachments: 1, objects: 1, colliders: 1 });
  assert.ok(raw > 0);
  for (const p of PARAM_TABLE) assert.equal(e.pbd_World_GetParam(raw, p.id), Math.fround(p.default), p.name);
  e.pbd_DestroyWorld(raw);
});

test('the scene format takes exactly each parameter\'s range, and leaves out means the table\'s default', () => {
  const base = validateScene(scene());
  for (const p of SCENE_PARAMS) {
    assert.equal(sceneParamValue(base, p), p.default, `${p.name}: default`);
    const good = p.boolean ? [true, false] : p.integer ? [p.min, p.max] : [p.min, p.max, (p.min + p.max) / 2];
    for (const v of good) {
      const s = validateScene(scene((x) => withPartner(x, p, v)));
      assert.equal(sceneParamValue(s, p), p.boolean ? (v ? 1 : 0) : v, `${p.name} = ${v}`);
    }
    const bad = p.boolean ? [0, 1, 'true', null]
      : p.integer ? [p.min - 1, p.max + 1, p.min + 0.5, `${p.min}`, true, NaN]
        : [nextDown(p.min), nextUp(p.max), NaN, Infinity, `${p.min}`, true];
    for (const v of bad) {
      assert.throws(() => validateScene(scene((x) => withPartner(x, p, v))), (e) => e instanceof SceneError
        && e.message.includes(p.boolean ? 'must be true or false' : p.integer ? `must be an integer in ${p.min}..${p.max}` : `must be a number in [${p.min}, ${p.max}]`),
      `${p.name} = ${String(v)}`);
    }
  }
});

test('a replay sets exactly the parameters the scene format has, within the same ranges', () => {
  assert.deepEqual(Object.keys(REPLAY_PARAMS), SCENE_PARAMS.map((p) => p.name));
  assert.equal(Object.hasOwn(REPLAY_PARAMS, 'recordConvergence'), false, 'an instrument, not motion');
  for (const p of SCENE_PARAMS) {
    assert.equal(replayParamValue(p.name, p.min), p.min);
    assert.equal(replayParamValue(p.name, p.max), p.max);
    assert.throws(() => replayParamValue(p.name, p.integer ? p.max + 1 : nextUp(p.max)), SceneError, p.name);
    assert.throws(() => replayParamValue(p.name, p.integer ? p.min - 1 : nextDown(p.min)), SceneError, p.name);
  }
});

test('world.setParam takes what the scene format takes and nothing else; describe() stays a valid scene', () => {
  const world = pbd.createWorld(scene());
  for (const p of PARAM_TABLE) {
    const inside = p.integer ? [p.min, p.max] : [p.min, p.max, (p.min + p.max) / 2];
    for (const v of inside) {
      const other = partner(p, v);
      if (other) setFluidPair(world, ...(p.name === 'fluid.spacing' ? [v, other[1]] : [other[1], v]));
      else world.setParam(p.name, v);
      assert.equal(world.getParam(p.name), Math.fround(v), `${p.name} = ${v}`);
      const described = validateScene(world.describe()); // throws if the description left the format
      if (p.scene !== '') assert.equal(sceneParamValue(described, p), v, `${p.name}: the description follows`);
    }
    if (!partner(p, p.default)) world.setParam(p.name, p.default);
    else setFluidPair(world, PARAMS['fluid.spacing'].default, PARAMS['fluid.smoothingRadius'].default);
    const outside = [
      p.integer ? p.min - 1 : nextDown(p.min), p.integer ? p.max + 1 : nextUp(p.max), NaN, Infinity, -Infinity,
      `${p.default}`, '0.5', true, false, 1n, null, undefined, {}, [p.default], 2 ** 32 + p.min,
    ];
    if (p.integer) outside.push(p.min + 0.5);
    const hash = world.hash();
    const before = JSON.stringify(world.describe());
    for (const v of outside) {
      assert.throws(() => world.setParam(p.name, v), (e) => e instanceof MiniPBDError && e.code === 'argument'
        && e.message.startsWith(`parameter ${p.name} must be `), `${p.name} = ${typeof v === 'bigint' ? `${v}n` : String(v)}`);
      assert.equal(world.getParam(p.name), Math.fround(p.default), `${p.name}: unchanged`);
    }
    assert.equal(world.hash(), hash);
    assert.equal(JSON.stringify(world.describe()), before, `${p.name}: the description is unchanged`);
  }
  for (const name of ['nope', '', 'toString', '__proto__', 7, null]) {
    assert.throws(() => world.setParam(name, 1), (e) => e instanceof MiniPBDError && e.code === 'unknown-param', String(name));
    assert.throws(() => world.getParam(name), (e) => e instanceof MiniPBDError && e.code === 'unknown-param', String(name));
  }
  world.destroy();
});

test('the panel\'s sliders show parameters within the table\'s ranges and read its defaults', () => {
  const empty = validateScene(scene());
  let checked = 0;
  for (const c of PARAMS_CONTROLS) {
    if (c.param === undefined) continue;
    const p = PARAMS[c.param];
    if (c.kind === 'toggle') continue;
    assert.ok(c.min >= p.min * c.scale && c.max <= p.max * c.scale, `${c.name}: [${c.min}, ${c.max}] within ${p.name} x ${c.scale}`);
    for (const v of [c.min, c.max]) for (const [name, value] of c.write(v, { value: () => 0, remembered: (_, f) => f })) {
      assert.ok(value >= PARAMS[name].min && value <= PARAMS[name].max, `${c.name} writes ${name} = ${value}`);
    }
    if (c.fallback === undefined && !['tearStretch'].includes(c.name)) {
      assert.ok(Math.abs(c.read(empty) - p.default * c.scale) < 1e-9, `${c.name} reads the default`);
      checked++;
    }
  }
  assert.ok(checked >= 15, `${checked} sliders checked`);
});

test('the types (minipbd.d.ts) name every parameter of the table, and no other', () => {
  const dts = fs.readFileSync(path.join(root, 'web', 'js', 'minipbd.d.ts'), 'utf8');
  const union = /export type ParamName =([^;]*);/.exec(dts)[1];
  const names = [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual([...names].sort(), PARAM_TABLE.map((p) => p.name).sort());
});
