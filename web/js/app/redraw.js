// redraw.js — the demo page draws a frame only when it would differ from the one on screen, as the <minipbd-scene>
// element does (embed/element.js): steps shown (the page's or a tool's), the canvas resized, the camera moved, the
// view's switches or what the pointer holds changed, the blend between two steps moved (a display faster than the
// simulation: renderer.js), a new world or a restored context; and for a few frames after
// anything the page is told (a pointer, a key, a wheel, a panel control, a message from a host page, a change of
// colour scheme), which covers every change made through the page's own controls without each one having to say so.
// A tool that changes the world from outside them (window.minipbd.world.setPosition …) asks: app.requestRedraw().
// Frames while steps are in flight are no exception: they would draw the last buffers again.
//
// Why: a paused page used to redraw the same picture every frame. Without a GPU (Chrome falls back to SwiftShader,
// software WebGL) a frame of the chain scene costs about 37 ms of CPU, so an idle paused page kept both cores of a
// 2-core machine busy: 1.9 cores measured (tests' pages, 800 x 560), against 0.2 with the frames skipped. On a GPU
// it is a laptop's battery.

/** Frames drawn after an event: a change the event makes may land a frame later (a call that waited for steps in
 *  flight runs in the next frame's drain, sim/driver.js). */
export const REDRAW_FRAMES = 3;

const EVENTS = ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'wheel', 'keydown', 'keyup', 'input', 'change', 'click', 'message', 'resize', 'fullscreenchange', 'visibilitychange'];

/** A gate over window `win`'s frames. Returns { due(frame), drawn(), request(n) }:
 *  due({ stepped, world, width, height, camera, view, blend }) says whether this frame must be drawn; drawn() after a
 *  frame was drawn (a draw that could not happen, e.g. nothing uploaded yet, leaves the debt); request(n) asks for
 *  n frames (a tool or a test that changed the world from outside the page's controls: window.minipbd.app.requestRedraw). */
export function redrawGate(win = window) {
  let owed = REDRAW_FRAMES; // the first frames are drawn
  let last = null; // what the last drawn frame showed: { world, sig }
  const request = (n = REDRAW_FRAMES) => { owed = Math.max(owed, n); };
  const onEvent = () => request();
  for (const type of EVENTS) win.addEventListener(type, onEvent, { capture: true, passive: true });
  win.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', onEvent);
  let pendingSig = null;
  return {
    request,
    due({ stepped, world, width, height, camera, view, blend = 1 }) {
      const sig = signature(width, height, camera, view);
      sig.push(world.stepsEnded, blend); // steps taken by anyone (a tool's world.step too), not only the page's
      pendingSig = { world, sig };
      return stepped || owed > 0 || !last || last.world !== world || !sameArray(last.sig, sig);
    },
    drawn() {
      if (owed > 0) owed--;
      last = pendingSig;
    },
  };
}

/** What a frame is drawn from, besides the world: canvas size, the camera's matrix and every field of the view
 *  (its switches, the ground, what is held: arrays by their items, anything else by value). */
function signature(width, height, camera, view) {
  const sig = [width, height, ...camera.viewProj];
  for (const v of Object.values(view)) {
    if (Array.isArray(v)) sig.push(v.length, ...v);
    else sig.push(v);
  }
  return sig;
}

function sameArray(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
