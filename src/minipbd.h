/* minipbd.h -- MiniPBD public C API.

   What it is
   ----------
   A Position Based Dynamics engine (Mueller et al. 2007; our seed 000) in C99 with
   one particle world for every kind of object. It builds natively (gcc, clang) and
   to a standalone WebAssembly module with SIMD (-msimd128). The same inputs give the
   same bits on both: build with -ffp-contract=off and keep libm out of the step.

   How to use it
   -------------
       pbdWorldDef def = pbd_DefaultWorldDef();      // zero means default for every field
       def.maxParticles = 20000;
       def.maxConstraints = 120000;
       pbdWorldId world = pbd_CreateWorld(&def);     // the whole pool is reserved here
       pbdClothDef cloth = pbd_DefaultClothDef();
       cloth.resolutionU = 64; cloth.resolutionV = 64;
       int first = pbd_World_AddCloth(world, &cloth); // index of the cloth's first particle
       pbd_World_SetInvMass(world, first, 0.0f);      // w = 0 pins a particle
       for (int i = 0; i < 600; ++i) pbd_World_Step(world);
       const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, NULL);
       pbd_DestroyWorld(world);

   Every function that can fail returns a negative pbdError (or 0 / -1 where it says
   so), sets a message readable with pbd_World_GetLastErrorMessage(world) (or, for calls
   that have no valid world, pbd_GetLastErrorMessage()), and leaves the world exactly as
   it was. No function allocates after pbd_CreateWorld; in particular
   pbd_World_Step never allocates, so views over the buffers stay valid.

   Particle buffers are 4 floats per particle (x, y, z, w) so that one 16-byte load
   fetches a particle in the SIMD solver and a renderer can upload them as they are.
*/
#ifndef MINIPBD_H
#define MINIPBD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__EMSCRIPTEN__)
#define PBD_API __attribute__((used, visibility("default")))
#else
#define PBD_API
#endif

/// Error codes. The X-macro keeps codes and messages in one table (the sokol way).
#define PBD_ERRORS(X)                                                                  \
	X(PBD_OK, 0, "ok")                                                                 \
	X(PBD_ERR_INVALID_WORLD, -1, "invalid or destroyed world handle")                  \
	X(PBD_ERR_INVALID_ARGUMENT, -2, "invalid argument")                                \
	X(PBD_ERR_NOT_FINITE, -3, "a number is NaN or infinite")                           \
	X(PBD_ERR_PARTICLE_CAPACITY, -4, "particle capacity exceeded")                     \
	X(PBD_ERR_CONSTRAINT_CAPACITY, -5, "constraint capacity exceeded")                 \
	X(PBD_ERR_ATTACHMENT_CAPACITY, -6, "attachment capacity exceeded")                 \
	X(PBD_ERR_TRIANGLE_CAPACITY, -7, "triangle capacity exceeded")                     \
	X(PBD_ERR_LINE_CAPACITY, -8, "line capacity exceeded")                             \
	X(PBD_ERR_OBJECT_CAPACITY, -9, "object capacity exceeded")                         \
	X(PBD_ERR_OUT_OF_MEMORY, -10, "the pool could not be reserved")                    \
	X(PBD_ERR_TOO_MANY_WORLDS, -11, "too many worlds")                                 \
	X(PBD_ERR_BAD_DEF, -12, "definition not made by its pbd_Default...Def function")   \
	X(PBD_ERR_INVALID_ATTACHMENT, -13, "invalid or removed attachment handle")         \
	X(PBD_ERR_INVALID_PARTICLE, -14, "particle index out of range")                    \
	X(PBD_ERR_UNKNOWN_PARAM, -15, "unknown parameter")                               \
	X(PBD_ERR_COLLIDER_CAPACITY, -16, "collider capacity exceeded")                    \
	X(PBD_ERR_INVALID_COLLIDER, -17, "collider index out of range")                    \
	X(PBD_ERR_FLUID_CAPACITY, -18, "fluid capacity exceeded")                          \
	X(PBD_ERR_STEP_IN_PROGRESS, -19, "a step taken in slices is in progress")

typedef enum pbdError {
#define PBD_X_ENUM(name, value, text) name = value,
	PBD_ERRORS(PBD_X_ENUM)
#undef PBD_X_ENUM
} pbdError;

/// World handle: index and generation packed in a positive int; 0 is never valid.
/// A stale handle is detected, never dereferenced. Crosses into JS as a number.
typedef int32_t pbdWorldId;

/// Attachment handle (slot and generation), positive; 0 is never valid.
typedef int32_t pbdAttachmentId;

/// Hard limits that make the pool size computable and bounded.
#define PBD_MAX_WORLDS 64
#define PBD_MAX_PARTICLES (1 << 22)
#define PBD_MAX_CONSTRAINTS (1 << 24)
#define PBD_MAX_ATTACHMENTS 256
#define PBD_MAX_OBJECTS 256
#define PBD_MAX_COLLIDERS 64
/// A particle's contact radius is at most this many spacings of its object's particles (the cloth's
/// finer grid step, a chain's segment, a body's finest lattice step or its tets' shortest edge, the
/// fluid's spacing): r <= 2 s, so a cloth or chain takes thickness <= 4 s. Why: a contact radius
/// much larger than the spacing is not a contact model (a particle's sphere overlaps dozens of its own
/// object's neighbours, which the rest-pose filter then has to throw away), and the neighbour search's
/// work per particle grows with (r / s)^3 in a body, (r / s)^2 in a cloth: two resolution-24 boxes at
/// the old limit of 1 m overlapped in ~244 M pairs, 7.8 s a substep. At r <= 2 s a particle meets at
/// most ~3,000 candidates of its own object at rest (27 cells of edge 2.4 r around it), whatever the
/// scale. The value enters where the radius does: pbdParam_thickness (for every chain and cloth, and
/// any object whose radius is 0), pbd_World_SetObjectRadius, pbdBodyDef.particleRadius, and the
/// builders of chains and cloths (the world's thickness against the new object's spacing); each
/// refuses a value past the limit with PBD_ERR_INVALID_ARGUMENT, naming the value and the limit.
#define PBD_MAX_RADIUS_SPACINGS 2.0f

/// Plasticity's bounds (pbd_World_SetObjectPlasticity): yield and max strain, creep rate (1/s).
#define PBD_PLASTICITY_MAX_YIELD 10.0f
#define PBD_PLASTICITY_MAX_CREEP 1000.0f
#define PBD_PLASTICITY_MAX_STRAIN 10.0f

/// Limits: the one table of the engine's hard bounds that callers check against, exported beside the parameter
/// table (pbd_LimitCount, pbd_LimitName, pbd_GetLimit) and generated into web/js/engine/param-table.js as
/// ENGINE_LIMITS, which the scene format's limits (web/js/format/limits.js) and the thread team read instead of
/// copies. Columns: name (JS), value (the macro, defined in this header by the part it bounds).
#define PBD_LIMITS(X)                                             \
	X("maxWorlds", PBD_MAX_WORLDS)                                \
	X("maxParticles", PBD_MAX_PARTICLES)                          \
	X("maxConstraints", PBD_MAX_CONSTRAINTS)                      \
	X("maxAttachments", PBD_MAX_ATTACHMENTS)                      \
	X("maxObjects", PBD_MAX_OBJECTS)                              \
	X("maxColliders", PBD_MAX_COLLIDERS)                          \
	X("maxRadiusSpacings", PBD_MAX_RADIUS_SPACINGS)               \
	X("maxThreads", PBD_MAX_THREADS)                              \
	X("maxConvergence", PBD_MAX_CONVERGENCE)                      \
	X("bodyMaxVertices", PBD_BODY_MAX_VERTICES)                   \
	X("bodyMaxTriangles", PBD_BODY_MAX_TRIANGLES)                 \
	X("bodyMaxTets", PBD_BODY_MAX_TETS)                           \
	X("bodyMaxResolution", PBD_BODY_MAX_RESOLUTION)               \
	X("plasticityMaxYield", PBD_PLASTICITY_MAX_YIELD)             \
	X("plasticityMaxCreep", PBD_PLASTICITY_MAX_CREEP)             \
	X("plasticityMaxStrain", PBD_PLASTICITY_MAX_STRAIN)           \
	X("maxFluidObjects", PBD_MAX_FLUID_OBJECTS)                   \
	X("emitterMaxSpeed", PBD_EMITTER_MAX_SPEED)                   \
	X("maxEmitters", PBD_MAX_EMITTERS)                            \
	X("maxDrains", PBD_MAX_DRAINS)                                \
	X("inflatableMaxResolution", PBD_INFLATABLE_MAX_RESOLUTION)

PBD_API int pbd_LimitCount(void);
/// Limit `index`'s name (PBD_LIMITS order), or NULL out of range.
PBD_API const char* pbd_LimitName(int index);
/// Limit `index`'s value (NAN out of range).
PBD_API double pbd_GetLimit(int index);

/// Parameters: the one table of every world setting. This X-macro is the only place a
/// parameter's name, default, range, unit, owner and place in the scene format are written;
/// pbd_GetParamInfo exports it, and the JS scene validator, link codec, panel and types are
/// built from that export (web/js/engine/param-table.js is generated from it by `make`, and a
/// Node test fails if the two differ). Columns:
///   id, name (what JS and scene files use), default, min, max (inclusive), flags
///   (PBD_PARAM_INTEGER / PBD_PARAM_BOOLEAN), unit, owner (the module that reads it), scene
///   (its place in the scene format: "solver.dt", "solver.gravity.1"; "cloth.stiffness.stretch"
///   for every object of that type; "" = not in the scene format).
/// Defaults are the scene format's: 10 substeps x 1 pass (docs/physics.md "Substeps or passes").
#define PBD_PARAMS(X)                                                                                                    \
	X(pbdParam_dt, "dt", 1.0f / 60.0f, 1e-4f, 0.1f, 0, "s", "step", "solver.dt")                                         \
	X(pbdParam_substeps, "substeps", 10.0f, 1.0f, 64.0f, PBD_PARAM_INTEGER, "1", "step", "solver.substeps")              \
	X(pbdParam_iterations, "iterations", 1.0f, 1.0f, 200.0f, PBD_PARAM_INTEGER, "1", "step", "solver.iterations")        \
	X(pbdParam_damping, "damping", 0.0f, 0.0f, 100.0f, 0, "1/s", "step", "solver.damping")                               \
	X(pbdParam_gravityX, "gravityX", 0.0f, -1000.0f, 1000.0f, 0, "m/s^2", "step", "solver.gravity.0")                    \
	X(pbdParam_gravityY, "gravityY", -9.81f, -1000.0f, 1000.0f, 0, "m/s^2", "step", "solver.gravity.1")                  \
	X(pbdParam_gravityZ, "gravityZ", 0.0f, -1000.0f, 1000.0f, 0, "m/s^2", "step", "solver.gravity.2")                    \
	X(pbdParam_groundEnabled, "groundEnabled", 1.0f, 0.0f, 1.0f, PBD_PARAM_BOOLEAN, "1", "boundary", "ground.enabled")   \
	X(pbdParam_groundHeight, "groundHeight", 0.0f, -1e4f, 1e4f, 0, "m", "boundary", "ground.height")                       \
	X(pbdParam_restitution, "restitution", 0.2f, 0.0f, 1.0f, 0, "1", "ground", "ground.restitution")                     \
	X(pbdParam_staticFriction, "staticFriction", 0.4f, 0.0f, 10.0f, 0, "1", "ground", "ground.staticFriction")           \
	X(pbdParam_kineticFriction, "kineticFriction", 0.3f, 0.0f, 10.0f, 0, "1", "ground", "ground.kineticFriction")        \
	X(pbdParam_maxSpeed, "maxSpeed", 100.0f, 0.001f, 1e4f, 0, "m/s", "step", "solver.maxSpeed")                          \
	X(pbdParam_stiffnessStretch, "stiffness.stretch", 1.0f, 0.0f, 1.0f, 0, "1", "distance", "cloth.stiffness.stretch")  \
	X(pbdParam_stiffnessShear, "stiffness.shear", 1.0f, 0.0f, 1.0f, 0, "1", "distance", "cloth.stiffness.shear")        \
	X(pbdParam_stiffnessBend, "stiffness.bend", 0.1f, 0.0f, 1.0f, 0, "1", "distance", "cloth.stiffness.bend")           \
	X(pbdParam_stiffnessChain, "stiffness.chain", 1.0f, 0.0f, 1.0f, 0, "1", "distance", "chain.stiffness")              \
	X(pbdParam_stiffnessEdge, "stiffness.edge", 1.0f, 0.0f, 1.0f, 0, "1", "distance", "soft.stiffness.edge")            \
	X(pbdParam_stiffnessVolume, "stiffness.volume", 1.0f, 0.0f, 1.0f, 0, "1", "volume", "soft.stiffness.volume")        \
	X(pbdParam_stiffnessShape, "stiffness.shape", 1.0f, 0.0f, 1.0f, 0, "1", "shapes", "rigid.stiffness")                \
	X(pbdParam_tethers, "tethers", 1.0f, 0.0f, 1.0f, 0, "1", "tethers", "solver.tethers")                                \
	X(pbdParam_tetherSlack, "tetherSlack", 0.0f, 0.0f, 1.0f, 0, "1", "tethers", "solver.tetherSlack")                    \
	X(pbdParam_windX, "windX", 0.0f, -1000.0f, 1000.0f, 0, "m/s", "wind", "wind.velocity.0")                             \
	X(pbdParam_windY, "windY", 0.0f, -1000.0f, 1000.0f, 0, "m/s", "wind", "wind.velocity.1")                             \
	X(pbdParam_windZ, "windZ", 0.0f, -1000.0f, 1000.0f, 0, "m/s", "wind", "wind.velocity.2")                             \
	X(pbdParam_airDensity, "airDensity", 0.0f, 0.0f, 100.0f, 0, "kg/m^3", "wind", "wind.density")                        \
	X(pbdParam_drag, "drag", 1.0f, 0.0f, 10.0f, 0, "1", "wind", "wind.drag")                                             \
	X(pbdParam_lift, "lift", 0.3f, 0.0f, 10.0f, 0, "1", "wind", "wind.lift")                                             \
	X(pbdParam_tearStretch, "tearStretch", 0.0f, 0.0f, 100.0f, 0, "1", "distance", "solver.tearStretch")                 \
	X(pbdParam_thickness, "thickness", 0.01f, 0.0001f, 1.0f, 0, "m", "materials", "solver.thickness")                    \
	X(pbdParam_selfCollision, "selfCollision", 0.0f, 0.0f, 1.0f, PBD_PARAM_BOOLEAN, "1", "contacts", "solver.selfCollision") \
	X(pbdParam_collisions, "collisions", 1.0f, 0.0f, 1.0f, PBD_PARAM_BOOLEAN, "1", "materials", "solver.collisions")  \
	X(pbdParam_selfFriction, "selfFriction", 0.2f, 0.0f, 1.0f, 0, "1", "contacts", "solver.selfFriction")               \
	X(pbdParam_recordConvergence, "recordConvergence", 0.0f, 0.0f, 1.0f, PBD_PARAM_BOOLEAN, "1", "instruments", "")     \
	X(pbdParam_fluidRestDensity, "fluid.restDensity", 1000.0f, 1.0f, 1e5f, 0, "kg/m^3", "fluid", "fluid.restDensity")     \
	X(pbdParam_fluidSpacing, "fluid.spacing", 0.02f, 0.002f, 1.0f, 0, "m", "fluid", "fluid.spacing")                    \
	X(pbdParam_fluidSmoothingRadius, "fluid.smoothingRadius", 0.04f, 0.002f, 4.0f, 0, "m", "fluid", "fluid.smoothingRadius") \
	X(pbdParam_fluidRelaxation, "fluid.relaxation", 0.01f, 0.0f, 10.0f, 0, "1", "fluid", "fluid.relaxation")              \
	X(pbdParam_fluidScorrK, "fluid.scorrK", 0.1f, 0.0f, 1.0f, 0, "1", "fluid", "fluid.scorr.k")                           \
	X(pbdParam_fluidScorrN, "fluid.scorrN", 4.0f, 1.0f, 8.0f, PBD_PARAM_INTEGER, "1", "fluid", "fluid.scorr.n")           \
	X(pbdParam_fluidScorrDq, "fluid.scorrDq", 0.2f, 0.0f, 0.9f, 0, "1", "fluid", "fluid.scorr.dq")                        \
	X(pbdParam_fluidVorticity, "fluid.vorticity", 0.005f, 0.0f, 0.1f, 0, "1", "fluid", "fluid.vorticity")                 \
	X(pbdParam_fluidViscosity, "fluid.viscosity", 0.01f, 0.0f, 1.0f, 0, "1", "fluid", "fluid.viscosity")                  \
	X(pbdParam_fluidSortInterval, "fluid.sortInterval", 1.0f, 0.0f, 1000.0f, PBD_PARAM_INTEGER, "steps", "fluid", "fluid.sortInterval") \
	X(pbdParam_fluidFriction, "fluid.friction", 0.0f, 0.0f, 1.0f, 0, "1", "fluid", "fluid.friction")                     \
	X(pbdParam_volumeSweeps, "volumeSweeps", 8.0f, 0.0f, 32.0f, PBD_PARAM_INTEGER, "1", "volume", "solver.volumeSweeps")

#define PBD_PARAM_INTEGER 1 ///< whole numbers only
#define PBD_PARAM_BOOLEAN 2 ///< 0 or 1 (implies whole)

typedef enum pbdParam {
#define PBD_X_ENUM(id, name, def, lo, hi, flags, unit, owner, scene) id,
	PBD_PARAMS(PBD_X_ENUM)
#undef PBD_X_ENUM
	pbdParam_count
} pbdParam;

/// Constraint kinds. Each object's constraints of one kind form a group whose
/// stiffness is the world's stiffness for that kind (seed 000 section 2.2).
typedef enum pbdConstraintKind {
	pbdKind_stretch = 0,
	pbdKind_shear,
	pbdKind_bend,
	pbdKind_chain,
	pbdKind_edge,   ///< soft bodies: the edges of their tets (distance family)
	pbdKind_volume, ///< soft bodies: each tet's signed volume (volume family)
	pbdKind_shape,  ///< shape-matched (rigid) bodies (shapes family)
	pbdKind_count
} pbdConstraintKind;

/// Buffers readable (and for JS, viewable) in place.
typedef enum pbdBuffer {
	pbdBuffer_positions = 0, ///< float4 per particle: committed x, y, z and w = 1/m
	pbdBuffer_velocities,    ///< float4 per particle: vx, vy, vz, 0
	pbdBuffer_normals,       ///< float4 per particle, valid after pbd_World_UpdateNormals
	pbdBuffer_triangles,     ///< uint32 x3 per triangle (cloth surfaces)
	pbdBuffer_lines,         ///< uint32 x2 per line (chains)
	pbdBuffer_errors,        ///< float per particle: max relative error of its constraints, after pbd_World_UpdateErrors
	pbdBuffer_convergence,   ///< float per solver pass of the last step: mean relative constraint error (recordConvergence)
	pbdBuffer_skinPositions, ///< float4 per skin vertex: bodies' render surfaces, after pbd_World_UpdateSkin
	pbdBuffer_skinNormals,   ///< float4 per skin vertex, after pbd_World_UpdateSkin
	pbdBuffer_skinTriangles, ///< uint32 x3 per skin triangle (indices into the skin vertices)
	pbdBuffer_densities,     ///< float per particle: rho / rho0 of fluid particles (0 for others), after pbd_World_UpdateDensities
	pbdBuffer_previous,      ///< float4 per particle: x at the start of the last step (pbd_World_KeepPrevious), for drawing between steps
	pbdBuffer_count
} pbdBuffer;

/// Capacities: the one table of what a world reserves at creation. This X-macro is the only place a capacity is
/// written: it makes the fields of pbdWorldDef (in this order) and of the families' pbdCapacity, world.c checks and
/// defaults them from it, and pbd_GetCapacityInfo exports it, so the wasm create call (pbdjs_CreateWorld: an array
/// in this order) and the JS loader (web/js/engine/loader.js: each object type's counts summed by name) follow it
/// without a list of their own. A family that needs a new capacity adds its row here. Columns:
///   field (pbdWorldDef), name (what JS counts call it), default: fixed + perParticle x maxParticles (0 given
///   means this), limit (inclusive), flags:
///   PBD_CAPACITY_COUNTED: exactly what the objects added use (a loader sums its objects' counts into it; 0 is the
///     default, so a loader gives 1 when it counts none, unless the default is 0);
///   PBD_CAPACITY_CLAMPED: a working set (pairs found per substep), cut to the limit instead of refused;
///   PBD_CAPACITY_PART: at most maxParticles (a share of the particles).
#define PBD_CAPACITIES(X)                                                                                              \
	X(maxParticles, "particles", 1024, 0, PBD_MAX_PARTICLES, PBD_CAPACITY_COUNTED)                                     \
	/* distance constraints of all kinds */                                                                            \
	X(maxConstraints, "constraints", 0, 8, PBD_MAX_CONSTRAINTS, PBD_CAPACITY_COUNTED)                                  \
	X(maxTriangles, "triangles", 0, 2, PBD_MAX_CONSTRAINTS, PBD_CAPACITY_COUNTED)                                      \
	X(maxLines, "lines", 0, 1, PBD_MAX_CONSTRAINTS, PBD_CAPACITY_COUNTED)                                              \
	X(maxAttachments, "attachments", 16, 0, PBD_MAX_ATTACHMENTS, PBD_CAPACITY_COUNTED)                                 \
	X(maxObjects, "objects", 16, 0, PBD_MAX_OBJECTS, PBD_CAPACITY_COUNTED)                                             \
	X(maxColliders, "colliders", 8, 0, PBD_MAX_COLLIDERS, PBD_CAPACITY_COUNTED)                                        \
	/* particle-particle pairs per substep (self-collision and collisions between objects) */                           \
	X(maxContacts, "contacts", 0, 8, PBD_MAX_CONSTRAINTS, PBD_CAPACITY_CLAMPED)                                        \
	/* soft-body tetrahedra (volume constraints) */                                                                    \
	X(maxTets, "tets", 0, 2, PBD_MAX_CONSTRAINTS, PBD_CAPACITY_COUNTED)                                                \
	/* vertices and triangles of embedded render surfaces (bodies) */                                                  \
	X(maxSkinVertices, "skinVertices", 0, 1, PBD_MAX_PARTICLES, PBD_CAPACITY_COUNTED)                                  \
	X(maxSkinTriangles, "skinTriangles", 0, 2, PBD_MAX_CONSTRAINTS, PBD_CAPACITY_COUNTED)                              \
	/* particles fluid objects may reserve in all (their neighbour lists are sized from it); 0: no fluid */            \
	X(maxFluidParticles, "fluidParticles", 0, 0, PBD_MAX_PARTICLES, PBD_CAPACITY_COUNTED | PBD_CAPACITY_PART)

#define PBD_CAPACITY_COUNTED 1
#define PBD_CAPACITY_CLAMPED 2
#define PBD_CAPACITY_PART 4

/// World description. Zero means default for every field (sokol style; the defaults are PBD_CAPACITIES'); make it
/// with pbd_DefaultWorldDef so the cookie is set (Box2D style).
typedef struct pbdWorldDef {
#define PBD_X_FIELD(field, name, fixed, perParticle, limit, flags) int32_t field;
	PBD_CAPACITIES(PBD_X_FIELD)
#undef PBD_X_FIELD
	int32_t internalValue; ///< cookie; do not touch
} pbdWorldDef;

/// One row of the capacity table (PBD_CAPACITIES), for tools and the JS side.
typedef struct pbdCapacityInfo {
	const char* name;    ///< "particles", "constraints", ...: what object counts call it
	const char* field;   ///< its pbdWorldDef field, "maxParticles", ...
	int32_t offset;      ///< of the field in pbdWorldDef (bytes)
	int32_t fixed, perParticle; ///< default: fixed + perParticle x maxParticles
	int32_t limit;       ///< inclusive
	int32_t flags;       ///< PBD_CAPACITY_*
} pbdCapacityInfo;
PBD_API int pbd_CapacityCount(void);
/// Fills *info for capacity `index` (PBD_CAPACITIES order); PBD_ERR_INVALID_ARGUMENT out of range.
PBD_API int pbd_GetCapacityInfo(int index, pbdCapacityInfo* info);

/// Collider shapes. Colliders are kinematic: they move only when told to
/// (pbd_World_SetColliderTransform), and the particles feel that motion through friction.
typedef enum pbdShapeType {
	pbdShape_sphere = 0,
	pbdShape_capsule, ///< a segment along the local y axis, half length halfHeight, with a radius
	pbdShape_box,     ///< half extents along the local axes
	pbdShape_count
} pbdShapeType;

typedef struct pbdColliderDef {
	int32_t type;          ///< pbdShapeType
	float position[3];
	float rotation[4];     ///< unit quaternion x, y, z, w (default identity)
	float radius;          ///< sphere and capsule
	float halfHeight;      ///< capsule
	float halfExtents[3];  ///< box
	float staticFriction;  ///< default 0.5
	float kineticFriction; ///< default 0.4
	float restitution;     ///< default 0
	int32_t internalValue;
} pbdColliderDef;

/// A rope or pendulum chain: segments + 1 particles on the segment start..end.
typedef struct pbdChainDef {
	float start[3], end[3];
	int32_t segments; ///< >= 1
	float mass;       ///< per particle, > 0
	int32_t internalValue;
} pbdChainDef;

/// A rectangular cloth: particle (i, j) sits at origin + axisU * i/(nu-1) + axisV * j/(nv-1).
/// Stretch constraints join grid neighbours, shear joins diagonals, bending joins
/// particles two apart along the grid (distance bending: cheap and order-independent,
/// see docs/physics.md "Cloth model").
typedef struct pbdClothDef {
	float origin[3];
	float axisU[3];      ///< whole width edge vector
	float axisV[3];      ///< whole height edge vector
	int32_t resolutionU; ///< particles along U, >= 2
	int32_t resolutionV; ///< particles along V, >= 2
	float mass;          ///< per particle, > 0
	int32_t internalValue;
} pbdClothDef;

/// Collider as stored (pbd_World_GetColliderInfo); sizes a shape does not use read 0.
typedef struct pbdColliderInfo {
	int32_t type;
	float position[3];
	float rotation[4];
	float radius, halfHeight;
	float halfExtents[3];
	float staticFriction, kineticFriction, restitution;
} pbdColliderInfo;

/// Statistics of the current state, computed on demand (not in the step).
typedef struct pbdStats {
	int32_t steps, particles;
	int32_t constraints;   ///< every family's, summed (pbd_World_GetConstraintCounts)
	int32_t attachments;
	float maxError;        ///< max |length - rest| over distance constraints (m)
	float meanError;       ///< mean |length - rest| (m)
	float maxStretch;      ///< max (length / rest - 1) over stretch and chain constraints, >= 0
	double kineticEnergy;  ///< sum 1/2 m v^2 over particles with w > 0 (J)
	double potentialEnergy;///< sum -m g . x over particles with w > 0 (J)
} pbdStats;

/// Object types (pbdObjectInfo.type).
#define PBD_OBJECT_CHAIN 0
#define PBD_OBJECT_CLOTH 1
#define PBD_OBJECT_SOFT 2  ///< a soft body: particles, tet edges (pbdKind_edge) and tet volumes (pbdKind_volume)
#define PBD_OBJECT_RIGID 3 ///< a rigid body: particles held in their rest shape by shape matching (pbdKind_shape)
#define PBD_OBJECT_FLUID 4 ///< a fluid: Position Based Fluids particles (families/fluid.c); its range holds its capacity,
                           ///< the first activeParticles of it live, the rest parked (w = 0, drawn by no one)

/// Per-object ranges: the one table of pbdObjectInfo's fields (all int32, in this order). A family that adds a
/// per-object range adds its row; the wasm exports the names (pbd_ObjectFieldName) and web/js/engine/memory.js reads
/// the record by them (generated into engine/param-table.js as OBJECT_FIELDS, checked against the engine at load).
#define PBD_OBJECT_FIELDS(X)                                                                                           \
	X(type) /* PBD_OBJECT_* */                                                                                         \
	X(firstParticle) X(particleCount)                                                                                  \
	X(firstConstraint) X(constraintCount)                                                                              \
	X(firstTriangle) X(triangleCount)                                                                                  \
	X(firstLine) X(lineCount)                                                                                          \
	X(resolutionU) X(resolutionV)                                                                                      \
	X(tornConstraints) /* constraints of this object broken by tearing so far */                                       \
	X(firstTet) X(tetCount) /* soft bodies: their volume constraints */                                                \
	X(firstSkinVertex) X(skinVertexCount) /* bodies: their render surface (pbdBuffer_skin*) */                         \
	X(firstSkinTriangle) X(skinTriangleCount)                                                                          \
	/* particles in use: particleCount, except for a fluid (its live particles, the range's start) */                  \
	X(activeParticles)

typedef struct pbdObjectInfo {
#define PBD_X_FIELD(field) int32_t field;
	PBD_OBJECT_FIELDS(PBD_X_FIELD)
#undef PBD_X_FIELD
} pbdObjectInfo;
/// pbdObjectInfo's field `index` by name ("type", "firstParticle", ...), or NULL past the last.
PBD_API const char* pbd_ObjectFieldName(int index);

PBD_API pbdWorldDef pbd_DefaultWorldDef(void);
PBD_API pbdChainDef pbd_DefaultChainDef(void);
PBD_API pbdClothDef pbd_DefaultClothDef(void);

/// Reserves the world's whole pool. Returns a positive id or a negative pbdError.
PBD_API pbdWorldId pbd_CreateWorld(const pbdWorldDef* def);
PBD_API int pbd_DestroyWorld(pbdWorldId world);
PBD_API int pbd_World_IsValid(pbdWorldId world);

/// Adds objects. Return the first particle index, or a negative pbdError (world unchanged). A chain's or
/// cloth's particles are spheres of radius thickness / 2: refused when the world's thickness is past
/// 2 PBD_MAX_RADIUS_SPACINGS spacings of the new object (a segment; the finer of the cloth's two grid steps).
/// Objects are added between steps: between the slices of one (pbd_World_StepSlice) every builder is
/// refused, PBD_ERR_STEP_IN_PROGRESS.
PBD_API int pbd_World_AddChain(pbdWorldId world, const pbdChainDef* def);
PBD_API int pbd_World_AddCloth(pbdWorldId world, const pbdClothDef* def);
/// Counts an object would use, so callers can size capacities exactly.
PBD_API void pbd_ChainCounts(int32_t segments, int32_t* particles, int32_t* constraints, int32_t* lines);
PBD_API void pbd_ClothCounts(int32_t nu, int32_t nv, int32_t* particles, int32_t* constraints, int32_t* triangles);

/// One fixed step of dt: substeps x (predict, solve, velocities, velocity passes, commit).
/// A step begun by pbd_World_StepSlice is finished instead (that is this step).
PBD_API int pbd_World_Step(pbdWorldId world);
/// Advances the step in progress (or begins one) by at most `units` units: the step's start,
/// then per substep its prediction and contacts, each Gauss-Seidel pass cut into units of at
/// most a few thousand constraints of one colour (PBD_SLICE_ITEMS; the fluid's passes in blocks
/// of particles), and its update, velocities and commit. Returns the units left in that step
/// (0: it finished and counts as a step), or a negative pbdError; the count is taken with the
/// contacts known now, so a later substep's contacts may change it, but it is at least 1 until
/// the step is done. Slicing changes no bit of the result: a page that must answer its input
/// between slices (web/js/engine/stepper-slices.js) steps this way.
PBD_API int32_t pbd_World_StepSlice(pbdWorldId world, int32_t units);
/// The stage of the unit pbd_World_StepSlice runs next, named by pbd_StageName: 0 predict,
/// 1 contacts, 2 solve (one pass), 3 update, 4 velocities, 5 commit (per substep), 6 start (once a step,
/// first; also between steps: the next unit begins a step), 7 end (once a step, last). A benchmark times
/// the stages this way, one unit a call.
PBD_API int32_t pbd_World_StepStage(pbdWorldId world);
PBD_API const char* pbd_StageName(int32_t stage);

/* Threads (base/tasks.h). A team is maxThreads participants: the thread that steps a world
   is participant 0; the host starts maxThreads - 1 threads that each call pbd_Team_Work once
   (native: host/threads.h; wasm: web/js/engine/thread-worker.js). Any thread count gives
   the same bits. */
#define PBD_MAX_THREADS 16
typedef struct pbdTeam pbdTeam;
/// Bytes to reserve for a team (at a 64-byte boundary); 0 for maxThreads outside [1, PBD_MAX_THREADS].
PBD_API int32_t pbd_Team_Bytes(int32_t maxThreads);
/// Makes a team in `memory`; NULL when the memory is misaligned, maxThreads is out of range or
/// this build has no threads (the single-thread wasm: maxThreads 1 only).
PBD_API pbdTeam* pbd_Team_Init(void* memory, int32_t maxThreads);
/// The life of helper `index` in [1, maxThreads): parks between steps, shares out the steps'
/// loops, returns after pbd_Team_Stop.
PBD_API void pbd_Team_Work(pbdTeam* team, int32_t index);
/// Every helper returns from pbd_Team_Work. Call it while no world steps on the team.
PBD_API void pbd_Team_Stop(pbdTeam* team);
/// The world steps on `team` with `threads` participants, in [1, maxThreads] (team NULL: 1).
/// Worlds may share a team; one steps on it at a time, another meanwhile steps alone.
PBD_API int pbd_World_SetThreads(pbdWorldId world, pbdTeam* team, int32_t threads);
PBD_API int32_t pbd_World_GetThreads(pbdWorldId world);

PBD_API int pbd_World_SetParam(pbdWorldId world, pbdParam param, float value);
PBD_API float pbd_World_GetParam(pbdWorldId world, pbdParam param);
PBD_API const char* pbd_ParamName(int param);
PBD_API int pbd_ParamFromName(const char* name);
/// One row of the parameter table (PBD_PARAMS), for tools and the JS side.
typedef struct pbdParamInfo {
	const char* name;
	const char* unit;  ///< "s", "m", "m/s", "1" (dimensionless), ...
	const char* owner; ///< the family or service that reads it: "step", "ground", "distance", "boundary", "materials", ...
	const char* scene; ///< its place in the scene format, "" if none
	float defaultValue, minValue, maxValue;
	int32_t flags; ///< PBD_PARAM_INTEGER, PBD_PARAM_BOOLEAN
} pbdParamInfo;
PBD_API int pbd_ParamCount(void);
/// Fills *info for parameter `param`; PBD_ERR_UNKNOWN_PARAM for an index out of range.
PBD_API int pbd_GetParamInfo(int param, pbdParamInfo* info);

/// Stiffness k in [0, 1] of one object's constraints of one kind. Setting the world
/// parameter "stiffness.<kind>" sets it for every object.
PBD_API int pbd_World_SetObjectStiffness(pbdWorldId world, int object, pbdConstraintKind kind, float stiffness);

/// Per-particle state. Inverse mass w = 0 pins the particle (seed 000: w_i = 0 => dp_i = 0). A mass changes
/// between steps only: between the slices of one (pbd_World_StepSlice) it is refused, PBD_ERR_STEP_IN_PROGRESS.
PBD_API int pbd_World_SetInvMass(pbdWorldId world, int particle, float invMass);
PBD_API int pbd_World_SetMass(pbdWorldId world, int particle, float mass);
PBD_API int pbd_World_SetPosition(pbdWorldId world, int particle, float x, float y, float z);
/// Keeps (keep != 0) or stops keeping pbdBuffer_previous: each step then copies every particle's x there first
/// (after the step's start: its emitters, drains and cell sort), so a renderer can draw the world between two
/// steps (seed 001 section 4.2: a fixed physics rate, the frames interpolated). It changes no bit of the physics.
/// A particle added or set from outside the step gets its position there too (it jumps, it is not swept).
PBD_API int pbd_World_KeepPrevious(pbdWorldId world, int keep);
PBD_API int pbd_World_SetVelocity(pbdWorldId world, int particle, float x, float y, float z);
PBD_API int pbd_World_GetParticleCount(pbdWorldId world);
PBD_API int pbd_World_GetConstraintCount(pbdWorldId world);
PBD_API int pbd_World_GetCount(pbdWorldId world, pbdBuffer buffer);
PBD_API void* pbd_World_GetBuffer(pbdWorldId world, pbdBuffer buffer, int32_t* count);
PBD_API int pbd_World_GetTopologyVersion(pbdWorldId world);
PBD_API int pbd_World_GetObjectCount(pbdWorldId world);
PBD_API int pbd_World_GetObjectInfo(pbdWorldId world, int object, pbdObjectInfo* info);

/// Material of one object beyond its stiffness.
/// Contact radius: its particles are spheres of this radius against other particles, colliders
/// and the ground; 0 (the default for chains and cloth) follows the world's thickness / 2. At most
/// PBD_MAX_RADIUS_SPACINGS spacings of the object's particles (refused past it, naming the limit).
/// Plasticity (seed 001 section 5.3; the yield / creep / max set of FleX and Rapier): once the
/// strain of a soft body's edge or a rigid body's shape passes `yield`, its rest state creeps
/// toward the deformed state at `creep` per second, until the plastic strain reaches `max`.
/// creep = 0 turns it off (the default). yield, max in [0, 10]; creep in [0, 1000] (PBD_PLASTICITY_MAX_*).
PBD_API int pbd_World_SetObjectRadius(pbdWorldId world, int object, float radius);
PBD_API float pbd_World_GetObjectRadius(pbdWorldId world, int object);
PBD_API int pbd_World_SetObjectPlasticity(pbdWorldId world, int object, float yield, float creep, float max);
/// Collision filter (Box2D v3's b2Filter categoryBits / maskBits): the particles of two objects collide when each
/// one's category meets the other's mask. Default: category 1, mask 0xffffffff (every pair collides, as the
/// parameter collisions says). Acts on the particle contacts between objects (not on the ground, the colliders,
/// or an object's self-collision). Every value is valid.
PBD_API int pbd_World_SetObjectFilter(pbdWorldId world, int object, uint32_t category, uint32_t mask);
/// out[0..1] = category, mask.
PBD_API int pbd_World_GetObjectFilter(pbdWorldId world, int object, uint32_t* out);
/// out[0..2] = yield, creep, max.
PBD_API int pbd_World_GetObjectPlasticity(pbdWorldId world, int object, float* out);

/* ---- bodies: builders/body.c ------------------------------------------------------- */
/* volume family (families/volume.c) */
/// The object's tets measured now: out[0] the sum of their signed volumes (m^3), out[1] the sum
/// of their rest volumes, out[2] how many have a volume <= 0 (inverted or flat). An object
/// without tets reads 0, 0, 0.
PBD_API int pbd_World_GetObjectVolume(pbdWorldId world, int object, double* out);

/// Shapes of a body (pbdBodyDef.shape). box, ball and surface fill their volume with a lattice
/// of cubic cells, each cut into 6 tets (Kuhn); tets takes the caller's tet mesh as it is.
typedef enum pbdBodyShape {
	pbdBodyShape_box = 0, ///< halfExtents about position
	pbdBodyShape_ball,    ///< radius about position
	pbdBodyShape_tets,    ///< vertices (the particles) and 4 indices per tet
	pbdBodyShape_surface, ///< a closed triangle surface (an OBJ model), filled with the lattice cells inside it
	pbdBodyShape_count
} pbdBodyShape;

/// Limits of what a body may be given (tets, surface).
#define PBD_BODY_MAX_VERTICES 100000
#define PBD_BODY_MAX_TRIANGLES 200000
#define PBD_BODY_MAX_TETS 200000
#define PBD_BODY_MAX_RESOLUTION 48

/// A soft body (tet edges + tet volumes) or a rigid one (shape matching). Make it with
/// pbd_DefaultBodyDef. Particles sit at the lattice corners (box, ball, surface) or at the
/// given vertices (tets); the body's skin (pbdBuffer_skin*) is what a renderer draws.
typedef struct pbdBodyDef {
	int32_t type;            ///< PBD_OBJECT_SOFT or PBD_OBJECT_RIGID
	int32_t shape;           ///< pbdBodyShape
	float position[3];       ///< box, ball: centre; tets, surface: added to the given vertices
	float rotation[4];       ///< unit quaternion x, y, z, w applied about position (default identity; normalised)
	float velocity[3];       ///< every particle's initial velocity
	float halfExtents[3];    ///< box: of the particles' lattice (the skin adds the particle radius)
	float radius;            ///< ball: of the lattice's sphere (the skin adds the particle radius)
	int32_t resolution;      ///< lattice cells along the longest side (box, ball, surface), [1, 48]; default 4
	float mass;              ///< the whole body, kg, spread evenly over its particles; default 1
	float particleRadius;    ///< contact radius in [0, 1] m and at most PBD_MAX_RADIUS_SPACINGS lattice spacings (tets:
	                         ///< shortest edges); 0: half the lattice spacing (tets: half the shortest edge)
	const float* vertices;   ///< tets, surface: xyz per vertex, in the body's frame
	int32_t vertexCount;
	const uint32_t* indices; ///< tets: 4 per tet; surface: 3 per triangle, counter-clockwise seen from outside
	int32_t indexCount;
	const uint64_t* cells;   ///< surface, optional: the lattice's cells as pbd_BodyFill_Cells gave them for this def (its
	                         ///< vertices, indices and resolution), so the inside test is not run again; NULL: run it
	int32_t internalValue;   ///< cookie; do not touch
} pbdBodyDef;

/// What a body uses (pbd_BodyCounts): particles, distance constraints (tet edges, soft only),
/// tets (soft only), skin vertices and triangles.
typedef struct pbdBodyCounts {
	int32_t particles, edges, tets, skinVertices, skinTriangles;
} pbdBodyCounts;

PBD_API pbdBodyDef pbd_DefaultBodyDef(void);
/// Checks the def as pbd_World_AddBody does (the same messages, through pbd_GetLastErrorMessage)
/// and fills *counts with exactly what it would use. PBD_OK or a negative pbdError (counts zeroed).
/// For a tets or surface body it takes a temporary block (a few MB at the limits) to check the mesh.
PBD_API int pbd_BodyCounts(const pbdBodyDef* def, pbdBodyCounts* counts);
/// Adds the body as one object; returns its first particle, or a negative pbdError (world unchanged).
PBD_API int pbd_World_AddBody(pbdWorldId world, const pbdBodyDef* def);

/// A surface body's inside test (which lattice cells it keeps: builders/surface.c) in parts, before its counts and
/// its Add: for an open surface (the winding number, Jacobson et al. 2013) it is seconds of work at resolution 48,
/// which a page cuts into pieces between frames. The caller's memory (pbd_BodyFill_Bytes), nothing allocated; the
/// def's arrays are read until the last pbd_BodyFill_Run. Then pbd_BodyFill_Cells goes into pbdBodyDef.cells for
/// pbd_BodyCounts and pbd_World_AddBody (the same cells they would have found, so the same body).
typedef struct pbdBodyFill pbdBodyFill;
/// Bytes a fill of `def` needs, or a negative pbdError when the def is refused (the message pbd_BodyCounts gives)
/// or is no surface.
PBD_API int pbd_BodyFill_Bytes(const pbdBodyDef* def);
/// Starts the fill of `def` in `fill` (`bytes` from pbd_BodyFill_Bytes): its checks, its surface's tree, and the
/// whole fill of a closed surface (exact ray crossings: fast). PBD_OK or a negative pbdError (message set).
PBD_API int pbd_BodyFill_Begin(pbdBodyFill* fill, int bytes, const pbdBodyDef* def);
/// Fills rows of cells until at least `cells` cells are tested or none is left; returns the rows left (0: done).
PBD_API int pbd_BodyFill_Run(pbdBodyFill* fill, int cells);
/// The cells, PBD_BODY_FILL_ROWS rows of bits (row j + 48 k: bit i = cell (i, j, k) kept) once done, else NULL.
PBD_API const uint64_t* pbd_BodyFill_Cells(const pbdBodyFill* fill);
#define PBD_BODY_FILL_ROWS (PBD_BODY_MAX_RESOLUTION * PBD_BODY_MAX_RESOLUTION)

/* ---- shape matching: families/shapes.c ---------------------------------------------- */

/// A shape-matched body's transform from its last solve: out[0..2] = c, its centre of mass,
/// out[3..6] = q (x, y, z, w), its rotation, so that a rest point x0 is now at
/// c + R(q) (x0 - c0), c0 the rest centre (where c was when the body was added, for its masses
/// now). PBD_ERR_INVALID_ARGUMENT for an object that is not a shape-matched body.
PBD_API int pbd_World_GetBodyTransform(pbdWorldId world, int object, float* out);

/* ---- skin: builders/skin.c ---------------------------------------------------------- */

/// Moves every body's skin with its particles into pbdBuffer_skinPositions and writes
/// area-weighted normals into pbdBuffer_skinNormals (call once per drawn frame, like
/// pbd_World_UpdateNormals): a soft body's skin vertex is a barycentric blend of the 4 particles
/// of its tet; a rigid body's is its rest position moved by the body's rotation and translation.
PBD_API int pbd_World_UpdateSkin(pbdWorldId world);
/// The same, the skin drawn `blend` of the way from the start of the last step to its end (0..1; 1 is
/// pbd_World_UpdateSkin): a soft body's vertices from its particles blended as pbdBuffer_previous and
/// pbdBuffer_positions are, a rigid body's from its motion's two ends. Without pbd_World_KeepPrevious, blend is 1.
PBD_API int pbd_World_UpdateSkinAt(pbdWorldId world, float blend);

/* ---- fluids: builders/fluid.c, families/fluid*.c ------------------------------------ */

/// Position Based Fluids (Macklin & Mueller 2013, seed 002) in the same step: a fluid object is a
/// range of particles with PBD_PHASE_FLUID whose density is held at fluid.restDensity. Each fluid
/// particle has the mass rho0 d^3 (d = fluid.spacing) and the contact radius d / 2; solid particles
/// near the fluid count in its density and take its corrections by their masses (Macklin et al. 2014
/// section 7.1), so cloth, bodies and fluid push each other and blocks float by their density.
#define PBD_MAX_FLUID_OBJECTS 8
#define PBD_MAX_EMITTERS 8
/// An emitter's fastest jet (m/s, pbdEmitterDef.speed).
#define PBD_EMITTER_MAX_SPEED 50.0f
#define PBD_MAX_DRAINS 8

/// An inflatable's built-in sphere (src/builders/inflatable.c): an icosahedron whose faces are cut in n^2 triangles
/// (10 n^2 + 2 vertices, 20 n^2 triangles), n at most this.
#define PBD_INFLATABLE_MAX_RESOLUTION 40

/// A block of fluid: particles on a cubic lattice of spacing d = fluid.spacing filling the box
/// [lower, upper], centres at lower + (i + 1/2) d along each axis, as many as fit (none along an
/// axis shorter than d: an empty block, for an emitter to fill). Make it with pbd_DefaultFluidDef.
typedef struct pbdFluidDef {
	float lower[3], upper[3];
	float velocity[3];     ///< of every particle of the block
	int32_t capacity;      ///< particles the object reserves, >= the block's; 0: the block's
	int32_t internalValue; ///< cookie; do not touch
} pbdFluidDef;

PBD_API pbdFluidDef pbd_DefaultFluidDef(void);
/// Particles the def's block holds at `spacing`, or a negative pbdError (message through
/// pbd_GetLastErrorMessage): bad numbers, a box past the world bound, more than PBD_MAX_PARTICLES.
PBD_API int pbd_FluidBlockCount(const pbdFluidDef* def, float spacing);
/// Adds a fluid object reserving def.capacity particles (the block's live, the rest parked);
/// returns its first particle or a negative pbdError (world unchanged). The world's
/// maxFluidParticles bounds the capacities of all its fluid objects.
PBD_API int pbd_World_AddFluid(pbdWorldId world, const pbdFluidDef* def);

/// A hose: adds particles to fluid object `object` in discs of the lattice spacing across the
/// nozzle, one disc each time the stream has moved d, leaving at `speed` along `direction`.
/// At the object's capacity it stops adding (pbdFluidStats.full), and nothing already there is lost.
typedef struct pbdEmitterDef {
	int32_t object;       ///< a fluid object
	float position[3];    ///< the nozzle's centre
	float direction[3];   ///< normalised by the call; not zero
	float speed;          ///< m/s, (0, 50]
	float radius;         ///< nozzle radius, [d / 2, 1] m
	int32_t enabled;      ///< 0: off
	int32_t internalValue;
} pbdEmitterDef;
PBD_API pbdEmitterDef pbd_DefaultEmitterDef(void);
/// The emitter's index, or a negative pbdError.
PBD_API int pbd_World_AddEmitter(pbdWorldId world, const pbdEmitterDef* def);
PBD_API int pbd_World_SetEmitter(pbdWorldId world, int emitter, const pbdEmitterDef* def);
PBD_API int pbd_World_GetEmitterCount(pbdWorldId world);
/// A drain: every step, fluid particles inside the box [lower, upper] are removed (their object's
/// live range closes up; particles of other objects keep their indices). Returns its index.
PBD_API int pbd_World_AddDrain(pbdWorldId world, const float lower[3], const float upper[3]);
PBD_API int pbd_World_GetDrainCount(pbdWorldId world);

typedef struct pbdFluidStats {
	int32_t particles;          ///< live fluid particles, all fluid objects
	int32_t capacity;           ///< particles they reserve
	int32_t emitted, drained;   ///< added by emitters, removed by drains, since the world began
	int32_t full;               ///< an emitter could not add all it meant to in the last step: capacity reached
	int32_t droppedNeighbours;  ///< neighbours that did not fit the lists in the last substep
	float meanNeighbours;       ///< per live fluid particle, last substep
	float meanDensity;          ///< rho / rho0 over live fluid particles, on the committed positions
	float maxDensity;           ///< largest rho / rho0
	float densityError;         ///< mean max(rho / rho0 - 1, 0): the compression the solve left
} pbdFluidStats;
/// Measures the fluid now (a neighbour search on the committed positions; not in the step). This, UpdateDensities,
/// RunFluidPart and FindPairs rebuild the search state the step uses: between the slices of a step they are refused,
/// PBD_ERR_STEP_IN_PROGRESS.
PBD_API int pbd_World_GetFluidStats(pbdWorldId world, pbdFluidStats* stats);
/// With `on`, every step measures the fluid at its end (the densities at the positions it commits, with its last
/// substep's lists: one density pass, in the step's slice units), for pbd_World_GetMeasuredFluidStats; 0 stops it.
PBD_API int pbd_World_SetFluidMeasure(pbdWorldId world, int on);
/// The fluid as the last measuring step left it (pbd_World_SetFluidMeasure): the counts as pbd_World_GetFluidStats
/// gives them, the densities of that step's end; returns that step's number (the world's step count after it), 0
/// when no step measured yet (densities 0), or a negative pbdError. Works between the slices of a step too.
PBD_API int pbd_World_GetMeasuredFluidStats(pbdWorldId world, pbdFluidStats* stats);
/// rho_i / rho0 of every live fluid particle on the committed positions into pbdBuffer_densities (0 for others).
PBD_API int pbd_World_UpdateDensities(pbdWorldId world);

/// Parts of the fluid's substep, for benchmarks: pbd_World_RunFluidPart runs one on the current
/// state (predicted = committed positions), as the step would.
typedef enum pbdFluidPart {
	pbdFluidPart_sort = 0,   ///< particles into cell order (every fluid.sortInterval steps)
	pbdFluidPart_neighbours, ///< grid build and neighbour lists
	pbdFluidPart_density,    ///< densities and lambda
	pbdFluidPart_correct,    ///< position corrections and their application
	pbdFluidPart_vorticity,  ///< vorticity confinement
	pbdFluidPart_viscosity,  ///< XSPH viscosity
	pbdFluidPart_count
} pbdFluidPart;
PBD_API int pbd_World_RunFluidPart(pbdWorldId world, int part);

/// Temporary attachments: pull one particle toward a target with stiffness k in [0, 1]
/// (a constraint C = |p - t| whose other end has w = 0). The particle's mass is never
/// touched, so removing the attachment leaves it exactly as it was.
PBD_API pbdAttachmentId pbd_World_AddAttachment(pbdWorldId world, int particle, float x, float y, float z, float stiffness);
PBD_API int pbd_World_MoveAttachment(pbdWorldId world, pbdAttachmentId id, float x, float y, float z);
PBD_API int pbd_World_RemoveAttachment(pbdWorldId world, pbdAttachmentId id);
PBD_API int pbd_World_GetAttachmentCount(pbdWorldId world);

/// Colliders. Add returns the collider index (>= 0) or a negative pbdError. Particles keep
/// a distance of their radius (pbd_World_SetObjectRadius; thickness / 2 by default) from every surface.
PBD_API pbdColliderDef pbd_DefaultColliderDef(void);
PBD_API int pbd_World_AddCollider(pbdWorldId world, const pbdColliderDef* def);
/// Sets the collider's transform for the end of the next step; the step sweeps it there
/// from where it was, so particles in its path are pushed along, not jumped over.
PBD_API int pbd_World_SetColliderTransform(pbdWorldId world, int collider, float px, float py, float pz, float qx, float qy,
										   float qz, float qw);
/// Friction (static, kinetic: each in [0, 10]) and restitution ([0, 1]) of a collider, as in
/// pbdColliderDef; all three are checked before any is set.
PBD_API int pbd_World_SetColliderMaterial(pbdWorldId world, int collider, float staticFriction, float kineticFriction,
										  float restitution);
PBD_API int pbd_World_GetColliderCount(pbdWorldId world);
PBD_API int pbd_World_GetColliderInfo(pbdWorldId world, int collider, pbdColliderInfo* info);
/// Signed distance from a point to a collider's surface (negative inside); NAN for a bad index.
PBD_API float pbd_World_ColliderDistance(pbdWorldId world, int collider, float x, float y, float z);
/// Nearest collider hit by the ray: its index, or -1. *t (may be NULL) receives the distance
/// along the normalised direction, -1 on a miss. A collider containing the origin is ignored.
PBD_API int pbd_World_RayCastColliders(pbdWorldId world, float ox, float oy, float oz, float dx, float dy, float dz, float* t);

/// Rebuilds the neighbour grid from the current positions and finds the particle pairs
/// closer than the search radius (1.2 x (r_i + r_j), the thickness when no object has its own
/// radius) that the contacts family projects when closer than r_i + r_j: pairs within an object (self-collision; rest-pose neighbours
/// left out: within r_i + r_j at rest, or within the search radius when those are the objects' edges, which the step
/// lists apart) and between objects, pin-pin pairs left out, whatever selfCollision and
/// collisions say. Returns the pair count. The step does this itself when selfCollision is on,
/// or collisions is on and the world has two objects; this entry point is for tools, tests
/// and benchmarks.
PBD_API int pbd_World_FindPairs(pbdWorldId world);

/// Nearest particle to a ray within radius, first along the ray; -1 when none.
PBD_API int pbd_World_RayPick(pbdWorldId world, float ox, float oy, float oz, float dx, float dy, float dz, float radius);
/// Area-weighted vertex normals of the triangles into pbdBuffer_normals.
PBD_API int pbd_World_UpdateNormals(pbdWorldId world);
/// Per particle, the largest |length - rest| / rest of the distance constraints it belongs to,
/// into pbdBuffer_errors: what a constraint-error heat map draws (seed 001 section 4.4).
PBD_API int pbd_World_UpdateErrors(pbdWorldId world);

/// Passes recorded in pbdBuffer_convergence: at most this many per step.
#define PBD_MAX_CONVERGENCE (64 * 200)
PBD_API int pbd_World_GetStats(pbdWorldId world, pbdStats* stats);
/// The constraints each family holds now, one count per family in solve order (pbd_FamilyName), into
/// counts[0 .. capacity): distance (cloth, chains, soft-body edges), volume (soft-body tets), tethers,
/// attachments (the pointer), fluid (one density constraint per live fluid particle), shapes (one shape
/// matching per rigid body); the families that hold none that last (contacts, colliders, ground: found again
/// every substep) count 0. pbdStats.constraints is their sum. Returns the number of families.
PBD_API int pbd_World_GetConstraintCounts(pbdWorldId world, int32_t* counts, int capacity);
/// The name of family `family` (0 .. the count pbd_World_GetConstraintCounts returns), or NULL.
PBD_API const char* pbd_FamilyName(int family);
/// FNV-1a hash of positions and velocities: the determinism fingerprint.
PBD_API uint32_t pbd_World_Hash(pbdWorldId world);

/// Stiffness per solver pass for ns passes: k' = 1 - (1 - k)^(1/ns) (seed 000 section 2.2).
PBD_API float pbd_PassStiffness(float k, int ns);

PBD_API const char* pbd_ErrorString(int error);
/// The message of the last refused call on this world ("ok" until one): what is wrong, e.g.
/// "particle capacity exceeded: needs 1681 particles, 36 of 100 left". Each world keeps its
/// own, so calls on one world never change another's. For an invalid id, pbd_ErrorString's text.
PBD_API const char* pbd_World_GetLastErrorMessage(pbdWorldId world);
/// The message of the last refused call that had no world to keep it: an invalid or stale
/// world id, pbd_CreateWorld's refusals, pbd_GetParamInfo with an index out of range.
PBD_API const char* pbd_GetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif
#endif
