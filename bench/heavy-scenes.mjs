/* heavy-scenes.mjs -- the scenes whose step was hardest to cut into slice units of bounded work (bench/slices.mjs
   times them unit by unit; the browser tests may import them): plain scene-format objects, valid for the scene
   validator (web/js/format/scene.js), each at a limit the format allows.

     fluid-cap     a fluid at the format's particle cap (200,000) with the largest smoothing radius (4 spacings):
                   ~270 neighbours a particle, the neighbour lists' build and the sort of every particle
     hose          a hose at full rate (the largest nozzle, 1 m, at 50 m/s): the first step fills the 200,000
                   particles' capacity, the emit and the sort at the step's start
     thick-cloth   the 316 x 316 cloth of 4 m with self-collision at the largest thickness it allows (4 grid steps,
                   minipbd.h PBD_MAX_RADIUS_SPACINGS): the contacts' grid and pair search
     boxes-overlap two resolution-24 rigid boxes overlapping by half, at the largest particle radius they allow (2
                   lattice spacings): the body-body pairs
     rigid-cap     two rigid boxes at the largest resolution (48 cells: 49^3 = 117,649 particles each, 235,298 of the
                   format's 262,144): their rest normals (families/shapes_sdf.c), a neighbour search over each body at
                   its first step's start
     pinned-rows   a 512 x 512 cloth with 4,096 pins, eight whole rows of them 40 rows apart (as many as a link holds):
                   the tethers' build at the first step (each free particle's nearest pins of its four nearest rows;
                   the rows under the last one looked at every pin, until each island got its own grid)

   `sizes` scales the fluids (a quick run): 1 is the format's limit. */

/** The fluid block's edge in particles for about `particles` particles. */
const edge = (particles) => Math.floor(Math.cbrt(particles));

export function heavyScenes({ scale = 1 } = {}) {
  const cap = Math.round(200000 * scale);
  const d = 0.02;
  const n = edge(cap);
  const half = (n * d) / 2;
  return {
    'fluid-cap': {
      format: 'minipbd-scene', version: 2,
      name: `Fluid at the particle cap: ${n}^3 = ${n ** 3} particles, smoothing radius 4 spacings`,
      solver: { substeps: 2, iterations: 2 },
      fluid: { spacing: d, smoothingRadius: 4 * d },
      objects: [{ type: 'fluid', name: 'water', block: { lower: [-half, 0, -half], upper: [half, n * d, half] }, capacity: cap }],
    },
    hose: {
      format: 'minipbd-scene', version: 2,
      name: `A hose at full rate: a 1 m nozzle at 50 m/s into ${cap} particles' capacity`,
      solver: { substeps: 2, iterations: 2 },
      fluid: { spacing: d, smoothingRadius: 2 * d },
      objects: [{
        type: 'fluid', name: 'water', capacity: cap,
        block: { lower: [-0.1, 0, -0.1], upper: [0.1, 0.2, 0.1] },
        emitters: [{ position: [0, 3, 0], direction: [0, -1, 0], speed: 50, radius: 1, enabled: true }],
        drains: [{ lower: [-10, -1, -10], upper: [10, 0.05, 10] }],
      }],
    },
    'thick-cloth': {
      format: 'minipbd-scene', version: 2,
      name: 'The 316 x 316 cloth with self-collision at 4 grid steps of thickness',
      // 4 m over 315 steps: 0.0127 m, so at most 0.0508 m
      solver: { damping: 0.05, thickness: 0.05, selfCollision: true },
      objects: [{ type: 'cloth', name: 'large cloth', origin: [-2, 4.2, 0], size: [4, 4], resolution: [316, 316], plane: 'xy', mass: 0.0005,
        pins: Array.from({ length: 316 }, (_, i) => [i, 0]) }],
    },
    'boxes-overlap': {
      format: 'minipbd-scene', version: 2,
      name: 'Two resolution-24 boxes overlapping by half, particle radius 2 lattice spacings',
      objects: [0, 0.5].map((x, k) => ({
        type: 'rigid', name: `box ${k + 1}`, shape: 'box', position: [x, 1, 0], halfExtents: [0.5, 0.5, 0.5], resolution: 24,
        mass: 1, particleRadius: 2 / 24,
      })),
    },
    'pinned-rows': {
      format: 'minipbd-scene', version: 2,
      name: 'A 512 x 512 cloth with 4,096 pins in eight rows',
      objects: [{ type: 'cloth', name: 'pinned rows', origin: [-1, 2.2, 0], size: [2, 2], resolution: [512, 512], plane: 'xy', mass: 0.0005,
        pins: Array.from({ length: 4096 }, (_, k) => [k % 512, 40 * Math.floor(k / 512)]) }],
    },
    'rigid-cap': {
      format: 'minipbd-scene', version: 2,
      name: 'Two rigid boxes at resolution 48: 235,298 particles',
      objects: [-0.6, 0.6].map((x, k) => ({
        type: 'rigid', name: `box ${k + 1}`, shape: 'box', position: [x, 0.6, 0], halfExtents: [0.5, 0.5, 0.5], resolution: 48, mass: 1,
      })),
    },
  };
}

/**
 * A scene whose build is mostly its models' inside test: two open UV spheres (their poles' triangles have no area and
 * are left out, so the surface is open and each cell's winding number is summed: src/builders/winding.c) of
 * `segments` x segments / 2 quads, at the largest resolution (48). 200 segments' worth of triangles (400) and the two
 * fit a 4.2 KB link; their build took 6.9 s of wasm in one call (the fill run twice), now one fill a model
 * (objects/body-fill.js), in pieces when the page asks for it (sim/prepare.js).
 */
export function openModels({ segments = 20 } = {}) {
  const rings = segments / 2;
  const lines = [];
  for (let j = 0; j <= rings; j++) {
    for (let i = 0; i < segments; i++) {
      const th = (Math.PI * j) / rings, ph = (2 * Math.PI * i) / segments;
      lines.push(`v ${(Math.sin(th) * Math.cos(ph)).toFixed(4)} ${Math.cos(th).toFixed(4)} ${(Math.sin(th) * Math.sin(ph)).toFixed(4)}`);
    }
  }
  const id = (i, j) => j * segments + (i % segments) + 1;
  for (let j = 0; j < rings; j++) {
    for (let i = 0; i < segments; i++) {
      lines.push(`f ${id(i, j)} ${id(i + 1, j)} ${id(i + 1, j + 1)}`, `f ${id(i, j)} ${id(i + 1, j + 1)} ${id(i, j + 1)}`);
    }
  }
  const obj = `${lines.join('\n')}\n`;
  return {
    format: 'minipbd-scene', version: 2,
    name: `Two open spheres of ${2 * segments * rings} triangles at resolution 48`,
    objects: [-1.2, 1.2].map((x, k) => ({
      type: 'rigid', name: `sphere ${k + 1}`, shape: 'mesh', obj, size: 2, resolution: 48, position: [x, 1.2, 0], mass: 1,
    })),
  };
}
