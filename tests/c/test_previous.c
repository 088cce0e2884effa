/* pbdBuffer_previous (pbd_World_KeepPrevious): what a renderer blends from to draw the world between two steps
   (issue 23 item 5, seed 001 section 4.2). Each step copies every particle's x there after its start, so the
   buffer holds where each particle was when the step began, slot by slot, even where the step's start moved
   particles between slots (the fluid's cell sort every step here) or added them (a hose); a particle set or built
   from outside the step is there at its own position; keeping it changes no bit; and a body's skin at blend b is
   the skin of the particles blended as the vertex shaders blend them. */
#include "test.h"
#include "test_fluid_helpers.h"

#include <stdlib.h>
#include <string.h>

/* A cloth pinned at two corners, a soft ball and a rigid box over the ground, a block of water (sorted into cell
   order every step) and a hose feeding it, 1 substep and no damping: v = (x - x_start) / dt exactly but for
   rounding. */
static void Scene(pbdWorldId* out, int keep, int* fluidFirst, int* fluidCount)
{
	pbdWorldId w = *out = FluidWorld(8000, 3000, 1, 4);
	pbd_World_SetParam(w, pbdParam_damping, 0.0f);
	pbd_World_SetParam(w, pbdParam_fluidSortInterval, 1.0f);
	pbdClothDef c = pbd_DefaultClothDef();
	c.origin[0] = 1.0f, c.origin[1] = 1.0f, c.origin[2] = 0.0f;
	c.resolutionU = c.resolutionV = 12;
	ENSURE(pbd_World_AddCloth(w, &c) >= 0);
	pbd_World_SetInvMass(w, 0, 0.0f);
	pbd_World_SetInvMass(w, 11, 0.0f);
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_SOFT;
	b.shape = pbdBodyShape_ball;
	b.position[0] = -1.0f, b.position[1] = 0.6f, b.position[2] = 0.0f;
	ENSURE(pbd_World_AddBody(w, &b) >= 0);
	b.type = PBD_OBJECT_RIGID;
	b.shape = pbdBodyShape_box;
	b.position[0] = -1.0f, b.position[1] = 1.5f;
	ENSURE(pbd_World_AddBody(w, &b) >= 0);
	FluidWalls(w, 0.3f, 0.3f, 0.6f, 1);
	const int fluid = AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.3f, 0.2f, 0.3f, 2800);
	ENSURE(fluid >= 0);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 3; /* the cloth, the ball, the box, the water */
	e.position[0] = 0.15f, e.position[1] = 0.5f, e.position[2] = 0.15f;
	e.direction[0] = 0.3f, e.direction[1] = -1.0f, e.direction[2] = 0.0f;
	e.speed = 2.0f;
	e.radius = 0.03f;
	e.enabled = 1;
	const int emitter = pbd_World_AddEmitter(w, &e);
	if (emitter < 0) printf("  emitter: %s\n", pbd_World_GetLastErrorMessage(w));
	ENSURE(emitter >= 0);
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, 3, &info);
	*fluidFirst = info.firstParticle;
	*fluidCount = info.particleCount;
	if (keep) ENSURE(pbd_World_KeepPrevious(w, 1) == PBD_OK);
}

static int CompareXyz(const void* a, const void* b)
{
	const float *p = a, *q = b;
	for (int k = 0; k < 3; ++k) {
		if (p[k] != q[k]) return p[k] < q[k] ? -1 : 1;
	}
	return 0;
}

/* Whether every row of `some` (n rows) is among those of `all` (m >= n rows), as a multiset of exact x, y, z:
   both sorted in place. */
static int Within(float* some, int n, float* all, int m)
{
	qsort(some, (size_t)n, 16, CompareXyz);
	qsort(all, (size_t)m, 16, CompareXyz);
	int j = 0;
	for (int i = 0; i < n; ++i) {
		while (j < m && CompareXyz(all + 4 * j, some + 4 * i) < 0) ++j;
		if (j == m || CompareXyz(all + 4 * j, some + 4 * i) != 0) return 0;
		++j;
	}
	return 1;
}

void Test_PreviousIsTheLastStepsStart(void)
{
	int first, count, first2, count2;
	pbdWorldId w, twin;
	Scene(&w, 1, &first, &count);
	Scene(&twin, 0, &first2, &count2);
	const int n = pbd_World_GetCount(w, pbdBuffer_positions);
	float* before = malloc((size_t)n * 16);
	float* a = malloc((size_t)count * 16);
	float* b = malloc((size_t)count * 16);
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	const int steps = 40;
	int permuted = 0, grew = 0, live = 0, kept = 1;
	double worstFar = 0.0;
	for (int s = 0; s < steps; ++s) {
		const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		memcpy(before, x, (size_t)n * 16);
		pbdObjectInfo info;
		pbd_World_GetObjectInfo(w, 3, &info);
		const int liveBefore = info.activeParticles;
		ENSURE(pbd_World_Step(w) == PBD_OK);
		ENSURE(pbd_World_Step(twin) == PBD_OK);
		pbd_World_GetObjectInfo(w, 3, &info);
		live = info.activeParticles;
		grew += live > liveBefore;
		const float* p = pbd_World_GetBuffer(w, pbdBuffer_previous, NULL);
		const float* v = pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
		/* the solids: exactly where the step began (no step start moves them) */
		ENSURE(memcmp(p, before, (size_t)first * 16) == 0);
		/* the water: the particles the step began with and the hose's new ones, slot by slot where the cell sort put
		   them: every one of them there exactly, and each within the step's travel of where it ended */
		const int moved = memcmp(p + 4 * first, before + 4 * first, (size_t)liveBefore * 16) != 0;
		permuted += moved;
		double vmax = 0.0, far = 0.0;
		for (int i = first; i < first + live; ++i) {
			double d2 = 0.0, v2 = 0.0;
			for (int k = 0; k < 3; ++k) {
				d2 += ((double)x[4 * i + k] - p[4 * i + k]) * ((double)x[4 * i + k] - p[4 * i + k]);
				v2 += (double)v[4 * i + k] * v[4 * i + k];
			}
			vmax = fmax(vmax, sqrt(v2));
			far = fmax(far, sqrt(d2));

		}
		worstFar = fmax(worstFar, far / (vmax * dt));
		memcpy(a, before + 4 * first, (size_t)liveBefore * 16);
		memcpy(b, p + 4 * first, (size_t)live * 16);
		kept &= Within(a, liveBefore, b, live);
	}
	printf("  previous: water %d live (the hose added in %d steps), the cell sort moved slots in %d of %d steps; a slot's "
		   "travel at most %.3f x the fastest particle's step\n", live, grew,
		   permuted, steps, worstFar);
	ENSURE(grew > 5 && permuted > steps / 2);
	ENSURE(kept);                               /* every particle the step began with, exactly */
	ENSURE(worstFar <= 1.5);                    /* XSPH and restitution change v after the move: a little over 1 */
	ENSURE(pbd_World_Hash(w) == pbd_World_Hash(twin)); /* keeping it changes no bit */
	/* set from outside: drawn where it is put; a new object: where it was built */
	ENSURE(pbd_World_SetPosition(w, 5, 0.25f, 2.0f, -0.5f) == PBD_OK);
	const float* p = pbd_World_GetBuffer(w, pbdBuffer_previous, NULL);
	ENSURE(p[20] == 0.25f && p[21] == 2.0f && p[22] == -0.5f);
	pbdBodyDef body = pbd_DefaultBodyDef();
	body.position[1] = 3.0f;
	const int object = pbd_World_AddBody(w, &body);
	ENSURE(object >= 0);
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, object, &info);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	ENSURE(memcmp(p + 4 * info.firstParticle, x + 4 * info.firstParticle, (size_t)info.particleCount * 16) == 0);
	ENSURE(pbd_World_KeepPrevious(-1, 1) == PBD_ERR_INVALID_WORLD);
	free(before);
	free(a);
	free(b);
	pbd_DestroyWorld(w);
	pbd_DestroyWorld(twin);
}

/* Skins between steps: at blend 0 the skin the last step began with, at 1 the skin itself to the bit, at 1/2 the
   midpoint (a soft body's to rounding: its vertices are linear in its particles; a rigid one's within what a small
   turn's nlerp leaves); without KeepPrevious the blend is ignored. */
void Test_PreviousSkinBetweenSteps(void)
{
	for (int keep = 1; keep >= 0; --keep) {
		int first, count;
		pbdWorldId w;
		Scene(&w, keep, &first, &count);
		for (int s = 0; s < 30; ++s) pbd_World_Step(w);
		const int nv = pbd_World_GetCount(w, pbdBuffer_skinPositions);
		ENSURE(nv > 100);
		float* start = malloc((size_t)nv * 16);
		float* end = malloc((size_t)nv * 16);
		pbd_World_UpdateSkin(w);
		const float* sx = pbd_World_GetBuffer(w, pbdBuffer_skinPositions, NULL);
		memcpy(start, sx, (size_t)nv * 16);
		pbd_World_Step(w);
		pbd_World_UpdateSkin(w);
		memcpy(end, sx, (size_t)nv * 16);
		ENSURE(pbd_World_UpdateSkinAt(w, 1.0f) == PBD_OK);
		ENSURE(memcmp(sx, end, (size_t)nv * 16) == 0);
		double at0 = 0.0, mid = 0.0, travel = 0.0;
		pbd_World_UpdateSkinAt(w, 0.0f);
		for (int i = 0; i < 4 * nv; ++i) at0 = fmax(at0, fabs((double)sx[i] - (keep ? start[i] : end[i])));
		pbd_World_UpdateSkinAt(w, 0.5f);
		for (int i = 0; i < 4 * nv; ++i) {
			const double want = keep ? 0.5 * ((double)start[i] + end[i]) : end[i];
			mid = fmax(mid, fabs((double)sx[i] - want));
			travel = fmax(travel, fabs((double)end[i] - start[i]));
		}
		printf("  skin, %s: largest move in the step %.3g m; at blend 0 off the step's start by %.2g m, at 1/2 off the "
			   "midpoint by %.2g m\n", keep ? "kept" : "not kept", travel, at0, mid);
		ENSURE(travel > 1e-3); /* the bodies fall: the blend has something to show */
		ENSURE(at0 < 1e-6 && mid < 1e-5);
		ENSURE(pbd_World_UpdateSkinAt(w, NAN) == PBD_OK); /* NaN is the skin itself */
		ENSURE(memcmp(sx, end, (size_t)nv * 16) == 0);
		free(start);
		free(end);
		pbd_DestroyWorld(w);
	}
}
