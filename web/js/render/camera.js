// camera.js — orbit camera: matrices for the renderer, rays for picking, projection for tests.
//
// The camera orbits `target` at `distance`; yaw turns around +Y (yaw 0 looks down -Z from +Z),
// pitch raises the eye (positive = looking down). Its state is exactly the scene's `camera` block,
// so a shared link can carry the view. Matrices are column-major Float32Arrays (WebGL layout).

const MIN_PITCH = -1.5; // scene format allows |pitch| < 1.55; stay clear of the pole (lookAt degenerates)
const MAX_PITCH = 1.5;
const MIN_DISTANCE = 0.05;
const MAX_DISTANCE = 1e4;

export const DEFAULT_CAMERA = Object.freeze({ target: [0, 1, 0], yaw: 0.6, pitch: 0.25, distance: 4, fov: 45 });

function perspective(out, fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  out.fill(0);
  out[0] = f / aspect;
  out[5] = f;
  out[10] = (far + near) / (near - far);
  out[11] = -1;
  out[14] = (2 * far * near) / (near - far);
  return out;
}

function lookAt(out, eye, target, up) {
  let zx = eye[0] - target[0], zy = eye[1] - target[1], zz = eye[2] - target[2];
  let l = Math.hypot(zx, zy, zz) || 1;
  zx /= l; zy /= l; zz /= l;
  let xx = up[1] * zz - up[2] * zy, xy = up[2] * zx - up[0] * zz, xz = up[0] * zy - up[1] * zx;
  l = Math.hypot(xx, xy, xz) || 1;
  xx /= l; xy /= l; xz /= l;
  const yx = zy * xz - zz * xy, yy = zz * xx - zx * xz, yz = zx * xy - zy * xx;
  out[0] = xx; out[1] = yx; out[2] = zx; out[3] = 0;
  out[4] = xy; out[5] = yy; out[6] = zy; out[7] = 0;
  out[8] = xz; out[9] = yz; out[10] = zz; out[11] = 0;
  out[12] = -(xx * eye[0] + xy * eye[1] + xz * eye[2]);
  out[13] = -(yx * eye[0] + yy * eye[1] + yz * eye[2]);
  out[14] = -(zx * eye[0] + zy * eye[1] + zz * eye[2]);
  out[15] = 1;
  return out;
}

function multiply(out, a, b) {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] =
        a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return out;
}

function invert(out, m) {
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = m;
  const b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10, b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11, b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30, b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31, b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  const d = det ? 1 / det : 0;
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * d;
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * d;
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * d;
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * d;
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * d;
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * d;
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * d;
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * d;
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * d;
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * d;
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * d;
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * d;
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * d;
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * d;
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * d;
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * d;
  return out;
}

function transform4(m, x, y, z, w) {
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12] * w,
    m[1] * x + m[5] * y + m[9] * z + m[13] * w,
    m[2] * x + m[6] * y + m[10] * z + m[14] * w,
    m[3] * x + m[7] * y + m[11] * z + m[15] * w,
  ];
}

export class OrbitCamera {
  constructor(state = DEFAULT_CAMERA) {
    this.view = new Float32Array(16);
    this.proj = new Float32Array(16);
    this.viewProj = new Float32Array(16);
    this.invViewProj = new Float32Array(16);
    this.aspect = 1;
    this.set(state);
  }

  /** Adopt a scene `camera` block (missing fields fall back to the format's defaults). */
  set(state = {}) {
    const s = { ...DEFAULT_CAMERA, ...(state ?? {}) };
    this.target = [...s.target];
    this.yaw = s.yaw;
    this.pitch = Math.min(MAX_PITCH, Math.max(MIN_PITCH, s.pitch));
    this.distance = Math.min(MAX_DISTANCE, Math.max(MIN_DISTANCE, s.distance));
    this.fov = s.fov;
    this.update(this.aspect);
  }

  /** The camera as a scene `camera` block, rounded so links stay short. */
  toJSON() {
    const r = (v) => Math.round(v * 1000) / 1000;
    const yaw = Math.atan2(Math.sin(this.yaw), Math.cos(this.yaw)); // orbiting winds yaw up; keep it in (-pi, pi]
    return { target: this.target.map(r), yaw: r(yaw), pitch: r(this.pitch), distance: r(this.distance), fov: this.fov };
  }

  get eye() {
    const cp = Math.cos(this.pitch);
    return [
      this.target[0] + this.distance * cp * Math.sin(this.yaw),
      this.target[1] + this.distance * Math.sin(this.pitch),
      this.target[2] + this.distance * cp * Math.cos(this.yaw),
    ];
  }

  /** Unit vector from the eye toward the target. */
  get forward() {
    const e = this.eye;
    const f = [this.target[0] - e[0], this.target[1] - e[1], this.target[2] - e[2]];
    const l = Math.hypot(...f) || 1;
    return f.map((v) => v / l);
  }

  orbit(dYaw, dPitch) {
    this.yaw += dYaw;
    this.pitch = Math.min(MAX_PITCH, Math.max(MIN_PITCH, this.pitch + dPitch));
  }

  /** factor > 1 moves away. */
  zoom(factor) {
    if (!Number.isFinite(factor) || factor <= 0) return;
    this.distance = Math.min(MAX_DISTANCE, Math.max(MIN_DISTANCE, this.distance * factor));
  }

  /** Recompute matrices; near/far follow the distance so depth precision suits any scene scale. */
  update(aspect) {
    this.aspect = aspect > 0 ? aspect : 1;
    const near = Math.max(0.005, this.distance * 0.02);
    const far = this.distance * 60 + 50;
    // In portrait views keep the horizontal field of view at least `fov`, so a scene framed for a wide
    // screen still fits across a phone held upright.
    let fovy = (this.fov * Math.PI) / 180;
    if (this.aspect < 1) fovy = Math.min(2 * Math.atan(Math.tan(fovy / 2) / this.aspect), (150 * Math.PI) / 180);
    perspective(this.proj, fovy, this.aspect, near, far);
    lookAt(this.view, this.eye, this.target, [0, 1, 0]);
    multiply(this.viewProj, this.proj, this.view);
    invert(this.invViewProj, this.viewProj);
    this.near = near;
    this.far = far;
  }

  /** World-space ray through CSS pixel (x, y) of a width x height viewport: {origin, dir}. */
  rayFromPixel(x, y, width, height) {
    const nx = (2 * x) / width - 1;
    const ny = 1 - (2 * y) / height;
    const a = transform4(this.invViewProj, nx, ny, -1, 1);
    const b = transform4(this.invViewProj, nx, ny, 1, 1);
    const p0 = [a[0] / a[3], a[1] / a[3], a[2] / a[3]];
    const p1 = [b[0] / b[3], b[1] / b[3], b[2] / b[3]];
    const d = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
    const l = Math.hypot(...d) || 1;
    return { origin: this.eye, dir: d.map((v) => v / l) };
  }

  /** CSS pixel position [x, y, ndcDepth] of world point p in a width x height viewport. */
  project(p, width, height) {
    const c = transform4(this.viewProj, p[0], p[1], p[2], 1);
    return [((c[0] / c[3] + 1) / 2) * width, ((1 - c[1] / c[3]) / 2) * height, c[2] / c[3]];
  }
}

/** Point where the ray meets the plane through `point` with normal `normal`, or null if parallel/behind. */
export function intersectPlane(origin, dir, point, normal) {
  const denom = dir[0] * normal[0] + dir[1] * normal[1] + dir[2] * normal[2];
  if (Math.abs(denom) < 1e-8) return null;
  const t =
    ((point[0] - origin[0]) * normal[0] + (point[1] - origin[1]) * normal[1] + (point[2] - origin[2]) * normal[2]) / denom;
  if (t < 0) return null;
  return [origin[0] + dir[0] * t, origin[1] + dir[1] * t, origin[2] + dir[2] * t];
}
