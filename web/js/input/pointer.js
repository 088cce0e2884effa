// input.js — pointer/wheel/keyboard input on the canvas: grab particles, move colliders, or orbit the camera.
//
// Pointer down casts one ray and asks the engine (in C) for both the nearest particle (world.pick) and the
// first collider surface (world.pickCollider), and tests it against the bodies' skins (pick-skin.js: a soft or
// rigid body is taken by the particle nearest to where the ray meets its skin); the nearest hit wins. A
// particle gets an attachment that pulls it toward the pointer; a collider is moved kinematically (world.setColliderTransform, rotation
// kept) so the cloth feels it. A particle moves in the plane through the hit point facing the camera. A collider
// moves in the horizontal plane through the hit point, so it keeps its height: a ball pushed through water stays
// at its depth while the pointer circles (in the camera's plane, circling moved it up and down and toward the
// viewer, in and out of the water); with Shift held it moves in the vertical plane through the hit point facing
// the camera (up and down, and sideways), and pressing or releasing Shift mid-drag carries on from where it is.
// A point past the horizon (or one more than HORIZON camera distances away, where a small pointer move would
// throw the collider across the scene) leaves the collider where it is. A collider's moves are not applied as the pointer events come: before each simulation step
// (moveHeldColliders, called by the app) it moves a fixed share of the way to the pointer (a first-order
// lag of COLLIDER_LAG seconds), so its velocity changes smoothly from step to step. A collider that jumps
// on one step and rests on the next, or that lurches at a capped speed, slides out from under a draped
// cloth instead of carrying it (measured in Node: a 0.6 m drag carries the cloth 0.02 m that way, 0.59 m
// smoothed).
// Pointer down on empty space orbits; two such touches pinch-zoom; the wheel zooms. Every pointer is
// tracked by pointerId, so each finger on a touch screen can hold its own particle or collider.
// Attachments are removed on pointerup/cancel or when capture is lost, so none can be left behind; a
// released collider stays where it was put.
// While the world is busy stepping (World.stepAsync: sim/driver.js) nothing here calls it: a press, the moves of
// a held pointer and a release wait in the app's queue (the `defer` hook) and run in order once the steps in
// flight are done, so they fall between the same steps as before and a recording of them replays exactly.
// Orbiting, zooming and the keys only move the camera: they never wait.
//
// touchScroll (the embed element's: a scene inside a page someone scrolls with a finger): a touch does not take
// hold at once. The canvas says `touch-action: pan-y`, so a vertical swipe is the browser's: it scrolls the page and
// cancels the pointer, and nothing was grabbed. A finger held still for HOLD_MS presses as the page does (grabs what
// is under it, else orbits), and from then on its touchmoves are cancelled so the page stays put while it drags. A
// finger that first moves sideways orbits (a quick swipe never pulls the cloth by accident). Two fingers pinch-zoom.
// The demo page's full-window canvas does not use it: there every touch presses at once.

import { intersectPlane } from '../render/camera.js';
import { pickSkin, nearestFreeParticle } from './pick-skin.js';
import { findObjectType } from '../objects/index.js';

const ORBIT_SPEED = 0.0065; // radians per CSS pixel
const WHEEL_ZOOM = 0.0015; // exp(deltaY * k)
const PICK_RADIUS = 0.025; // fraction of the camera distance: forgiving, but still picks the right particle
// When the ray also hits a collider, a particle wins only if it lies this close to the ray (fraction of the
// pick radius) and not behind the collider's surface: a press on bare collider surface next to the cloth
// takes the collider, a press on cloth lying on a collider takes the cloth.
const NEAR_RAY_ON_COLLIDER = 0.4;
/** touchScroll: how long a finger rests before it grabs (long enough to tell from a swipe's start, short enough
 *  not to feel like waiting), and how far it may drift meanwhile (CSS px) and still be "held". */
export const HOLD_MS = 350;
const TOUCH_SLOP = 8;

/** How closely a dragged collider follows the pointer: its time lag in seconds. */
const COLLIDER_LAG = 0.08;
/** Farthest a collider drag reaches along the pointer ray, in camera distances (a grazing horizontal plane). */
const HORIZON = 4;

/** Whether particle i belongs to a fluid object (a live or parked slot of its capacity). */
function isWater(world, i) {
  return world.objects.some((o) => findObjectType(o.type)?.water && i >= o.firstParticle && i < o.firstParticle + o.particleCount);
}

/** The plane a held collider moves in: horizontal, or (vertical = Shift held) upright and facing the camera. */
function colliderPlaneNormal(camera, vertical) {
  if (!vertical) return [0, 1, 0];
  const f = camera.forward;
  const len = Math.hypot(f[0], f[2]);
  return len > 1e-6 ? [f[0] / len, 0, f[2] / len] : [0, 0, 1]; // looking straight down: any upright plane
}

/**
 * The nearest collider the ray meets that is not glass: a glass tank's walls are the scene's frame, not
 * something to pick up (a press on the glass reaches what is behind it, e.g. the ball in the water). Each glass
 * hit restarts the ray just past it; the engine's ray cast ignores the collider its origin is inside.
 */
function pickSolidCollider(world, origin, dir) {
  let from = origin, travelled = 0;
  for (let k = 0; k < 8; k++) {
    const c = world.pickCollider(from, dir);
    if (!c || !Number.isFinite(c.t) || c.t < 0) return null;
    if (!world.colliders[c.index]?.glass) return { index: c.index, t: travelled + c.t };
    const step = c.t + 1e-4;
    travelled += step;
    from = from.map((v, j) => v + dir[j] * step);
  }
  return null;
}

export class PointerInput {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {import('../render/camera.js').OrbitCamera} camera
   * @param {() => object|null} getWorld  current World (it changes on reset / scene switch)
   * @param {{ touchScroll?: boolean }} [options]  touchScroll: a vertical swipe scrolls the page, a hold grabs
   */
  constructor(canvas, camera, getWorld, { touchScroll = false } = {}) {
    this.canvas = canvas;
    this.camera = camera;
    this.getWorld = getWorld;
    this.pointers = new Map(); // pointerId -> { mode: 'grab' | 'collider' | 'orbit', x, y, ... }
    this.enabled = true;
    /** Hook: whether a press may take hold of particles and colliders now (false: it orbits instead). */
    this.canGrab = () => true;
    this.paused = false; // while the simulation is paused, collider moves apply at once (nothing to spread)
    /** Hooks (the app's: sim/driver.js): whether world calls must wait now, and where they wait. */
    this.mustWait = () => false;
    this.defer = (fn) => fn();
    this.touchScroll = touchScroll;

    const on = (type, fn, opts) => canvas.addEventListener(type, fn.bind(this), opts);
    on('pointerdown', this._down);
    on('pointermove', this._move);
    on('pointerup', this._end);
    on('pointercancel', this._end);
    on('lostpointercapture', this._end);
    on('wheel', this._wheel, { passive: false });
    on('keydown', this._key);
    on('contextmenu', (e) => e.preventDefault());
    if (touchScroll) {
      // A finger that holds something (or orbits) keeps the page still; one still deciding lets the page scroll.
      on('touchmove', (e) => { if (this._touchDecided()) e.preventDefault(); }, { passive: false });
    }
  }

  /** Whether a pointer is held that is not a touch still deciding (touchScroll). */
  _touchDecided() {
    for (const p of this.pointers.values()) if (p.mode !== 'undecided' && p.mode !== 'scroll') return true;
    return false;
  }

  /** Number of particles currently held. */
  get attachmentCount() {
    let n = 0;
    for (const p of this.pointers.values()) if (p.mode === 'grab') n++;
    return n;
  }

  /** Indices of the particles currently held (for highlighting). */
  get heldParticles() {
    const out = [];
    for (const p of this.pointers.values()) if (p.mode === 'grab') out.push(p.particle);
    return out;
  }

  /** Indices of the colliders currently held (for highlighting). */
  get heldColliders() {
    const out = [];
    for (const p of this.pointers.values()) if (p.mode === 'collider') out.push(p.collider);
    return out;
  }

  /** True when a held collider has a move still to apply (the app then steps one step at a time). */
  get collidersMoving() {
    for (const p of this.pointers.values()) {
      if (p.mode === 'collider' && p.world === this.getWorld() && p.target.some((v, k) => v !== p.applied[k])) return true;
    }
    return false;
  }

  /**
   * Before each simulation step of dt seconds: move each held collider a share 1 - exp(-dt / COLLIDER_LAG)
   * of the way to where the pointer wants it, snapping the last tenth of a millimetre.
   */
  /**
   * Steps `world` n steps of dt seconds the way a page with this input must: while a collider is held, one
   * step at a time with the collider moved before each (moveHeldColliders), otherwise all n at once.
   */
  step(world, n, dt) {
    if (!this.collidersMoving) {
      world.step(n);
      return;
    }
    for (let k = 0; k < n; k++) {
      this.moveHeldColliders(dt);
      world.step(1);
    }
  }

  moveHeldColliders(dt) {
    const share = 1 - Math.exp(-dt / COLLIDER_LAG);
    for (const p of this.pointers.values()) {
      if (p.mode !== 'collider' || p.world !== this.getWorld()) continue;
      const d = [0, 1, 2].map((i) => p.target[i] - p.applied[i]);
      const len = Math.hypot(d[0], d[1], d[2]);
      if (len === 0) continue;
      const position = len < 1e-4 ? [...p.target] : [0, 1, 2].map((i) => p.applied[i] + d[i] * share);
      p.world.setColliderTransform(p.collider, position, p.rotation);
      p.applied = position;
    }
  }

  /** Forget all pointers without touching the world (call when the world is replaced). */
  reset() {
    for (const [id, p] of this.pointers) {
      clearTimeout(p.timer);
      if (this.canvas.hasPointerCapture?.(id)) this.canvas.releasePointerCapture(id);
    }
    this.pointers.clear();
  }

  /**
   * What a press at page position (clientX, clientY) would take hold of: { kind: 'particle' | 'collider',
   * index } or null (the press would orbit). The same pick as a real press; for tools and tests.
   */
  hitTest(clientX, clientY) {
    const hit = this._pick({ clientX, clientY });
    return hit ? { kind: hit.kind, index: hit.index } : null;
  }

  _local(e) {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top, w: r.width || 1, h: r.height || 1 };
  }

  _ray(e) {
    const { x, y, w, h } = this._local(e);
    this.camera.update(w / h);
    return this.camera.rayFromPixel(x, y, w, h);
  }

  /**
   * What is under the pointer: { kind: 'particle', index, position, origin, dir },
   * { kind: 'collider', index, position (the hit point), origin, dir } or null.
   */
  _pick(e) {
    const world = this.getWorld();
    if (!world) return null;
    const { origin, dir } = this._ray(e);
    const radius = this.camera.distance * PICK_RADIUS;
    const c = pickSolidCollider(world, origin, dir);
    const collider = c && Number.isFinite(c.t) && c.t >= 0
      ? { kind: 'collider', index: c.index, position: origin.map((v, k) => v + dir[k] * c.t), origin, dir, t: c.t }
      : null;
    // Over a collider, only a particle right on the ray and not behind the collider's surface counts (cloth
    // lying on the ball, not cloth merely near the pointer): a second, tighter pick.
    const tight = radius * NEAR_RAY_ON_COLLIDER;
    const particle = this._pickParticle(world, origin, dir, collider ? tight : radius);
    // A body's skin in front of whatever else the ray found takes the press (its particles lie inside it).
    const body = this._pickBody(world, origin, dir);
    if (body && (!particle || body.t < particle.t) && (!collider || body.t <= collider.t)) return body;
    if (!collider) return particle;
    if (!particle) return collider;
    return particle.t <= collider.t + tight ? particle : collider;
  }

  /** The particle of the body whose skin the ray meets first (nearest to the hit), as a particle hit; or null. */
  _pickBody(world, origin, dir) {
    const hit = pickSkin(world, origin, dir);
    if (!hit) return null;
    const i = nearestFreeParticle(world, hit.object, hit.point);
    if (i < 0) return null;
    const P = world.positions;
    return { kind: 'particle', index: i, position: [P[4 * i], P[4 * i + 1], P[4 * i + 2]], origin, dir, t: hit.t, body: hit.object };
  }

  /**
   * The first particle within `radius` of the ray, unless it is pinned (grabbing a pin does nothing) or water
   * (one water particle on a string is no way to move water: the press goes to the ball stirring it or orbits).
   */
  _pickParticle(world, origin, dir, radius) {
    const i = world.pick(origin, dir, radius);
    if (i < 0) return null;
    const P = world.positions;
    if (P[4 * i + 3] === 0 || isWater(world, i)) return null;
    const position = [P[4 * i], P[4 * i + 1], P[4 * i + 2]];
    const t = (position[0] - origin[0]) * dir[0] + (position[1] - origin[1]) * dir[1] + (position[2] - origin[2]) * dir[2];
    return { kind: 'particle', index: i, position, origin, dir, t };
  }

  _down(e) {
    if (!this.enabled) return;
    if (this.touchScroll && e.pointerType === 'touch') {
      this._touchDown(e);
      return;
    }
    this._begin(e);
  }

  /** touchScroll: a new finger waits HOLD_MS to press (or joins a pinch); see the header. */
  _touchDown(e) {
    const { x, y } = this._local(e);
    let pinch = false;
    for (const [id, q] of this.pointers) {
      if (q.mode === 'undecided' || q.mode === 'orbit') {
        clearTimeout(q.timer);
        this.pointers.set(id, { mode: 'orbit', x: q.x, y: q.y });
        pinch = true;
      }
    }
    if (pinch) {
      this.pointers.set(e.pointerId, { mode: 'orbit', x, y });
      return;
    }
    const p = { mode: 'undecided', x, y, x0: x, y0: y };
    p.timer = setTimeout(() => {
      if (this.pointers.get(e.pointerId) !== p || !this.enabled) return;
      this.pointers.delete(e.pointerId);
      this._begin(e); // presses where the finger came down (it has not moved further than TOUCH_SLOP)
    }, HOLD_MS);
    this.pointers.set(e.pointerId, p);
  }

  _begin(e) {
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    try {
      this.canvas.setPointerCapture?.(e.pointerId);
    } catch {
      // a held touch's pointer may have ended in between; its end then finds nothing to release
    }
    const { x, y } = this._local(e);
    if (this.mustWait()) {
      // What the press takes is asked of the world once it is free; until then the pointer is held as pending.
      this.pointers.set(e.pointerId, { mode: 'pending', x, y });
      this.defer(() => { if (this.pointers.get(e.pointerId)?.mode === 'pending') this._press(e, x, y); });
      return;
    }
    this._press(e, x, y);
  }

  _press(e, x, y) {
    const hit = e.button === 0 && this.canGrab() ? this._pick(e) : null;
    const world = this.getWorld();
    if (hit?.kind === 'particle' && world) {
      const normal = this.camera.forward; // a particle's drag plane faces the camera
      const onPlane = intersectPlane(hit.origin, hit.dir, hit.position, normal) ?? hit.position;
      // Keep the offset between the pointer ray and the particle so grabbing causes no jump.
      const offset = [0, 1, 2].map((k) => hit.position[k] - onPlane[k]);
      const attachment = world.addAttachment(hit.index, hit.position, 1);
      this.pointers.set(e.pointerId, { mode: 'grab', x, y, world, attachment, particle: hit.index, point: hit.position, normal, offset });
      this.canvas.classList.add('grabbing');
    } else if (hit?.kind === 'collider' && world) {
      const info = world.colliders[hit.index];
      // The plane goes through the hit point; the collider keeps its offset from it (no jump) and its rotation.
      const offset = [0, 1, 2].map((k) => info.position[k] - hit.position[k]);
      const vertical = e.shiftKey;
      this.pointers.set(e.pointerId, {
        mode: 'collider', x, y, world, collider: hit.index, point: hit.position, normal: colliderPlaneNormal(this.camera, vertical),
        vertical, offset, rotation: info.rotation,
        applied: info.position, target: info.position, // where the engine has it / where the pointer wants it
      });
      this.canvas.classList.add('grabbing');
    } else {
      this.pointers.set(e.pointerId, { mode: 'orbit', x, y });
    }
  }

  _move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) {
      if (!this.mustWait()) this._hover(e);
      return;
    }
    if (p.mode === 'scroll') return; // the page scrolls; the browser cancels this pointer
    if (p.mode === 'undecided') {
      const { x, y } = this._local(e);
      const dx = x - p.x0, dy = y - p.y0;
      if (Math.hypot(dx, dy) < TOUCH_SLOP) return;
      clearTimeout(p.timer);
      if (Math.abs(dx) > Math.abs(dy)) {
        this.pointers.set(e.pointerId, { mode: 'orbit', x: p.x0, y: p.y0 }); // sideways: orbit from where it began
        this._move(e);
      } else p.mode = 'scroll';
      return;
    }
    if (p.mode === 'pending' || (p.mode !== 'orbit' && this.mustWait())) {
      this.defer(() => { if (this.pointers.get(e.pointerId)) this._move(e); });
      return;
    }
    const { x, y } = this._local(e);
    if (p.mode === 'grab' || p.mode === 'collider') {
      const { origin, dir } = this._ray(e);
      if (p.mode === 'collider' && e.shiftKey !== p.vertical) {
        // Shift pressed or released: the new plane goes through the point held now (where the pointer last was).
        p.vertical = e.shiftKey;
        p.point = [0, 1, 2].map((k) => p.target[k] - p.offset[k]);
        p.normal = colliderPlaneNormal(this.camera, p.vertical);
      }
      let hitPoint = intersectPlane(origin, dir, p.point, p.normal);
      if (hitPoint && p.mode === 'collider') {
        if (Math.hypot(...hitPoint.map((v, k) => v - origin[k])) > HORIZON * this.camera.distance) hitPoint = null;
        else if (!p.vertical) hitPoint[1] = p.point[1]; // exactly its height, not the ray's rounding of it
      }
      if (hitPoint && p.world === this.getWorld()) {
        const target = [0, 1, 2].map((k) => hitPoint[k] + p.offset[k]);
        if (p.mode === 'grab') {
          p.world.moveAttachment(p.attachment, target);
        } else {
          p.target = target;
          if (this.paused) {
            p.world.setColliderTransform(p.collider, target, p.rotation);
            p.applied = target;
          }
        }
      }
    } else {
      const orbiting = [...this.pointers.values()].filter((q) => q.mode === 'orbit');
      if (orbiting.length >= 2) {
        // Pinch: zoom by the change in distance between the first two orbiting pointers.
        const [a, b] = orbiting;
        const before = Math.hypot(a.x - b.x, a.y - b.y);
        const ax = a === p ? x : a.x, ay = a === p ? y : a.y;
        const bx = b === p ? x : b.x, by = b === p ? y : b.y;
        const after = Math.hypot(ax - bx, ay - by);
        if (before > 1 && after > 1) this.camera.zoom(before / after);
      } else {
        this.camera.orbit(-(x - p.x) * ORBIT_SPEED, (y - p.y) * ORBIT_SPEED);
      }
    }
    p.x = x;
    p.y = y;
  }

  _end(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    if (p.mode === 'undecided' || p.mode === 'scroll') { // a tap or a swipe: it took nothing
      clearTimeout(p.timer);
      this.pointers.delete(e.pointerId);
      return;
    }
    if (p.mode === 'pending' || (p.mode !== 'orbit' && this.mustWait())) {
      this.defer(() => this._end(e));
      return;
    }
    this.pointers.delete(e.pointerId);
    if (p.mode === 'grab') {
      // Only the world that owns the attachment may remove it (a reset may have replaced the world).
      if (p.world === this.getWorld()) p.world.removeAttachment(p.attachment);
    }
    // A released collider simply stays where it is.
    if (this.attachmentCount === 0 && this.heldColliders.length === 0) this.canvas.classList.remove('grabbing');
    if (this.canvas.hasPointerCapture?.(e.pointerId)) this.canvas.releasePointerCapture(e.pointerId);
  }

  _hover(e) {
    if (e.pointerType !== 'mouse' || !this.enabled) return;
    this.canvas.classList.toggle('can-grab', this.canGrab() && this._pick(e) !== null);
  }

  _wheel(e) {
    if (!this.enabled) return; // the page scrolls
    e.preventDefault();
    const scale = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1; // lines / pages -> pixels
    this.camera.zoom(Math.exp(Math.max(-200, Math.min(200, e.deltaY * scale)) * WHEEL_ZOOM));
  }

  _key(e) {
    if (!this.enabled) return;
    const step = 0.08;
    const keys = {
      ArrowLeft: () => this.camera.orbit(step, 0),
      ArrowRight: () => this.camera.orbit(-step, 0),
      ArrowUp: () => this.camera.orbit(0, step),
      ArrowDown: () => this.camera.orbit(0, -step),
      '+': () => this.camera.zoom(0.9),
      '=': () => this.camera.zoom(0.9),
      '-': () => this.camera.zoom(1 / 0.9),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  }
}
