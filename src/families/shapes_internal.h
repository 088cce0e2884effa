/* families/shapes_internal.h -- the shapes family's state, shared by its own files only:
   shapes.c (the family: bodies, the solve, the error, the API) and shapes_motion.c (the rigid
   predictor and plasticity). Everything else goes through families/shapes.h. */
#ifndef PBD_SHAPES_INTERNAL_H
#define PBD_SHAPES_INTERNAL_H

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
	float q[4];       ///< the last solve's rotation (x, y, z, w): the next one's warm start
	float c[3];       ///< the last solve's centre
	float c0[3];      ///< the weighted centre of the rest positions x0
	float size;       ///< rest size: the RMS of |q_i|; 0 for a point
	float height;     ///< its centre's height in this substep's prediction (mass scaling)
	float meanMass;   ///< the mean mass of its free particles (1 when none): a pin's in plasticity's fit
	float mass;       ///< M = sum m_i of the weights
	float offsetSum[3]; ///< sum m_i q_i (0 but for rounding)
	float plastic[9]; ///< P, the plastic deformation so far (row-major; identity when none)
} pbdBody;

typedef struct pbdShapes {
	pbdBody* bodies;
	int32_t* bodyOf; ///< per object: its body + 1, 0 for none
	float* rest;     ///< per particle (float4): x0, its position when its body was added
	float* offset;   ///< per particle (float4): q_i, and in w its weight m_i in the fit
	int32_t count, capacity;
	int32_t massVersion; ///< world->massVersion the weights were computed for
	int32_t scaled;      ///< the bodies' p.w are scaled for this substep's contacts (shapes_motion.c)
} pbdShapes;

static inline pbdShapes* pbd_ShapesState(const pbdWorld* w) { return (pbdShapes*)w->families[pbdFamily_shapes]; }

/// The weighted centre c = ref + e and A = sum_i m_i (x_i - c) q_i^T (row-major) of body b's
/// particles in `positions` (float4 each), summed in double about ref = b->c, the last centre.
void pbd_Shapes_Fit(const pbdShapes* s, const pbdBody* b, const float* positions, double e[3], float A[9]);
/// The rest data that follow the masses and P: the weights, c0, q_i, size (after a mass change
/// or a plastic creep).
void pbd_Shapes_Refresh(const pbdWorld* w, pbdShapes* s, pbdBody* b);

/* shapes_motion.c */
void pbd_Shapes_Forces(pbdWorld* w, void* state, const pbdStepContext* ctx);
void pbd_Shapes_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx);
void pbd_Shapes_Update(pbdWorld* w, void* state, const pbdStepContext* ctx);

#endif
