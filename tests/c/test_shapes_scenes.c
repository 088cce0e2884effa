/* Shape-matched bodies in scenes: a box landing on the ground, the ten-box stack
   (each box within 1 cm over 60 s, square and set aside), the surface normals the
   contacts take from bodies, a box tipping off an edge, boxes pushed together, plasticity, and
   the determinism hash of a scene of
   stacked and spinning bodies (the same bits on every build). At the scene format's 10
   substeps x 1 pass, with the ground and gravity on; particle radius r = thickness / 2. */
#include "test_shapes_helpers.h"
#include "test_scenes.h"

#include <stdlib.h>

/* A world for boxes of 4 x 4 x 4 particles at spacing 2r: gravity, ground, contacts. */
static pbdWorldId SceneWorld(int particles, int objects, float r)
{
	pbdWorldId w = ShapesWorld(particles, objects);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_thickness, 2.0f * r);
	return w;
}

static void Centre(pbdWorldId w, const TestBody* b, double c[3])
{
	double P[3], L[3];
	Momenta(w, b->first, b->count, P, c, L);
}

static float MaxSpeed(pbdWorldId w, int first, int count)
{
	const float* v = (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	float m = 0.0f;
	for (int i = first; i < first + count; ++i) {
		m = fmaxf(m, sqrtf(v[4 * i] * v[4 * i] + v[4 * i + 1] * v[4 * i + 1] + v[4 * i + 2] * v[4 * i + 2]));
	}
	return m;
}

/* A box dropped tilted by 10 degrees lands, rocks onto a face and rests there: after 3 s it is
   still (every particle under 1 cm/s), its lowest layer of 16 particles lies on the ground
   (y = r within 1 mm), and it keeps its shape (within the ground's last push, 2e-4 m). */
void Test_ShapesBoxRestsFlat(void)
{
	const float r = 0.025f;
	pbdWorldId w = SceneWorld(64, 2, r);
	const int n[3] = { 4, 4, 4 };
	const float at[3] = { 0.0f, 0.3f, 0.0f };
	const float s5 = 0.0871557427f, c5 = 0.9961946981f; /* sin, cos of 5 degrees */
	const float tilt[4] = { s5 * 0.70710678f, 0.0f, s5 * 0.70710678f, c5 };
	TestBody b = AddBoxBody(w, n, 2.0f * r, at, tilt, 1.0f);
	float* rest = malloc((size_t)b.count * 4 * sizeof(float));
	memcpy(rest, pbd_World_GetBuffer(w, pbdBuffer_positions, NULL), (size_t)b.count * 4 * sizeof(float));
	for (int s = 0; s < 180; ++s) pbd_World_Step(w);
	ENSURE(TestAllFinite(w));
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	float ys[64];
	for (int i = 0; i < b.count; ++i) ys[i] = x[4 * i + 1];
	/* the 17 lowest, in order */
	for (int i = 0; i < 17; ++i)
		for (int j = i + 1; j < b.count; ++j)
			if (ys[j] < ys[i]) {
				float t = ys[i];
				ys[i] = ys[j], ys[j] = t;
			}
	printf("  lowest layer y in [%.5f, %.5f], 17th %.4f, speed %.3g m/s, shape %.3g m\n", (double)ys[0], (double)ys[15],
		   (double)ys[16], (double)MaxSpeed(w, b.first, b.count), (double)ShapeChange(w, rest, b.first, b.count));
	ENSURE(ys[0] >= r - 1e-3f && ys[15] <= r + 1e-3f);
	ENSURE(ys[16] > r + r); /* the next layer is a spacing up */
	ENSURE(MaxSpeed(w, b.first, b.count) < 0.01f);
	ENSURE(ShapeChange(w, rest, b.first, b.count) <= 2e-4f);
	free(rest);
	pbd_DestroyWorld(w);
}

/* Ten boxes of 4 x 4 x 4 particles (r = 2.5 cm, 20 cm a side, 1 kg), each on the one below,
   box `moved` set aside by `offset` along x (and, with `diagonal`, along z too): the worst
   drift of any box's centre from where it started over 60 s, across and up. */
static void StackDrift(int moved, float offset, int diagonal, double* across, double* up)
{
	const float r = 0.025f;
	pbdWorldId w = SceneWorld(640, 10, r);
	const int n[3] = { 4, 4, 4 };
	TestBody boxes[10];
	double start[10][3];
	for (int k = 0; k < 10; ++k) {
		const float dx = k == moved ? offset : 0.0f;
		const float at[3] = { dx, 0.1f + 0.2f * (float)k, diagonal ? dx : 0.0f };
		boxes[k] = AddBoxBody(w, n, 2.0f * r, at, s_noTurn, 1.0f);
	}
	for (int k = 0; k < 10; ++k) Centre(w, &boxes[k], start[k]);
	double worstAcross = 0.0, worstUp = 0.0;
	for (int s = 1; s <= 3600; ++s) {
		pbd_World_Step(w);
		if (s % 60 != 0) continue;
		for (int k = 0; k < 10; ++k) {
			double c[3];
			Centre(w, &boxes[k], c);
			const double ax = c[0] - start[k][0], az = c[2] - start[k][2];
			worstAcross = fmax(worstAcross, sqrt(ax * ax + az * az));
			worstUp = fmax(worstUp, fabs(c[1] - start[k][1]));
		}
	}
	ENSURE(TestAllFinite(w));
	*across = worstAcross, *up = worstUp;
	pbd_DestroyWorld(w);
}

/* The ten-box stack (each box within 1 cm over 60 s of simulated time),
   square, and with one box set aside by 1 um, 1 mm and 5 mm, along x and diagonally. Faces of
   particles are bumpy: with contacts pushing along the line between particle centres a box set
   aside by as little as 1 um slid into the hollows of the one below (half a spacing, 2.5 cm;
   the offset doubled every ~0.4 s) and the stack came down, whatever the friction (0.2 to 1)
   and the passes (10 x 1 to 10 x 10). Contact normals from the bodies' surfaces
   (families/shapes_sdf.c, contacts.c BodyNormal) push a face straight off a face. Measured: the
   top box sinks 2.8 mm (1.1 cm without the mass scaling of shapes_motion.c). */
void Test_ShapesTenBoxStack(void)
{
	const float offsets[4] = { 0.0f, 1e-6f, 1e-3f, 5e-3f };
	for (int k = 0; k < 4; ++k)
		for (int diagonal = 0; diagonal < (k == 0 ? 1 : 2); ++diagonal) {
			double across, up;
			StackDrift(4, offsets[k], diagonal, &across, &up);
			printf("  box 5 set aside %g m%s: worst drift over 60 s across %.3g m, up or down %.3g m\n", (double)offsets[k],
				   diagonal ? " (x and z)" : "", across, up);
			ENSURE(across <= 0.01 && up <= 0.01);
		}
}

/* The surface data the contacts read (families/shapes_sdf.c), in closed form for a box of
   4 x 4 x 4 particles turned by 30 degrees about (1, 2, 3): the 8 inner particles are one layer
   beneath the surface, the 56 others on it, each with exactly the faces of the lattice it lies on
   (index 0 or 3 along an axis: the turned -axis or +axis, to 1e-5) and an outward normal along
   the sum of those faces. A lone particle and a pair of particles have no lattice faces. */
void Test_ShapesSurfaceNormals(void)
{
	pbdWorldId w = ShapesWorld(80, 4);
	pbd_World_SetParam(w, pbdParam_thickness, 0.05f);
	const int n[3] = { 4, 4, 4 };
	const float h = 0.2588190451f, c = 0.9659258263f; /* sin, cos of 15 degrees */
	const float l = 1.0f / sqrtf(14.0f);
	const float q[4] = { h * l, 2.0f * h * l, 3.0f * h * l, c };
	const float at[3] = { 0.3f, 0.5f, -0.2f };
	TestBody b = AddBoxBody(w, n, 0.05f, at, q, 1.0f);
	const float lone[3] = { 2.0f, 0.0f, 0.0f }, two[6] = { 3.0f, 0.0f, 0.0f, 3.05f, 0.0f, 0.0f };
	TestBody one = AddPointsBody(w, lone, 1, 1.0f);
	TestBody pair = AddPointsBody(w, two, 2, 1.0f);
	pbd_Shapes_FinishNormals(pbd_GetWorld(w)); /* built at a step's start otherwise */
	const pbdWorld* pw = pbd_GetWorld(w);
	float R[9];
	pbd_QuatToMatrix(q, R);
	int inner = 0, surface = 0, wrong = 0;
	for (int i = 0; i < 4; ++i)
		for (int j = 0; j < 4; ++j)
			for (int k = 0; k < 4; ++k) {
				const int p = b.first + (i * 4 + j) * 4 + k; /* AddBoxBody's order: k fastest */
				const int idx[3] = { i, j, k };
				float expect[3][3], sum[3] = { 0.0f, 0.0f, 0.0f };
				int m = 0;
				for (int a = 0; a < 3; ++a) {
					if (idx[a] != 0 && idx[a] != 3) continue;
					const float sgn = idx[a] == 3 ? 1.0f : -1.0f;
					for (int r = 0; r < 3; ++r) expect[m][r] = sgn * R[3 * r + a], sum[r] += expect[m][r];
					m += 1;
				}
				float g[3], faces[6][3];
				const int layer = pbd_Shapes_ContactNormal(pw, p, g);
				const int count = pbd_Shapes_ContactFaces(pw, p, faces);
				if (m == 0) {
					inner += layer == 2 && count == 0;
					continue;
				}
				surface += layer == 1;
				wrong += count != m;
				for (int e = 0; e < m && count == m; ++e) {
					int matched = 0;
					for (int f = 0; f < count; ++f) {
						const float dx = faces[f][0] - expect[e][0], dy = faces[f][1] - expect[e][1], dz = faces[f][2] - expect[e][2];
						matched |= dx * dx + dy * dy + dz * dz < 1e-10f;
					}
					wrong += !matched;
				}
				const float sl = 1.0f / sqrtf(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
				const float dot = (g[0] * sum[0] + g[1] * sum[1] + g[2] * sum[2]) * sl;
				wrong += !(dot > 1.0f - 1e-5f);
			}
	float g[3], faces[6][3];
	printf("  inner %d of 8, on the surface %d of 56, wrong faces or normals %d\n", inner, surface, wrong);
	ENSURE(inner == 8 && surface == 56 && wrong == 0);
	ENSURE(pbd_Shapes_ContactNormal(pw, one.first, g) == 0 && pbd_Shapes_ContactFaces(pw, one.first, faces) == 0);
	ENSURE(pbd_Shapes_ContactFaces(pw, pair.first, faces) == 0);
	ENSURE(pbd_Shapes_ContactNormal(pw, pair.first, g) == 1 && fabsf(g[0] + 1.0f) < 1e-6f); /* away from the other */
	pbd_DestroyWorld(w);
}

/* Contact normals from the surface must not hold up what should fall: a box tilted by 30
   degrees about z, its centre 5 cm past the right face of a box standing on the ground, is
   dropped from 2 cm above it onto that box's edge. It tips over the edge and comes down beside the
   lower box: after 3 s its centre is below the lower box's top (y = 0.2 + r) and to the right
   of its edge (x > 0.125), and the lower box has barely moved (within 2 cm: a tipping box kicks
   it). Then the upper box upright, resting on the lower one with its centre 5 cm inside the
   lower box's face (x = 0.05; the lower box's outer particles are at 0.075): it stays there
   (within 1 cm; measured 1.6 mm), so the first falls because it should. (Dropped from 2 cm
   it lands 1.4 cm further out: its impact tilts it toward the overhang, and the faces' common
   normal tilts with it.) */
void Test_ShapesTiltedBoxFallsOffCorner(void)
{
	const float r = 0.025f;
	const int n[3] = { 4, 4, 4 };
	const float s15 = 0.2588190451f, c15 = 0.9659258263f; /* sin, cos of 15 degrees: a 30 degree turn */
	const float tilt[4] = { 0.0f, 0.0f, -s15, c15 };
	for (int inside = 0; inside < 2; ++inside) {
		pbdWorldId w = SceneWorld(128, 3, r);
		const float below[3] = { 0.0f, 0.1f, 0.0f };
		TestBody low = AddBoxBody(w, n, 2.0f * r, below, s_noTurn, 1.0f);
		/* upright: resting height 0.3 + 2 cm; tilted by 30 degrees: its lowest corner is
		   0.075 (cos 30 + sin 30) = 0.102 below its centre, particle centres; plus 2r and 2 cm */
		const float above[3] = { inside ? 0.05f : 0.175f, inside ? 0.3f : 0.175f + 0.1025f + 2.0f * r + 0.02f, 0.0f };
		TestBody top = AddBoxBody(w, n, 2.0f * r, above, inside ? s_noTurn : tilt, 1.0f);
		double lowStart[3], topStart[3];
		Centre(w, &low, lowStart);
		Centre(w, &top, topStart);
		for (int s = 0; s < 180; ++s) pbd_World_Step(w);
		ENSURE(TestAllFinite(w));
		double lc[3], tc[3];
		Centre(w, &low, lc);
		Centre(w, &top, tc);
		const double lowMoved = sqrt((lc[0] - lowStart[0]) * (lc[0] - lowStart[0]) + (lc[2] - lowStart[2]) * (lc[2] - lowStart[2]));
		printf("  %s: upper box centre (%.3f, %.3f) from (%.3f, %.3f), lower box moved %.3g m\n", inside ? "upright, inside" : "tilted, past the edge",
			   tc[0], tc[1], topStart[0], topStart[1], lowMoved);
		if (inside) {
			ENSURE(fabs(tc[0] - topStart[0]) <= 0.01 && fabs(tc[1] - 0.3) <= 0.01);
			ENSURE(lowMoved <= 0.01);
		} else {
			ENSURE(tc[1] < 0.2 + r && tc[0] > 0.125);
			ENSURE(lowMoved <= 0.02);
		}
		pbd_DestroyWorld(w);
	}
}

/* Two boxes standing on the ground 2 cm apart (faces of particles at 2r + 2 cm), the second
   set aside along z by r / 2 so that their lattices do not line up, are driven into each other
   at 0.5 m/s each for 2 s (their velocities set toward each other before every step: a push
   without bound). Their particles never come closer than D - 0.1 r, D = 2r (the solids' target:
   interpenetration within 10% of the particle radius), and the push sets neither one climbing
   the other (centres within 1 cm of the ground's resting height 0.1). */
void Test_ShapesBoxesPushedTogether(void)
{
	const float r = 0.025f;
	pbdWorldId w = SceneWorld(128, 3, r);
	const int n[3] = { 4, 4, 4 };
	const float left[3] = { -0.11f, 0.1f, 0.0f }, right[3] = { 0.11f, 0.1f, 0.5f * r };
	TestBody a = AddBoxBody(w, n, 2.0f * r, left, s_noTurn, 1.0f);
	TestBody b = AddBoxBody(w, n, 2.0f * r, right, s_noTurn, 1.0f);
	float closest = INFINITY;
	double worstUp = 0.0;
	for (int s = 0; s < 120; ++s) {
		const float* v = (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
		for (int i = a.first; i < a.first + a.count; ++i) pbd_World_SetVelocity(w, i, 0.5f, v[4 * i + 1], v[4 * i + 2]);
		for (int i = b.first; i < b.first + b.count; ++i) pbd_World_SetVelocity(w, i, -0.5f, v[4 * i + 1], v[4 * i + 2]);
		pbd_World_Step(w);
		const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		for (int i = a.first; i < a.first + a.count; ++i)
			for (int j = b.first; j < b.first + b.count; ++j) closest = fminf(closest, TestDistance(x, i, j));
		double ca[3], cb[3];
		Centre(w, &a, ca);
		Centre(w, &b, cb);
		worstUp = fmax(worstUp, fmax(fabs(ca[1] - 0.1), fabs(cb[1] - 0.1)));
	}
	ENSURE(TestAllFinite(w));
	printf("  closest particles %.5f m (D = %.3f, D - 0.1 r = %.5f), centres off the resting height by %.3g m\n",
		   (double)closest, (double)(2.0f * r), (double)(2.0f * r - 0.1f * r), worstUp);
	ENSURE(closest >= 2.0f * r - 0.1f * r);
	ENSURE(worstUp <= 0.01);
	pbd_DestroyWorld(w);
}

/* Mean distance of particles [first, first + count) from where `rest` has them. */
static float MeanOffset(pbdWorldId w, const float* rest, int first, int count)
{
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	float sum = 0.0f;
	for (int i = first; i < first + count; ++i) {
		const float dx = x[4 * i] - rest[4 * i], dy = x[4 * i + 1] - rest[4 * i + 1], dz = x[4 * i + 2] - rest[4 * i + 2];
		sum += sqrtf(dx * dx + dy * dy + dz * dz);
	}
	return sum / (float)count;
}

/* A bar of 6 x 2 x 2 particles (25 x 5 x 5 cm), shape stiffness 0.2, pinned at one end, its
   other end pulled 5 cm sideways by four attachments for 2 s and then let go, for 3 s more
   (gravity off, damping 2/s). With plasticity (yield 0.01, creep 5/s, max 2) the rest shape
   creeps toward the bent one and the bar keeps more than half of its bend; without, it returns
   to within 1% of it (seed 001 section 5.3). With max 0.05 the plastic
   deformation P stops at |P - I| = 0.05: a shear of 0.05 sqrt 2 (the strain is symmetric),
   which leaves the tip 0.25 m from the pin 1.8 cm aside. */
void Test_ShapesPlasticBarKeepsBend(void)
{
	float loaded[3], released[3];
	for (int plastic = 0; plastic < 3; ++plastic) {
		pbdWorldId w = ShapesWorld(64, 2);
		pbd_World_SetParam(w, pbdParam_damping, 2.0f);
		const int n[3] = { 6, 2, 2 };
		const float at[3] = { 0.0f, 1.0f, 0.0f };
		TestBody b = AddBoxBody(w, n, 0.05f, at, s_noTurn, 1.0f);
		pbd_World_SetObjectStiffness(w, b.object, pbdKind_shape, 0.2f);
		if (plastic) ENSURE(pbd_World_SetObjectPlasticity(w, b.object, 0.01f, 5.0f, plastic == 1 ? 2.0f : 0.05f) == PBD_OK);
		float* rest = malloc((size_t)b.count * 4 * sizeof(float));
		memcpy(rest, pbd_World_GetBuffer(w, pbdBuffer_positions, NULL), (size_t)b.count * 4 * sizeof(float));
		/* particle (i, j, k) is i * 4 + j * 2 + k: the first four are the pinned end, the last four the tip */
		for (int i = 0; i < 4; ++i) pbd_World_SetInvMass(w, b.first + i, 0.0f);
		pbdAttachmentId grab[4];
		const int tip = b.first + b.count - 4;
		for (int i = 0; i < 4; ++i) {
			const float* r = rest + 4 * (tip + i);
			grab[i] = pbd_World_AddAttachment(w, tip + i, r[0], r[1] + 0.05f, r[2], 0.5f);
			ENSURE(grab[i] > 0);
		}
		for (int s = 0; s < 120; ++s) pbd_World_Step(w);
		loaded[plastic] = MeanOffset(w, rest, tip, 4);
		for (int i = 0; i < 4; ++i) pbd_World_RemoveAttachment(w, grab[i]);
		for (int s = 0; s < 180; ++s) pbd_World_Step(w);
		released[plastic] = MeanOffset(w, rest, tip, 4);
		printf("  plasticity %s: tip %.4f m loaded, %.4f m released\n", plastic == 0 ? "off" : plastic == 1 ? "on" : "max 0.05",
			   (double)loaded[plastic], (double)released[plastic]);
		ENSURE(TestAllFinite(w));
		free(rest);
		pbd_DestroyWorld(w);
	}
	ENSURE(loaded[0] > 0.01f && loaded[1] > 0.01f);
	ENSURE(released[0] <= 0.01f * loaded[0]);
	ENSURE(released[1] >= 0.5f * loaded[1]);
	ENSURE_NEAR(released[2], 0.25 * 0.05 * 1.41421356, 0.003);
}

/* The same bits on every build (native, scalar, sanitizers, wasm): three boxes stacked, a
   lopsided body thrown at them spinning about a tilted axis, and a soft body (stiffness 0.5)
   with plasticity dropped beside them, for 240 steps. The hash is of positions and velocities
   (pbd_World_Hash); it changes only when the physics does. */
void Test_ShapesDeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneShapes); /* test_scenes.c */
	ENSURE(TestAllFinite(w));
	const uint32_t hash = pbd_World_Hash(w);
	printf("  hash 0x%08x\n", hash);
	ENSURE(TestPinnedHash(hash, PBD_SHAPES_DETERMINISM_HASH));
	pbd_DestroyWorld(w);
}
