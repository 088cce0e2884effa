// limits.js — the scene format's own limits: sizes, counts, names, the camera, colliders. The solver, ground and
// wind sections and the object stiffnesses are engine parameters: their ranges and defaults are the engine's
// parameter table (engine/params.js, generated from src/minipbd.h), not written here; nor are the engine's own
// limits (src/minipbd.h PBD_LIMITS, generated into engine/param-table.js as ENGINE_LIMITS): the scene format quotes
// them where it takes the engine's bound as its own.

import { ENGINE_LIMITS as E } from '../engine/param-table.js';

const freeze = (o) => {
  for (const v of Object.values(o)) if (v && typeof v === 'object') freeze(v);
  return Object.freeze(o);
};

/** Every limit of the scene format that is not an engine parameter, so the UI and docs can quote the numbers. */
export const SCENE_LIMITS = freeze({
  maxObjects: 64,
  maxParticles: 262144,        // over all objects
  maxNameLength: 80,           // UTF-16 code units (String.prototype.length)
  maxSchemaLength: 2048,       // a file's "$schema" (the address of scene.schema.json, for editors; not kept)
  maxCoord: 1e4,               // |x|,|y|,|z| of chain start/end, cloth origin, camera target
  maxPitch: 1.55,              // exclusive: |pitch| < 1.55 rad
  distance: { min: 0.05, max: 1e4 },
  fov: { min: 10, max: 120 },
  segments: { min: 1, max: 10000 },
  resolution: { min: 2, max: 1024 },
  maxSize: 1e4,                // cloth width/height, exclusive 0
  maxMass: 1e6,                // kg per particle, exclusive 0
  maxPins: 10000,              // entries per object
  maxMassRanges: 1000,         // entries per object
  maxColliders: 16,
  colliderSize: { minExclusive: 0, max: 1e4 }, // radius, halfHeight, halfExtents
  // A collider's material (pbd_World_SetColliderMaterial's ranges; colliders are not parameters).
  colliderFriction: { min: 0, max: 10 },
  colliderRestitution: { min: 0, max: 1 },
  // Solids (docs/api.md, pbd_World_AddBody): soft and rigid bodies, their lattices and the meshes they are made of.
  bodyResolution: { min: 1, max: E.bodyMaxResolution }, // lattice cells along a body's longest side
  maxBodyRadius: 1,                      // m: a body's contact radius (pbd_World_SetObjectRadius), 0 = the default
  // Every contact radius is at most this many spacings of its object's particles: a body's particleRadius (lattice
  // spacings, tets: shortest edges), solver.thickness / 2 for every chain (segments) and cloth (its finer grid step).
  // The engine's PBD_MAX_RADIUS_SPACINGS (src/minipbd.h says why).
  maxRadiusSpacings: E.maxRadiusSpacings,
  maxSurfaceVertices: E.bodyMaxVertices, // a "mesh" body's surface (and an OBJ file)
  maxSurfaceTriangles: E.bodyMaxTriangles,
  maxTetVertices: E.bodyMaxVertices,     // a "tets" body
  maxTets: E.bodyMaxTets,
  maxMeshCoord: 1e5,                     // |x|,|y|,|z| of a mesh vertex
  maxMeshVertices: 200000,               // over all bodies of a scene
  maxMeshElements: 400000,               // triangles and tets over all bodies of a scene
  maxObjBytes: 16 * 1024 * 1024,         // an OBJ file is refused before it is read past this size
  maxPinBoxes: 16,                       // entries per body
  // Plasticity (pbd_World_SetObjectPlasticity's ranges; per object, not parameters).
  plasticity: { yield: { min: 0, max: E.plasticityMaxYield }, creep: { min: 0, max: E.plasticityMaxCreep },
    max: { min: 0, max: E.plasticityMaxStrain } },
  // Fluids (objects/fluid.js): capacities, hoses and drains. 200k fluid particles is past what one core
  // steps at frame rate (the benchmark's 100k curve) but still a world's memory in tens of MB. Objects, emitters
  // and drains: the engine's PBD_MAX_FLUID_OBJECTS, PBD_MAX_EMITTERS, PBD_MAX_DRAINS (src/minipbd.h).
  maxFluidParticles: 200000,             // over all fluid objects of a scene (their capacities)
  maxFluidObjects: E.maxFluidObjects,
  maxEmitters: E.maxEmitters,            // over all fluid objects
  maxDrains: E.maxDrains,
  emitterSpeed: { minExclusive: 0, max: E.emitterMaxSpeed },   // m/s (pbdEmitterDef.speed, PBD_EMITTER_MAX_SPEED)
  emitterRadius: { max: 1 },            // m (pbdEmitterDef.radius; at least fluid.spacing / 2)
  maxFluidSpeed: 1e4,                    // m/s: a block's initial velocity
});
