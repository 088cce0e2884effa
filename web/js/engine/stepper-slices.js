// stepper-slices.js — the single-thread stepper: steps a world in slices on the calling thread, a time budget per
// call, so a step of any size is spread over as many frames as it needs and the page keeps drawing and answering
// input between them.
//
// Why slices and not a worker: without cross-origin isolation there is no SharedArrayBuffer, so a worker could
// not step the heap the page draws from; it would need a heap of its own and the positions posted to the page
// every frame (a copy per frame, and every world call turned into a message). pbd_World_StepSlice runs the step
// unit by unit (src/world/step.c: the step's start and each substep's contacts in units of bounded work, about
// PBD_SLICE_WORK pair tests, list entries or rows moved, so the fluid's sort and lists and the contacts' search are
// cut too; each substep's prediction; a Gauss-Seidel pass in ranges of at most a few thousand constraints of one
// colour; each substep's commit) with the same bits as in one go, so slicing keeps zero copies, the same World API,
// and bit-identical results. What it cannot do is run a single unit faster: a unit longer than a frame still takes
// that long, once per unit (the heavy scenes of bench/heavy-scenes.mjs keep every unit within a few ms in wasm). The
// units left it returns are counted with the contacts known at the time (a later substep's contacts and search
// counted as the last one's), so the count may change as the step goes: progress is kept within [0, 1).
//
// The interface is the threaded one's (engine/threads.js: engine.stepper), so WorldHandle.stepAsync (world-handle.js) and the
// page run on either: start(worldId, n), busy, poll(budgetMs) -> true when done, settle(), lastStepMs; plus what
// only slices can say: progress (units done of the step in flight) and estimateMs (a step's cost, from its units).

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Units run by the first call of a step: enough to measure a unit's cost, few enough to stay far below a frame. */
const FIRST_UNITS = 1;
/** A call's slice aims at this share of its budget, so the last slice of a call seldom overruns it. */
const SLICE_SHARE = 0.5;
const MAX_UNITS = 1 << 20;

export class SliceStepper {
  /** @param {object} exports  the single-thread engine's wasm exports (pbd_World_StepSlice) */
  constructor(exports) {
    this.exports = exports;
    this.sliced = true;
    this.worldId = 0;
    this.stepsLeft = 0;
    this.error = 0; // the engine's negative result, if a slice failed (World reads it: engine.check)
    this.lastStepMs = 0; // the time of the last steps started (all of them together)
    this.unitMs = 0; // measured cost of one unit (smoothed), for the slice size and the estimate
    this.unitsTotal = 0; // units of one step of the world in flight (known after its first slice)
    this.unitsLeft = 0;
    this.workMs = 0; // time spent inside the engine for the steps in flight
    this.stepsStarted = 0;
    this.stepsDone = 0; // steps of those started that have finished (the readout counts them as they end)
  }

  get busy() { return this.stepsLeft > 0; }

  /** Starts n steps of world `worldId` (none may be in flight: World settles first). */
  start(worldId, n) {
    if (this.busy) throw new Error('SliceStepper.start: a step is in flight (settle it first)');
    if (worldId !== this.worldId) this.unitMs = 0; // another world's units cost something else
    this.worldId = worldId;
    this.stepsLeft = n;
    this.stepsStarted = n;
    this.stepsDone = 0;
    this.error = 0;
    this.workMs = 0;
    this.unitsLeft = 0;
    this.unitsTotal = 0;
  }

  /** Runs slices for about `budgetMs` (at least one unit); true when the steps started are all done. */
  poll(budgetMs = 8) {
    if (!this.busy) return true;
    const t0 = now();
    const deadline = t0 + budgetMs;
    let t = t0;
    while (this.busy) {
      // A step's first slice is one unit (its start): what it returns is the step's size in units.
      const fresh = this.unitsLeft === 0;
      const units = fresh || !(this.unitMs > 0) ? FIRST_UNITS
        : Math.max(1, Math.min(MAX_UNITS, this.unitsLeft, Math.floor(((deadline - t) * SLICE_SHARE) / this.unitMs)));
      const left = this.exports.pbd_World_StepSlice(this.worldId, units);
      const t1 = now();
      if (left < 0) {
        this.error = left;
        this.stepsLeft = 0;
        break;
      }
      const ran = fresh ? units : this.unitsLeft - left;
      if (fresh) this.unitsTotal = left + units;
      this.unitsLeft = left;
      if (!fresh) { // a step's first unit (its first family's start) costs next to nothing: it would spoil the measure
        const ms = (t1 - t) / Math.max(1, ran);
        this.unitMs = this.unitMs > 0 ? this.unitMs * 0.7 + ms * 0.3 : ms;
      }
      this.workMs += t1 - t;
      t = t1;
      if (left === 0) {
        this.stepsLeft--;
        this.stepsDone++;
      }
      if (t >= deadline) break;
    }
    // The steps run (all those started unless cancelled: stepsDone of them), together, as the threaded stepper's.
    if (!this.busy && !this.error && this.stepsDone > 0) this.lastStepMs = this.workMs;
    return !this.busy;
  }

  /** Takes no step after the one in flight (one begun finishes: its slices cannot be undone); poll() then ends
   *  with it. stepsDone says how many ran. */
  cancel() {
    if (!this.busy) return;
    this.stepsLeft = this.unitsLeft > 0 ? 1 : 0;
  }

  /** Stops at once, even between the slices of a step: only for a world about to be destroyed (pbd_DestroyWorld
   *  releases a world mid-step; any other call would find its step half done). */
  abandon() {
    this.stepsLeft = 0;
    this.unitsLeft = 0;
    this.unitsTotal = 0;
  }

  /** Finishes the steps in flight now (blocking): for a caller that needs the world at once. */
  settle() {
    while (this.busy) this.poll(1e9);
  }

  /** How far the step in flight is, in [0, 1) (0 before its first slice). */
  get progress() { return this.unitsTotal > 0 ? Math.min(Math.max(1 - this.unitsLeft / this.unitsTotal, 0), 0.999) : 0; }

  /** A step's estimated cost (ms) from its units and a unit's measured cost; 0 until measured. */
  get estimateMs() { return this.unitsTotal > 0 ? this.unitsTotal * this.unitMs : 0; }
}
