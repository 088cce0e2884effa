/* Recovery tests: the speed bound also bounds displacement, and a
   cloth let go after a violent drag comes back to the stretch of an undisturbed one. */
#include "test.h"
#include "test_physics_helpers.h"

#include <string.h>

static const float* Pos(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static const float* Vel(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL); }

/* Two free particles (a chain of one segment at stiffness 0), no gravity, no ground, no
   tethers: only the attachment moves particle 0. */
static pbdWorldId LoneParticleWorld(int substeps, float maxSpeed)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 8;
	def.maxConstraints = 8;
	pbdWorldId w = TestCreateWorld(&def);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[0] = 0.5f, chain.start[1] = 1.0f, chain.start[2] = -0.25f;
	chain.end[0] = 0.5f, chain.end[1] = 1.0f, chain.end[2] = 5.0f;
	chain.segments = 1;
	pbd_World_AddChain(w, &chain);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
	pbd_World_SetParam(w, pbdParam_maxSpeed, maxSpeed);
	return w;
}

/* Distance of q from the line through a along the unit vector u, and q's coordinate along it. */
static void AlongLine(const float* a, const float* u, const float* q, double* along, double* off)
{
	double d[3] = { q[0] - a[0], q[1] - a[1], q[2] - a[2] };
	double t = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
	double e[3] = { d[0] - t * u[0], d[1] - t * u[1], d[2] - t * u[2] };
	*along = t;
	*off = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}

/* A stiffness-1 attachment puts p on its target in every substep, so p - x is the whole way
   to the target: the bound cuts it to maxSpeed h along that line, and v = (p - x) / h keeps
   |v| = maxSpeed. After n steps of dt the particle is exactly n maxSpeed dt along the line
   (substeps x maxSpeed h each), whatever the substep count. */
void Test_DisplacementBoundTeleport(void)
{
	const float maxSpeed = 12.0f;
	for (int substeps = 1; substeps <= 8; substeps *= 2) {
		pbdWorldId w = LoneParticleWorld(substeps, maxSpeed);
		const float dt = pbd_World_GetParam(w, pbdParam_dt);
		float x0[3];
		memcpy(x0, Pos(w), sizeof x0);
		const float u[3] = { 2.0f / 3.0f, -1.0f / 3.0f, 2.0f / 3.0f };
		const float far = 99.0f; /* the teleport */
		pbdAttachmentId a = pbd_World_AddAttachment(w, 0, x0[0] + far * u[0], x0[1] + far * u[1], x0[2] + far * u[2], 1.0f);
		ENSURE(a > 0);
		for (int step = 1; step <= 5; ++step) {
			pbd_World_Step(w);
			double along, off;
			AlongLine(x0, u, Pos(w), &along, &off);
			ENSURE_NEAR(along, step * maxSpeed * dt, 1e-4 * step);
			ENSURE(off < 1e-5);
			const float* v = Vel(w);
			double speed = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
			ENSURE_NEAR(speed, maxSpeed, 1e-3);
			for (int k = 0; k < 3; ++k) ENSURE_NEAR(v[k], maxSpeed * u[k], 1e-3); /* toward the target */
		}
		ENSURE(pbd_World_RemoveAttachment(w, a) == PBD_OK);
		/* let go, it flies on at maxSpeed (no gravity, no damping): x and v agree */
		float x1[3];
		memcpy(x1, Pos(w), sizeof x1);
		pbd_World_Step(w);
		for (int k = 0; k < 3; ++k) ENSURE_NEAR(Pos(w)[k] - x1[k], maxSpeed * u[k] * dt, 1e-4);
		pbd_DestroyWorld(w);
	}
}

/* Below the bound nothing changes: a stiffness-1 attachment reaches a target closer than
   maxSpeed dt in one step, exactly; one farther away is approached at maxSpeed and then
   reached on the step where the remaining way drops under maxSpeed dt. */
void Test_DisplacementBoundReachesTarget(void)
{
	const float maxSpeed = 6.0f;
	pbdWorldId w = LoneParticleWorld(4, maxSpeed);
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	const float* x = Pos(w);
	const float t[3] = { x[0] + 0.6f * maxSpeed * dt, x[1], x[2] };
	pbdAttachmentId a = pbd_World_AddAttachment(w, 0, t[0], t[1], t[2], 1.0f);
	pbd_World_Step(w);
	for (int k = 0; k < 3; ++k) ENSURE_NEAR(Pos(w)[k], t[k], 1e-6);
	/* 2.5 steps' worth away: 1, 2 steps at the bound, on the target after the third */
	const float start = Pos(w)[1];
	ENSURE(pbd_World_MoveAttachment(w, a, t[0], start + 2.5f * maxSpeed * dt, t[2]) == PBD_OK);
	pbd_World_Step(w);
	ENSURE_NEAR(Pos(w)[1] - start, maxSpeed * dt, 1e-5);
	pbd_World_Step(w);
	ENSURE_NEAR(Pos(w)[1] - start, 2.0f * maxSpeed * dt, 1e-5);
	pbd_World_Step(w);
	ENSURE_NEAR(Pos(w)[1] - start, 2.5f * maxSpeed * dt, 1e-5);
	ENSURE_NEAR(Pos(w)[0], t[0], 1e-6);
	pbd_DestroyWorld(w);
}

/* Damping makes v smaller than (p - x) / h, so a particle can move more than maxSpeed h in a
   substep while its damped velocity stays under the speed bound: the displacement is bounded
   by itself. At damping c = 100/s and h = dt, v is (p - x) / h / (1 + c h) = 0.375 (p - x) / h;
   a target 1.2 maxSpeed dt away is reached in one step without the displacement bound (v then
   0.45 maxSpeed), and is approached by exactly maxSpeed dt with it, v = 0.375 maxSpeed. */
void Test_DisplacementBoundHeavyDamping(void)
{
	const float maxSpeed = 8.0f, c = 100.0f;
	pbdWorldId w = LoneParticleWorld(1, maxSpeed);
	pbd_World_SetParam(w, pbdParam_damping, c);
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	const float x0 = Pos(w)[2];
	pbd_World_AddAttachment(w, 0, Pos(w)[0], Pos(w)[1], x0 + 1.2f * maxSpeed * dt, 1.0f);
	pbd_World_Step(w);
	ENSURE_NEAR(Pos(w)[2] - x0, maxSpeed * dt, 1e-6);
	ENSURE_NEAR(Vel(w)[2], maxSpeed / (1.0f + c * dt), 1e-4);
	pbd_DestroyWorld(w);
}

/* The report: a grabbed cloth particle whose target is teleported 99 m. At the
   engine's defaults (maxSpeed 100 m/s, 10 substeps x 1 pass) it moves maxSpeed dt = 1.67 m
   in one step, along the line to the target (within what the cloth's constraints, solved
   after the attachment, pull it off), not 99 m. Tethers off: with them, the target is first moved into the particle's
   reach from the pins (test_knots.c), and the displacement bound is not what stops it. */
void Test_DisplacementBoundDefaultsInCloth(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 400;
	def.maxConstraints = 4000;
	pbdWorldId w = pbd_CreateWorld(&def); /* the defaults, not the tests' 1 x 10 */
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = 12;
	cloth.resolutionV = 12;
	int first = pbd_World_AddCloth(w, &cloth);
	pbd_World_SetInvMass(w, first, 0.0f);
	pbd_World_SetInvMass(w, first + 11, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	for (int s = 0; s < 30; ++s) pbd_World_Step(w);
	const int grabbed = first + 12 * 11 + 5; /* on the bottom edge */
	float x0[3];
	memcpy(x0, Pos(w) + 4 * grabbed, sizeof x0);
	const float maxSpeed = pbd_World_GetParam(w, pbdParam_maxSpeed);
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	ENSURE(maxSpeed == 100.0f);
	const float u[3] = { 0.0f, 0.6f, 0.8f };
	pbdAttachmentId a = pbd_World_AddAttachment(w, grabbed, x0[0], x0[1] + 99.0f * u[1], x0[2] + 99.0f * u[2], 1.0f);
	ENSURE(a > 0);
	static float before[4 * 144];
	memcpy(before, Pos(w) + 4 * first, sizeof before);
	pbd_World_Step(w);
	double along, off;
	AlongLine(x0, u, Pos(w) + 4 * grabbed, &along, &off);
	ENSURE_NEAR(along, maxSpeed * dt, 1e-3);
	/* the attachment is solved first in each pass (families/family.h), so the cloth's constraints after it pull
	   the particle off the line a little (2.7 cm of 1.67 m): the bound still holds it to maxSpeed dt */
	ENSURE(off < 0.02 * along);
	/* and no particle of the cloth moved farther than that */
	for (int i = 0; i < 144; ++i) {
		const float* q = Pos(w) + 4 * (first + i);
		const float* b = before + 4 * i;
		double dx = q[0] - b[0], dy = q[1] - b[1], dz = q[2] - b[2];
		ENSURE(sqrt(dx * dx + dy * dy + dz * dz) <= maxSpeed * dt * (1.0 + 1e-5));
	}
	ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- tethers to every pin island */

/* The cloths below are test_physics_helpers.h's CornerPinnedCloth: the built-in "cloth" scene's grid, pinned at its
   two top corners, at pbd_CreateWorld's defaults (the scene format's: 10 substeps x 1 pass) and the scene's damping
   0.05. */

/* Kim et al. 2012's bound holds for every pin: bending a flat cloth without stretching it
   takes no particle farther from any pin than in the rest pose. Only the tethers hold this
   cloth (every distance constraint at stiffness 0), pinned at its two top corners, which are
   two pin islands: under gravity every particle stays within (1 + s) d of both pins, where d
   is its rest distance to each, and ends taut on its nearest (projected last; the far bound
   is met as the passes converge, to 0.06% where the two balls touch, on the top edge).
   Tethered to the nearest pin alone, particles swing on under it past the other pin's bound,
   here by up to 1.4 times that bound. */
void Test_TethersBoundEveryPinIsland(void)
{
	const float slacks[] = { 0.0f, 0.1f };
	for (int k = 0; k < 2; ++k) {
		const int nu = 8, nv = 6, n = nu * nv;
		pbdWorldId w = CornerPinnedCloth(nu, nv, 0, 0, 0.0f);
		for (int c = 0; c < pbdKind_count; ++c) pbd_World_SetParam(w, (pbdParam)(pbdParam_stiffnessStretch + c), 0.0f);
		pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
		pbd_World_SetParam(w, pbdParam_tetherSlack, slacks[k]);
		double limit[2][64];
		for (int i = 0; i < n; ++i) {
			limit[0][i] = (1.0 + slacks[k]) * TestDistance(Pos(w), 0, i);
			limit[1][i] = (1.0 + slacks[k]) * TestDistance(Pos(w), nu - 1, i);
		}
		double worst = 0.0; /* farthest past the far pin's bound, relative to it */
		for (int s = 0; s < 180; ++s) {
			pbd_World_Step(w);
			for (int i = 0; i < n; ++i) {
				const int near = limit[0][i] <= limit[1][i] ? 0 : 1;
				ENSURE(TestDistance(Pos(w), near ? nu - 1 : 0, i) <= limit[near][i] + 2e-6);
				if (s < 120) continue; /* the far bound is met as the passes converge */
				double far = TestDistance(Pos(w), near ? 0 : nu - 1, i) - limit[1 - near][i];
				if (far / limit[1 - near][i] > worst) worst = far / limit[1 - near][i];
			}
		}
		printf("  slack %.1f: at most %.2g past the far pin's bound\n", (double)slacks[k], worst);
		ENSURE(worst < 2e-3); /* 1.4 with the nearest pin's tether alone */
		pbd_DestroyWorld(w);
	}
}

/* The built-in cloth undisturbed: 40 x 40, 2 m x 2 m, pinned at its two top corners, at the
   scene format's defaults. Its largest stretch once it hangs still is Gauss-Seidel's residue
   (0.16%); tethered to the nearest pin alone it was 2.1%, all in the middle column, where the
   two pins' halves meet and nothing tied one half to the other. */
void Test_HangingClothHasNoSeam(void)
{
	pbdWorldId w = CornerPinnedCloth(40, 40, 0, 0, 0.0f);
	for (int s = 0; s < 420; ++s) pbd_World_Step(w);
	pbdStats st;
	pbd_World_GetStats(w, &st);
	printf("  hanging cloth at rest: max stretch %.4f\n", (double)st.maxStretch);
	ENSURE(st.kineticEnergy < 1e-5);
	ENSURE(st.maxStretch < 0.004f);
	pbd_DestroyWorld(w);
}

/* An object pinned along a whole edge is one island (its pins are joined by the mesh's
   edges): no particle gets a second tether, and the step is bit for bit the nearest-pin
   tethers' (the determinism hashes and the 316 x 316 cloth's figures are unchanged). Two
   pins side by side are one island too; two pins apart are two. Seen from outside: a
   particle hanging below one pin of a pair side by side swings as far from the other as its
   own tether lets it, but one below two pins apart is held by both. */
void Test_TetherIslandsFollowTheMesh(void)
{
	const int nu = 8, nv = 6;
	for (int apart = 0; apart < 2; ++apart) {
		pbdWorldId w = CornerPinnedCloth(nu, nv, 0, 0, 0.0f);
		for (int c = 0; c < pbdKind_count; ++c) pbd_World_SetParam(w, (pbdParam)(pbdParam_stiffnessStretch + c), 0.0f);
		pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
		pbd_World_SetInvMass(w, nu - 1, 1.0f / 0.01f); /* only the left corner, and ... */
		const int other = apart ? 3 : 1;                 /* ... a second pin: 3 or 1 columns on */
		pbd_World_SetInvMass(w, other, 0.0f);
		/* particle (0, 5), straight below the corner, is nearest to the corner; swing it out
		   toward -x, away from the second pin */
		const int i = 5 * nu;
		const double dOther = TestDistance(Pos(w), other, i);
		pbd_World_SetVelocity(w, i, -3.0f, 0.0f, 0.0f);
		double farthest = 0.0;
		for (int s = 0; s < 60; ++s) {
			pbd_World_Step(w);
			double d = TestDistance(Pos(w), other, i);
			if (d > farthest) farthest = d;
		}
		if (apart) ENSURE(farthest <= dOther + 1e-5);
		else ENSURE(farthest > dOther + 1e-3); /* one island: the nearest pin's tether only */
		pbd_DestroyWorld(w);
	}
}
