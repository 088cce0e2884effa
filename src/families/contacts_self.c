/* families/contacts_self.c -- a cloth colliding with itself never passes through its own holes: the particle
   contacts' self guard, after the passes (the update stage, before contacts_sheets.c's guard of other objects).

   Why. Self-collision sees a cloth as spheres of the contact distance D at its particles. Where a triangle's
   circumradius R is under D, every point of it is within D of a corner, so no particle can pass through the triangle
   without meeting a corner's sphere; the built-in cloth (D = 0.88 of its step) is covered so until a square is
   stretched about 24%. A fast drag stretches the grabbed corner's neighbourhood 25-50%: its triangles open into holes,
   and the rest of the cloth, or a pin (a spike no contact pushes), swept through them, leaves a knot that holds 25-31%
   stretch for good (tools/knots.mjs: 1 of 48 random drags on each of two seeds of four; docs/physics.md). A cloth
   with a thickness below its step (the format's default 1 cm on the built-in cloth's 5 cm) is all holes.

   So each substep, after the passes, every triangle of a self-colliding cloth whose circumradius at the end positions
   is at least PBD_SELF_HOLE D is a hole, and each particle of that cloth, pins included, has its path x -> p tested
   against the holes it is not a corner of (services/crossing.c: the exact crossing of a moving point and a moving
   triangle). At the first crossing the particle and the triangle are pushed apart to PBD_SHEET_GUARD r on the side
   it came from, with seed 000's mass-weighted split (the point-triangle inequality). It moves the triangle's corners,
   so particles go one after another on one thread (the same bits at any thread count). Not tested: an edge crossing
   an edge (Bridson, Fedkiw and Anderson 2002 test those too); measured, the knots that remained were a particle or a
   pin through a hole.

   Cost: a calm cloth has no holes, and pays for the scan alone, four triangles at a time: the bench cloth (316 x 316,
   10 substeps, self-collision at 0.95 of its step) takes 1.19 x the step without the guard in wasm (1.06 x natively;
   bench/ab.mjs --cpu, medians of 9), 1.43 x the cloth without self-collision. One triangle at a time, the step took
   1.11 x as long as with four at a time (same run). With holes: the index of the holes' swept boxes, a query per particle. */
#include "families/contacts.h"
#include "services/crossing.h"
#include "services/materials.h"
#include "base/simd.h"

/* A cloth's triangle is a hole in its self-collision when its circumradius is at least this many contact distances
   (Holes4). Under 1: a particle over a covered triangle's circumcentre is sqrt(1 - h^2) D = 0.44 D from its plane,
   which the built-in cloth's particles, at most 1 cm a substep each (maxSpeed 6 m/s), close by at most 2 cm = 0.44 D
   between two substeps: a triangle that nearly stops being covered is guarded already. */
#define PBD_SELF_HOLE 0.9f

/* Whether a triangle is a hole a particle of contact distance D can pass between its corners' particles without
   meeting one: its circumradius R = |ab| |bc| |ca| / (2 |(b - a) x (c - a)|) at least PBD_SELF_HOLE D (every point
   of a triangle is within R of a corner; the farthest is the circumcentre when the triangle is acute). In squares,
   no root: not a hole when a^2 b^2 c^2 < 4 h^2 D^2 |n|^2. A flat triangle (n = 0) is a hole; so is one with a NaN.
   Four triangles at once, a lane each (the corners' rows transposed): bit k of the result is triangle k's. The same
   operations in the same order as one at a time, so the same answer on every build. */
static inline uint32_t Holes4(pbdF4 ax, pbdF4 ay, pbdF4 az, pbdF4 bx, pbdF4 by, pbdF4 bz, pbdF4 cx, pbdF4 cy, pbdF4 cz,
							  pbdF4 fourHD2)
{
	const pbdF4 e1x = pbdF4_Sub(bx, ax), e1y = pbdF4_Sub(by, ay), e1z = pbdF4_Sub(bz, az);
	const pbdF4 e2x = pbdF4_Sub(cx, ax), e2y = pbdF4_Sub(cy, ay), e2z = pbdF4_Sub(cz, az);
	const pbdF4 e3x = pbdF4_Sub(cx, bx), e3y = pbdF4_Sub(cy, by), e3z = pbdF4_Sub(cz, bz);
	const pbdF4 nx = pbdF4_Sub(pbdF4_Mul(e1y, e2z), pbdF4_Mul(e1z, e2y));
	const pbdF4 ny = pbdF4_Sub(pbdF4_Mul(e1z, e2x), pbdF4_Mul(e1x, e2z));
	const pbdF4 nz = pbdF4_Sub(pbdF4_Mul(e1x, e2y), pbdF4_Mul(e1y, e2x));
	const pbdF4 l1 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(e1x, e1x), pbdF4_Mul(e1y, e1y)), pbdF4_Mul(e1z, e1z));
	const pbdF4 l2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(e2x, e2x), pbdF4_Mul(e2y, e2y)), pbdF4_Mul(e2z, e2z));
	const pbdF4 l3 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(e3x, e3x), pbdF4_Mul(e3y, e3y)), pbdF4_Mul(e3z, e3z));
	const pbdF4 nn = pbdF4_Add(pbdF4_Add(pbdF4_Mul(nx, nx), pbdF4_Mul(ny, ny)), pbdF4_Mul(nz, nz));
	return ~pbdF4_LessBits(pbdF4_Mul(pbdF4_Mul(l1, l2), l3), pbdF4_Mul(fourHD2, nn)) & 15u;
}

/* Bits k of the triangles t .. t + count - 1 (count <= 4) that are holes (Holes4), positions p. */
static uint32_t HoleBits(const uint32_t* tri, const float* p, int32_t t, int32_t count, pbdF4 fourHD2)
{
	pbdF4 r[3][4];
	for (int32_t k = 0; k < 4; ++k) {
		const uint32_t* v = tri + 3 * (t + (k < count ? k : 0));
		for (int m = 0; m < 3; ++m) r[m][k] = pbdF4_Load(p + 4 * v[m]);
	}
	for (int m = 0; m < 3; ++m) pbdF4_Transpose(&r[m][0], &r[m][1], &r[m][2], &r[m][3]);
	const uint32_t bits = Holes4(r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2], fourHD2);
	return bits & ((1u << count) - 1u);
}

/* Object o, a sheet colliding with itself: its particles (pins too: a pin is a spike no particle contact pushes) kept
   from passing through its own holes (Hole), one after another. */
static void GuardOwnHoles(pbdWorld* w, const pbdContacts* c, int32_t o)
{
	const pbdObjectInfo* info = &w->objects[o];
	const float D = 2.0f * c->radius[o], hD = PBD_SELF_HOLE * D, fourHD2 = 4.0f * hD * hD;
	const float* p = w->p;
	uint8_t* scratch = pbd_Scratch_Take(w, pbdScratch_none);
	/* the holes' runs of triangles (first, count) at the scratch's start, the index after them */
	int32_t* runs = (int32_t*)scratch;
	const int32_t maxRuns = (int32_t)(w->scratchBytes / (2 * sizeof(int32_t)));
	int32_t runCount = 0, holes = 0;
	const uint32_t* tri = w->triangles;
	const int32_t last = info->firstTriangle + info->triangleCount;
	const pbdF4 four = pbdF4_Splat(fourHD2);
	for (int32_t t0 = info->firstTriangle; t0 < last && runCount < maxRuns; t0 += 4) {
		uint32_t bits = HoleBits(tri, p, t0, last - t0 < 4 ? last - t0 : 4, four);
		for (; bits != 0u; bits &= bits - 1u) {
			const int32_t t = t0 + (int32_t)__builtin_ctz(bits);
			holes += 1;
			if (runCount > 0 && runs[2 * runCount - 2] + runs[2 * runCount - 1] == t) runs[2 * runCount - 1] += 1;
			else if (runCount < maxRuns) runs[2 * runCount] = t, runs[2 * runCount + 1] = 1, runCount += 1;
		}
	}
	if (holes == 0) return;
	size_t used = ((size_t)runCount * 2 * sizeof(int32_t) + 63u) & ~(size_t)63u;
	int32_t whole[2] = { info->firstTriangle, info->triangleCount };
	if (used + pbd_TriangleIndex_ScratchBytes(holes) > w->scratchBytes) {
		/* too many to list: every triangle of the sheet (a superset: only slower) */
		runs = whole, runCount = 1, used = 0;
	}
	pbdCrossing crossing = { .x = w->x, .p = w->p };
	const float margin = 0.5f * D;
	if (pbd_TriangleIndex_Build(&crossing.index, w->triangles, runs, runCount, w->x, w->p, margin, 2.0f * D, NULL, 0,
								scratch + used, w->scratchBytes - used) == 0)
		return;
	const uint32_t* phase = w->phase;
	const int32_t first = info->firstParticle, end = first + info->particleCount;
	for (int32_t i = first; i < end; ++i) {
		if (phase[i] & (PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID)) continue;
		pbd_Crossing_GuardOwn(&crossing, i, PBD_SHEET_GUARD * c->radius[o], c->massRatio);
	}
}

void pbd_Contacts_GuardSelf(pbdWorld* w, const pbdContacts* c)
{
	for (int32_t o = 0; o < w->objectCount; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		if (!pbd_Material_IsSheet(w, o) || !pbd_Material_InPairContacts(w, o) || info->particleCount < 3) continue;
		if (!(w->phase[info->firstParticle] & PBD_PHASE_SELF)) continue;
		GuardOwnHoles(w, c, o);
	}
}

