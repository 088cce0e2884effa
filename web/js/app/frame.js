// frame.js — every animation frame: the steps due (sim/driver.js), the canvas's size, the camera and, when the picture
// would change (redraw.js), the drawing; and the readout, the described view, the plots and the fluid's statistics a
// few times a second.

import { t } from '../i18n/i18n.js';
import { hasWater } from '../objects/index.js';
import { errorText } from './errors.js';
import { redrawGate } from './redraw.js';

const READOUT_INTERVAL_MS = 200;

/** app: main.js's { state, camera, ui, driver, exposed, canvas, renderer, input }; size: canvas-size.js's;
 *  viewTools: panel/view-tools.js's. Returns { frame(now), updateReadout(now, force), startReadoutTimer(),
 *  requestRedraw(n) }. */
export function frameLoop(app, { size, viewTools }) {
  const { state, camera, driver, exposed, canvas } = app;
  const gate = redrawGate(window);

  // Every READOUT_INTERVAL_MS whatever a step costs, never waiting on the world: World.peekStats() reads stats()
  // when the world is free (≤ 3 ms on the largest scenes: errors and energies over the whole world, so a few times
  // a second, not every frame), else what the stepper knows (steps ended one by one, the last step's time or the
  // estimate of the one in flight) with the errors and energies read last.
  function updateReadout(now, force = false) {
    if (!state.world || state.world.destroyed || (!force && now - state.lastReadout < READOUT_INTERVAL_MS)) return;
    state.lastReadout = now;
    const s = state.world.peekStats();
    const stepMs = Number.isFinite(s.stepMs) && s.stepMs > 0 ? s.stepMs : state.loop.stepMs;
    const input = app.input;
    app.ui.update({ readout: { particles: s.particles, constraints: s.constraints, stepMs, steps: s.steps } });
    app.ui.setDescription({
      particles: s.particles,
      constraints: s.constraints,
      paused: state.paused,
      heldParticles: input?.heldParticles.length ?? 0,
      heldColliders: (input?.heldColliders ?? []).map((i) => state.scene?.colliders[i]?.name ?? `#${i + 1}`),
    });
    state.plots?.update(state.world, s, state.loop.dt);
    app.ui.update({ fluid: fluidStats(state.world) });
  }

  function frame(now) {
    requestAnimationFrame(frame);
    if (!state.world) {
      state.loop.lastTime = now;
      return;
    }
    try {
      const what = driver.frame(now, !state.paused); // 'upload' (new state, the world free) or 'redraw' (busy)
      // Full size while a screenshot is pending (a software renderer otherwise draws at its pixelScale).
      if (size.device && app.renderer.fit(...size.device, viewTools.pending ? 1 : undefined)) gate.request(1);
      camera.update(canvas.width / canvas.height);
      state.view.held = app.input.heldParticles;
      state.view.heldColliders = app.input.heldColliders;
      // Drawn only when the picture would change: not while steps are in flight with nothing else new (a frame
      // would draw the last buffers again), not while a free world is paused and idle.
      // Between steps the picture moves every frame (the blend, sim/driver.js); a redraw keeps the last upload's.
      const blend = what === 'upload' ? driver.blend(!state.paused) : app.renderer.blend;
      const due = gate.due({ stepped: driver.stepped, world: state.world, width: canvas.width, height: canvas.height, camera, view: state.view, blend });
      if (due && app.renderer.draw(camera, state.view, { upload: what === 'upload', time: now, blend })) {
        gate.drawn();
        viewTools.drawn(); // a screenshot asked for is taken now, while the frame is in the drawing buffer
        if (!exposed.ready) {
          exposed.ready = true;
          document.documentElement.dataset.ready = 'true';
        }
      }
      updateReadout(now); // busy or not
      if (what === 'upload') driver.afterDraw(); // the steps due start now: the threaded runner takes them while the page waits a frame
    } catch (err) {
      state.paused = true;
      if (app.input) app.input.paused = true;
      app.ui.setPaused(true);
      app.ui.showError(t('error.stopped', { error: errorText(err) }));
    }
  }

  return {
    frame,
    updateReadout,
    requestRedraw: gate.request,
    // The readout also from a timer: frames may come slower than 4 a second (a software GPU, a busy machine), the
    // readout and the described view do not (peekStats never waits on the world).
    startReadoutTimer() {
      setInterval(() => {
        try { updateReadout(performance.now()); } catch (err) { console.error(err); }
      }, READOUT_INTERVAL_MS / 4);
    },
  };
}

/** The fluid's statistics (the last read while steps are in flight), or null when the scene has no fluid (or the
 *  engine cannot measure it yet). */
function fluidStats(world) {
  if (!hasWater(world.scene)) return null;
  try { return world.peekFluidStats(); } catch { return null; }
}
