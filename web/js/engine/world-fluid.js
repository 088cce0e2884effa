// world-fluid.js — the fluid's records as plain functions: its statistics record (read by WorldHandle.fluidStats,
// world-handle.js) and the scene's emitters in engine order (World.setEmitter, the hoses' panel, drawing and
// replays). Emitters are numbered in scene order over the fluid objects (the order objects/fluid.js adds them), as
// pbd_World_AddEmitter numbers them.

/** pbdFluidStats (src/minipbd.h): 6 int32, then 4 float32 (pbdjs_GetFluidStats). */
export const FLUID_STATS_INTS = Object.freeze(['particles', 'capacity', 'emitted', 'drained', 'full', 'droppedNeighbours']);
export const FLUID_STATS_FLOATS = Object.freeze(['meanNeighbours', 'meanDensity', 'maxDensity', 'densityError']);

export { sceneEmitters } from '../objects/index.js'; // the types' emitters (a fluid's hoses), in engine order

/** The pbdFluidStats record just written to the heap's exchange (pbdjs_GetFluidStats, pbdjs_GetMeasuredFluidStats). */
export function readFluidStats(heap) {
  const ints = heap.int32s(FLUID_STATS_INTS.length + FLUID_STATS_FLOATS.length);
  const floats = heap.float32s(FLUID_STATS_INTS.length + FLUID_STATS_FLOATS.length);
  const out = {};
  FLUID_STATS_INTS.forEach((name, k) => { out[name] = ints[k]; });
  FLUID_STATS_FLOATS.forEach((name, k) => { out[name] = floats[FLUID_STATS_INTS.length + k]; });
  out.full = out.full !== 0;
  return out;
}
