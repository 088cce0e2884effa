/* families/shapes_state.h -- the shapes family's state, shared by its own files only:
   shapes.c (the family: bodies, the solve, the error, the API) and shapes_motion.c (the rigid
   predictor and plasticity). Everything else goes through families/shapes.h. */
#ifndef PBD_SHAPES_STATE_H
#define PBD_SHAPES_STATE_H

#include "families/family.h"
#include "families/shapes.h"

/* Steps of the rotation extraction per solve, at most. Warm-started from the last rotation
   (turned by the predictor's for rigid bodies), one or two suffice; from a turn far away
   (positions set from outside) up to ~20 (families/rotation.c), so a body teleported into a new
   orientation is fitted in its first pass. */
#define PBD_SHAPES_ROTATION_ITERATIONS 24

/* A pinned particle (w = 0) weighs this many times its body's mean free particle in the fit,
   so the fit follows the pins (see shapes.c). */
#define PBD_SHAPES_PIN_WEIGHT 1000.0f

/* One shape-matched body: particles [first, first + count) of `object`, held to the goals
   g_i = c + R(q) q_i (Mueller et al. 2005), q_i = P (x0_i - c0) its rest offsets. */
typedef struct pbdBody {
	int32_t object, first, count;
	int32_t pins;     ///< particles with w = 0, as of the last mass change
	int32_t rigid;    ///< stiffness 1, no pin, two particles or more: the rigid predictor runs
	float stiffness;  ///< k (parameter stiffness.shape, per object)
	float k;          ///< k' for this step's pass count (seed 000 section 2.2)
	float q[4];       ///< the last solve's rotation (x, y, z, w): the next one's warm start; R(q), its
	                  ///< lattice and its particles are its frame, s->frames[its index] (pbd_Shapes_Frame)
	float c[3];       ///< the last solve's centre
	float startQ[4];  ///< q and c at the start of the last step: a renderer draws between the two (pbd_Shapes_TransformAt)
	float startC[3];
	float c0[3];      ///< the weighted centre of the rest positions x0
	float size;       ///< rest size: the RMS of |q_i|; 0 for a point
	float height;     ///< its centre's height in this substep's prediction (mass scaling)
	float meanMass;   ///< the mean mass of its free particles (1 when none): a pin's in plasticity's fit
	float mass;       ///< M = sum m_i of the weights
	float offsetSum[3]; ///< sum m_i q_i (0 but for rounding)
	float plastic[9]; ///< P, the plastic deformation so far (row-major; identity when none)
	float sdfReach;   ///< the first reach of its normals' spacing search (shapes_sdf.c, fixed at its Add)
} pbdBody;

/// A hash of cells over one body's rest positions, in the world's scratch (shapes_sdf.c).
typedef struct pbdSdfHash {
	const float* x;      ///< positions (float4), indexed by particle
	int32_t first, count;
	float cell, origin[3];
	uint32_t mask;       ///< table size - 1 (a power of two >= 2 count)
	int32_t dims[3];     ///< dense: the cells along each axis, their product at most the table size
	int dense;           ///< 1: a cell's bucket is its index in the box of cells, so no two cells share one
	int32_t* start;      ///< mask + 2 entries: bucket b's particles are order[start[b] .. start[b + 1])
	int32_t* order;      ///< count particle indices
	int32_t* cells;      ///< 3 count: particle i's cell at cells[3 (i - first)]
	int64_t visits;      ///< candidates visited (and cells hashed) in this slice unit: its work
} pbdSdfHash;

/// The rest normals of the bodies added since the last step began, built at the start of the next step in
/// slice units (pbd_Shapes_NormalsUnit): the body in progress, its part, where in it, and what it found so far.
typedef struct pbdNormalsJob {
	pbdSdfHash h;
	int32_t body;        ///< the first body whose normals are not built (the shapes' count: none)
	int32_t part;        ///< shapes_sdf.c's parts; 0: the body not begun
	int32_t cursor;      ///< the next particle of the part (the queue's head in the breadth-first walk)
	int32_t tail;        ///< the walk's queue length
	int32_t tries;       ///< spacing searches so far (the reach doubles after each that finds too few)
	int32_t found;       ///< particles with a neighbour within the reach, and the sum of their distances
	double sum;
	float reach, spacing, rho;
	int32_t* queue;      ///< in the scratch, after the hash: the walk's queue and each particle's layer
	int32_t* level;
} pbdNormalsJob;

typedef struct pbdShapes {
	pbdBody* bodies;
	int32_t* bodyOf; ///< per object: its body + 1, 0 for none
	float* rest;     ///< per particle (float4): x0, its position when its body was added
	float* offset;   ///< per particle (float4): q_i, and in w its weight m_i in the fit
	pbdSurfaceFrame* frames; ///< per body: its particles, R(q) kept with q, its lattice (services/surfaces.h)
	float* normal;   ///< per particle (float4): outward surface normal in the rest frame, and in w
	                 ///< its layer beneath the surface (0: on it), -1 for none (shapes_sdf.c)
	uint8_t* faces;  ///< per particle: the lattice faces it lies on, bit 2k: +a_k, 2k + 1: -a_k
	pbdNormalSource normals; ///< frames, normal and faces as the contacts read them (world->normals)
	int32_t count, capacity;
	int32_t massVersion; ///< world->massVersion the weights were computed for
	int32_t scaled;      ///< the bodies' p.w are scaled for this substep's contacts (shapes_motion.c)
	pbdNormalsJob job;   ///< the rest normals still to build (shapes_sdf.c)
} pbdShapes;

static inline pbdShapes* pbd_ShapesState(const pbdWorld* w) { return (pbdShapes*)w->families[pbdFamily_shapes]; }
/// Body b's frame: the part of it the contacts read (services/surfaces.h).
static inline pbdSurfaceFrame* pbd_Shapes_Frame(const pbdShapes* s, const pbdBody* b) { return &s->frames[b - s->bodies]; }

/// The weighted centre c = ref + e and A = sum_i m_i (x_i - c) q_i^T (row-major) of body b's
/// particles in `positions` (float4 each), summed in double about ref = b->c, the last centre.
void pbd_Shapes_Fit(const pbdShapes* s, const pbdBody* b, const float* positions, double e[3], float A[9]);
/// The rest data that follow the masses and P: the weights, c0, q_i, size (after a mass change
/// or a plastic creep).
void pbd_Shapes_Refresh(const pbdWorld* w, pbdShapes* s, pbdBody* b);

/* shapes_sdf.c */
/// Scratch bytes the normals of a body of up to maxParticles particles need.
size_t pbd_Shapes_SdfScratchBytes(int32_t maxParticles);
/// At body b's Add: no normals yet, and what their build needs from now (the contact radius' reach).
void pbd_Shapes_BeginNormals(pbdWorld* w, pbdShapes* s, pbdBody* b);
/// Builds the rest normals and layers of the bodies still without them, from s->rest, for about `budget` work
/// (neighbour candidates visited; INT64_MAX: all of it), holding the world's scratch from a body's first unit to
/// its last; the work done in *work; 1 when none is left. The step's start runs it (shapes.c).
int pbd_Shapes_NormalsUnit(pbdWorld* w, pbdShapes* s, int64_t budget, int64_t* work);

/* shapes_motion.c */
void pbd_Shapes_Forces(pbdWorld* w, void* state, const pbdStepContext* ctx);
void pbd_Shapes_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx);
void pbd_Shapes_Update(pbdWorld* w, void* state, const pbdStepContext* ctx);

#endif
