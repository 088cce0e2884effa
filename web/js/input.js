// input.js — pointer/wheel/keyboard input on the canvas: grab particles or orbit the camera.
//
// Pointer down on an object picks a particle (world.pick, done in C) and adds an attachment that pulls it
// toward the pointer, moved in the plane through the particle facing the camera. Pointer down on empty
// space orbits; two such touches pinch-zoom; the wheel zooms. Every pointer is tracked by pointerId, so
// each finger on a touch screen can hold its own particle. Attachments are removed on pointerup/cancel
// or when capture is lost, so none can be left behind.

import { intersectPlane } from './camera.js';

const ORBIT_SPEED = 0.0065; // radians per CSS pixel
const WHEEL_ZOOM = 0.0015; // exp(deltaY * k)
const PICK_RADIUS = 0.025; // fraction of the camera distance: forgiving, but still picks the right particle

export class PointerInput {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {import('./camera.js').OrbitCamera} camera
   * @param {() => object|null} getWorld  current World (it changes on reset / scene switch)
   */
  constructor(canvas, camera, getWorld) {
    this.canvas = canvas;
    this.camera = camera;
    this.getWorld = getWorld;
    this.pointers = new Map(); // pointerId -> { mode: 'grab' | 'orbit', x, y, ... }
    this.enabled = true;

    const on = (type, fn, opts) => canvas.addEventListener(type, fn.bind(this), opts);
    on('pointerdown', this._down);
    on('pointermove', this._move);
    on('pointerup', this._end);
    on('pointercancel', this._end);
    on('lostpointercapture', this._end);
    on('wheel', this._wheel, { passive: false });
    on('keydown', this._key);
    on('contextmenu', (e) => e.preventDefault());
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

  /** Forget all pointers without touching the world (call when the world is replaced). */
  reset() {
    for (const id of this.pointers.keys()) {
      if (this.canvas.hasPointerCapture?.(id)) this.canvas.releasePointerCapture(id);
    }
    this.pointers.clear();
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

  _pick(e) {
    const world = this.getWorld();
    if (!world) return null;
    const { origin, dir } = this._ray(e);
    const i = world.pick(origin, dir, this.camera.distance * PICK_RADIUS);
    if (i < 0) return null;
    const P = world.positions;
    // Pinned particles do not move; grabbing one would do nothing, so let the drag orbit instead.
    if (P[4 * i + 3] === 0) return null;
    return { index: i, position: [P[4 * i], P[4 * i + 1], P[4 * i + 2]], origin, dir };
  }

  _down(e) {
    if (!this.enabled) return;
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    this.canvas.setPointerCapture?.(e.pointerId);
    const { x, y } = this._local(e);
    const hit = e.button === 0 ? this._pick(e) : null;
    const world = this.getWorld();
    if (hit && world) {
      const normal = this.camera.forward; // drag plane faces the camera
      const onPlane = intersectPlane(hit.origin, hit.dir, hit.position, normal) ?? hit.position;
      // Keep the offset between the pointer ray and the particle so grabbing causes no jump.
      const offset = [0, 1, 2].map((k) => hit.position[k] - onPlane[k]);
      const attachment = world.addAttachment(hit.index, hit.position, 1);
      this.pointers.set(e.pointerId, { mode: 'grab', x, y, world, attachment, particle: hit.index, point: hit.position, normal, offset });
      this.canvas.classList.add('grabbing');
    } else {
      this.pointers.set(e.pointerId, { mode: 'orbit', x, y });
    }
  }

  _move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) {
      this._hover(e);
      return;
    }
    const { x, y } = this._local(e);
    if (p.mode === 'grab') {
      const { origin, dir } = this._ray(e);
      const hitPoint = intersectPlane(origin, dir, p.point, p.normal);
      if (hitPoint && p.world === this.getWorld()) {
        const target = [0, 1, 2].map((k) => hitPoint[k] + p.offset[k]);
        p.world.moveAttachment(p.attachment, target);
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
    this.pointers.delete(e.pointerId);
    if (p.mode === 'grab') {
      // Only the world that owns the attachment may remove it (a reset may have replaced the world).
      if (p.world === this.getWorld()) p.world.removeAttachment(p.attachment);
      if (this.attachmentCount === 0) this.canvas.classList.remove('grabbing');
    }
    if (this.canvas.hasPointerCapture?.(e.pointerId)) this.canvas.releasePointerCapture(e.pointerId);
  }

  _hover(e) {
    if (e.pointerType !== 'mouse' || !this.enabled) return;
    this.canvas.classList.toggle('can-grab', this._pick(e) !== null);
  }

  _wheel(e) {
    e.preventDefault();
    const scale = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1; // lines / pages -> pixels
    this.camera.zoom(Math.exp(Math.max(-200, Math.min(200, e.deltaY * scale)) * WHEEL_ZOOM));
  }

  _key(e) {
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
