/* families/ground.c -- the ground plane y = groundHeight as a constraint family.

   Each particle is a sphere of radius r, its object's (services/materials.h pbd_Material_ContactRadius:
   thickness / 2 unless the object has its own), so the constraint is the inequality
   C(p) = p.y - (height + r) >= 0, projected only when violated (seed 000 section 1): the
   ground has w = 0, so the particle takes the whole correction, straight up. When every object
   has the same radius, height + r is one number, as it was before radii per object; otherwise
   each particle reads its object's through its phase word (a table of PBD_MAX_OBJECTS floats).

   Friction is positional (Macklin et al. 2014, "Unified Particle Physics", sec. 6.1): the
   tangential travel of this substep, p - x in the plane, is cancelled when under mu_s * depth
   (static), otherwise shortened by mu_k * depth (kinetic).

   Restitution (Mueller et al. 2020, "Detailed Rigid Body Simulation with XPBD", sec. 3.5):
   a particle that touched the ground in this substep and approached it faster than the
   resting speed 2 h |g| leaves it at least at e times that speed. The approach speed is its
   v*.y, the velocity of the prediction, which w->v holds until the velocity update; the solve
   records it with the contact, and the velocities hook applies the bounce after v = (p - x) / h.
   Below the resting speed a contact is resting: bouncing it would make it jitter.

   Each particle's constraint involves that particle alone, so the family is one colour of
   particleCount constraints that any split may solve (no two share a particle). */
#include "families/family.h"
#include "services/boundary.h"
#include "services/materials.h"
#include "base/tasks.h"

#include <math.h>
#include <string.h>

typedef struct pbdGround {
	uint8_t* touched;  ///< per particle: in contact in this substep
	float* approach;   ///< per particle: v*.y when it touched
	/* per step, from the parameters */
	int32_t enabled;
	int32_t uniform; ///< every object the same radius: height holds for every particle
	float height; ///< plane height plus the particle radius, when uniform
	float heights[PBD_MAX_OBJECTS]; ///< plane height plus object o's particle radius
	float staticFriction, kineticFriction, restitution, restingSpeed;
	float share[PBD_MAX_OBJECTS]; ///< the share of the friction object o's particles feel (services/materials.h)
} pbdGround;

static size_t Ground_Bytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return pbd_PoolBytes(1, sizeof(pbdGround)) + pbd_PoolBytes(P, 1) + pbd_PoolBytes(P, sizeof(float));
}

static void* Ground_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	pbdGround* g = pbd_PoolAlloc(pool, 1, sizeof(pbdGround));
	if (g == NULL) return NULL;
	g->touched = pbd_PoolAlloc(pool, P, 1);
	g->approach = pbd_PoolAlloc(pool, P, sizeof(float));
	return g->approach != NULL ? g : NULL;
}

static void Ground_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdGround* g = state;
	const float* params = w->params;
	float plane; /* the boundary's plane (services/boundary.h) */
	g->enabled = pbd_Boundary_Ground(w, &plane);
	/* particles are spheres of their object's radius against every surface */
	g->height = plane + pbd_Material_DefaultRadius(w);
	g->uniform = 1;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		g->heights[o] = plane + pbd_Material_ContactRadius(w, o);
		g->share[o] = pbd_Material_FrictionShare(w, o);
		if (o == 0) g->height = g->heights[0];
		g->uniform &= g->heights[o] == g->height;
	}
	g->staticFriction = params[pbdParam_staticFriction];
	g->kineticFriction = params[pbdParam_kineticFriction];
	g->restitution = params[pbdParam_restitution];
	g->restingSpeed = pbd_RestingSpeed(w, ctx->h);
}

static void Ground_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdGround* g = state;
	memset(g->touched, 0, (size_t)w->particleCount);
}

static int32_t Ground_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdGround*)state)->enabled; }

static int32_t Ground_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 0;
	return w->particleCount;
}

static inline __attribute__((always_inline)) void SolveParticles(pbdWorld* w, pbdGround* g, int32_t begin, int32_t end,
																  const int uniform)
{
	const float muS = g->staticFriction, muK = g->kineticFriction;
	const uint32_t* phase = w->phase;
	for (int32_t i = begin; i < end; ++i) {
		float* p = w->p + 4 * i;
		const float ground = uniform ? g->height : g->heights[phase[i] & PBD_PHASE_OBJECT_MASK];
		if (p[1] >= ground || p[3] <= 0.0f) continue;
		float depth = ground - p[1];
		p[1] = ground;
		if (!g->touched[i]) {
			g->touched[i] = 1;
			g->approach[i] = w->v[4 * i + 1]; /* v*.y: w->v holds the prediction until the velocity update */
		}
		const float* x = w->x + 4 * i;
		float tx = p[0] - x[0], tz = p[2] - x[2];
		float travel = sqrtf(tx * tx + tz * tz);
		/* water slips along the floor (services/materials.h pbd_Material_FrictionShare) */
		const float share = g->share[phase[i] & PBD_PHASE_OBJECT_MASK];
		if (travel < (muS * share) * depth) {
			p[0] = x[0];
			p[2] = x[2];
		} else if (travel > 0.0f) {
			float f = (muK * share) * depth / travel;
			if (f > 1.0f) f = 1.0f;
			p[0] -= tx * f;
			p[2] -= tz * f;
		}
	}
}

static void Ground_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbdGround* g = state;
	if (g->uniform) SolveParticles(w, g, begin, end, 1);
	else SolveParticles(w, g, begin, end, 0);
}

/* The particles that touched in this substep are flagged, not listed: a list appended from
   the solve's blocks would need one counter all threads share (and an order that depends on
   them). Each particle's bounce is its own, so the scan is shared out like the solve. */
typedef struct BounceBlock {
	pbdWorld* w;
	const pbdGround* g;
} BounceBlock;

static void Bounce(void* data, int32_t begin, int32_t end)
{
	const BounceBlock* b = data;
	pbdWorld* w = b->w;
	const pbdGround* g = b->g;
	const float e = g->restitution;
	for (int32_t i = begin; i < end; ++i) {
		if (!g->touched[i]) continue;
		const float approach = g->approach[i];
		if (approach < -g->restingSpeed) {
			float bounce = -e * approach;
			if (w->v[4 * i + 1] < bounce) w->v[4 * i + 1] = bounce;
		}
	}
}

static void Ground_Velocities(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	const pbdGround* g = state;
	if (!g->enabled) return;
	BounceBlock b = { w, g };
	pbd_Parallel_For(w, w->particleCount, PBD_PARTICLE_BLOCK, Bounce, &b);
}

const pbdFamily pbd_family_ground = {
	.name = "ground",
	.bytes = Ground_Bytes,
	.create = Ground_Create,
	.start = Ground_PrepareStep,
	.findContacts = Ground_PrepareSubstep,
	.colourCount = Ground_ColourCount,
	.colourSize = Ground_ColourSize,
	.blockSize = PBD_PARTICLE_BLOCK,
	.solve = Ground_Solve,
	.velocities = Ground_Velocities,
};
