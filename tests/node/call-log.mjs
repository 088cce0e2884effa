// call-log.mjs — the log of the wasm calls that change a world, for the cross-build checks (crossbuild.test.mjs,
// models.test.mjs): each call is one line that build/replay_calls (tests/crossbuild/replay_calls.c, the core
// compiled natively) makes again, so a world reaches the same hash natively as in wasm.

// The calls that change a world's state (every other export only reads, or writes the caller's out-records).
export const MUTATORS = new Set([
  'pbdjs_CreateWorld', 'pbd_DestroyWorld', 'pbdjs_AddChain', 'pbdjs_AddCloth', 'pbdjs_AddCollider', 'pbdjs_AddBody',
  'pbdjs_StepN', 'pbd_World_Step', 'pbd_World_SetParam', 'pbd_World_SetObjectStiffness', 'pbd_World_SetObjectRadius',
  'pbd_World_SetObjectPlasticity', 'pbd_World_SetObjectFilter', 'pbd_World_SetInvMass', 'pbd_World_SetMass', 'pbd_World_SetPosition',
  'pbd_World_SetVelocity', 'pbd_World_AddAttachment', 'pbd_World_MoveAttachment', 'pbd_World_RemoveAttachment',
  'pbd_World_SetColliderTransform', 'pbd_World_SetColliderMaterial', 'pbd_World_FindPairs', 'pbd_World_Hash',
  // fluids: the block and its capacity, the hoses and drains, a hose switched
  'pbdjs_AddFluid', 'pbdjs_AddEmitter', 'pbdjs_SetEmitter', 'pbdjs_AddDrain', 'pbd_World_UpdateDensities',
  // inflatables: a sphere or a closed mesh, its pressure
  'pbdjs_AddInflatable', 'pbdjs_SetInflatablePressure',
]);
// Array arguments, by call: (tag, pointer index, count index, words per count); the pointer is logged as 0, the
// words follow ("U n hex...": tests/crossbuild/replay_calls.c). The create call's capacities, a body's mesh.
export const ARRAYS = {
  pbdjs_CreateWorld: [['U', 0, 1, 1]], pbdjs_AddBody: [['F', 20, 21, 3], ['U', 22, 23, 1]],
  pbdjs_AddInflatable: [['F', 6, 7, 3], ['U', 8, 9, 3]],
};

/** Wraps the engine's exports so each mutating call is appended to `log` as one line. */
export function record(engine, log) {
  const raw = engine.exports; // frozen (a wasm instance's exports): wrapped into a plain copy
  const wrapped = {};
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    wrapped[key] = typeof value !== 'function' || !MUTATORS.has(key) ? value : (...args) => {
      const arrays = ARRAYS[key] ?? [];
      const words = [key, ...args.map((a, i) => (arrays.some(([, ptr]) => ptr === i) ? 0 : String(a)))];
      for (const [tag, ptr, count, per] of arrays) {
        const n = args[count] * per;
        const bits = n > 0 ? new Uint32Array(raw.memory.buffer, args[ptr], n) : [];
        words.push(tag, String(n), ...Array.from(bits, (b) => b.toString(16)));
      }
      log.push(words.join(' '));
      return value(...args);
    };
  }
  engine.exports = wrapped;
}
