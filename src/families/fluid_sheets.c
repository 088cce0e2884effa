/* families/fluid_sheets.c -- thin solids (cloth) in the fluid's contact: the side a fluid particle is on.
   A sheet is any object whose material says so (services/materials.h PBD_MATERIAL_SHEET: the cloth's builder).

   A cloth is one layer of particles of radius r_s, spaced about 2 r_s: between four of them is a gap
   whose centre is 0.71 spacing from each. A sphere contact with each of them (fluid_solve.c, the
   arch's r_f + r_s) pushes a fluid particle over the gap along the centre lines, whose vertical
   parts shrink to 0 as it sinks into the gap (at depth z the push is (r_f + r_s - r) z / r), and
   turn round once it is past the particles' plane: a particle falling at 1 m/s (0.4 d a substep at
   2 substeps) met pushes of ~0.03 d a pass and went through (the FluidOnCloth test: 25 of 144 by
   step 12). A cloth is a surface, not a heap of balls (Macklin et al. 2014 4.2 collide fluid with
   the cloth's particles, but at 3-4 x our substeps and with a denser cloth), so here a fluid
   particle i near a cloth particle j is held on one side of the cloth's surface there:
       s_ij (p_i - p_j) . n_j >= r_f + r_s   while |tangential part of p_i - p_j| < l_j,
   with n_j the cloth's area-weighted vertex normal and l_j its longest incident edge, both at the
   substep's start (x), and s_ij = sign((x_i - x_j) . n_j) the side i was on at the substep's start.
   Deciding the side from where the particle came from, not where it is, makes the check continuous:
   a particle predicted past the sheet within one substep is put back on its side (as a collider's
   sweep does), whatever its speed, as long as the lists hold the pair (within h at the substep's
   start positions p). Where i is less than reach / 2 off j's plane the sign of dn is no evidence
   (the contact had already failed there) and i takes the side it is clearly on of the cloth
   particle nearest j (EntrySide). Over a gap the four patches overlap (0.71 l < l), so the pushes, averaged
   (Macklin 2014 4.2), lift the particle along the normal by its whole penetration. Both sides of a
   pair are corrected from the same numbers (fluid_solve.c SheetDepth), split by w_hat.

   The lists only hold pairs within h = 2 d, and a light cloth under heavy water stretches: the
   issue's 1 m cloth of 34 x 34 particles of 1 g pinned all round, under 900 water particles of 8 g
   at 4 substeps x 2 passes, had its middle edges at 3.3 x rest length by step 13 (8 Gauss-Seidel
   sweeps a step cannot carry 7.2 kg to the border), and water over the widened gaps, farther than h
   from every cloth particle, left the lists and fell through (31 of 900; thrown at 3 m/s, 222). So
   each fluid particle remembers the PBD_SHEET_MEMORY cloth particles nearest it, with its side of
   each, from substep to substep (f->sheetMemory, moved with the particle by the sort and drains):
   a remembered pair keeps its side (the history of Bridson, Fedkiw and Anderson 2002: the side a
   particle came from, not where a deep push left it), and a remembered pair the lists lost while
   the particle is still over j's patch (within l_j tangentially, h of its plane) stays a contact
   (Remember: f->sheetExtra). j does not see it, so the fluid particle alone takes the depth (j as
   a wall: the cloth's share of the water's weight there is lost, for the few substeps of a gap
   wider than h). Water sinking into such a gap after the layer under it moved aside takes its
   fluid neighbours' memories (Adopt): the search reaches one fluid neighbour beyond h. Measured:
   0 of 900 set down or thrown at 3 m/s; thrown at 5 m/s, 2 at 4 x 2 and 30 at 2 x 4: a contact between
   particles misses what its lists miss, so after the passes fluid_guard.c tests each fluid particle's path
   against the cloth's triangles and stops it at a crossing (0 at both; tests/c/test_fluid_sheets.c). Without
   this memory the guard alone holds those splits too, but one substep of one pass lets 149 of 900 through
   against 26 with it (measured with the memory switched off).

   Here: each cloth's normals and patch sizes (float4 per particle, f->sheet), and each list entry's
   side (f->entrySide: +1 / -1 for a fluid-cloth pair, 0 for any other pair and the padding), for
   the entries of the cloth particles with fluid neighbours and of the fluid particles near them
   (f->nearSheet). A world without cloth near its fluid pays one pass over the order array. */
#include "families/fluid_state.h"
#include "services/materials.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Area-weighted vertex normals (as pbd_World_UpdateNormals, on x) and the longest incident edge of
   every particle of cloth object o. */
static void SheetNormals(pbdWorld* w, pbdFluid* f, const pbdObjectInfo* info)
{
	float* sh = f->sheet;
	memset(sh + 4 * info->firstParticle, 0, (size_t)info->particleCount * 4 * sizeof(float));
	for (int32_t t = info->firstTriangle; t < info->firstTriangle + info->triangleCount; ++t) {
		const uint32_t* tri = w->triangles + 3 * t;
		const float *a = w->x + 4 * tri[0], *b = w->x + 4 * tri[1], *c = w->x + 4 * tri[2];
		const float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		const float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		const float e3[3] = { c[0] - b[0], c[1] - b[1], c[2] - b[2] };
		const float nx = e1[1] * e2[2] - e1[2] * e2[1];
		const float ny = e1[2] * e2[0] - e1[0] * e2[2];
		const float nz = e1[0] * e2[1] - e1[1] * e2[0];
		float l = (e1[0] * e1[0] + e1[1] * e1[1]) + e1[2] * e1[2];
		const float l2 = (e2[0] * e2[0] + e2[1] * e2[1]) + e2[2] * e2[2];
		const float l3 = (e3[0] * e3[0] + e3[1] * e3[1]) + e3[2] * e3[2];
		l = l2 > l ? l2 : l;
		l = l3 > l ? l3 : l;
		for (int32_t k = 0; k < 3; ++k) {
			float* s = sh + 4 * tri[k];
			s[0] += nx, s[1] += ny, s[2] += nz;
			s[3] = l > s[3] ? l : s[3]; /* squared for now */
		}
	}
	for (int32_t i = info->firstParticle; i < info->firstParticle + info->particleCount; ++i) {
		float* s = sh + 4 * i;
		const float len = sqrtf((s[0] * s[0] + s[1] * s[1]) + s[2] * s[2]);
		if (len > 1e-20f && s[3] > 0.0f) {
			const float inv = 1.0f / len;
			s[0] *= inv, s[1] *= inv, s[2] *= inv;
			s[3] = sqrtf(s[3]);
		} else {
			s[0] = s[1] = s[2] = s[3] = 0.0f; /* no surface here: the sphere contact */
		}
	}
}

/* (x_i - x_j) . n_j of fluid particle i and cloth particle j. The same expression wherever the pair
   is decided, so every decision agrees to the bit. */
static inline float Across(const float* x, const float* sheet, int32_t i, int32_t j)
{
	const float* a = x + 4 * i;
	const float* b = x + 4 * j;
	const float* n = sheet + 4 * j;
	return ((a[0] - b[0]) * n[0] + (a[1] - b[1]) * n[1]) + (a[2] - b[2]) * n[2];
}

/* The side of fluid particle i's entry t (a cloth particle j) in i's list. Where i is clearly off
   j's plane (|dn| >= reach / 2) the sign of dn. Where it is not, the contact had already failed
   at the substep's start (the particle half through j's plane: squeezed in a closing fold, or
   pushed at a crease by patches that disagree), and the sign of dn is a coin toss that, once
   wrong, pushes the particle the rest of the way through (the hose on the hammock: a particle in a
   Z-fold of the slack edge, 4 mm past one crease particle's plane and 18 mm over its neighbour's,
   was sent through). So i takes j's side from the cloth particle k of its list nearest j (in
   space, so on the same stretch of cloth) that it is clearly on one side of: the same side where
   the normals agree, the other where they are opposed (a fold). None: the sign of dn. */
static float EntrySide(const pbdWorld* w, const pbdFluid* f, int32_t i, int32_t t, const float* dn)
{
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* indices = f->lists.indices + start;
	const int32_t j = indices[t];
	const float* x = w->x;
	const float half = 0.5f * (f->k.radius + f->props[4 * j + 3]);
	if (dn[t] >= half) return 1.0f;
	if (dn[t] <= -half) return -1.0f;
	const float* nj = f->sheet + 4 * j;
	float best = 3.4e38f, side = dn[t] >= 0.0f ? 1.0f : -1.0f;
	for (int32_t u = 0; u < n; ++u) {
		const int32_t k = indices[u];
		if (u == t || (w->phase[k] & PBD_PHASE_FLUID) || !(f->sheet[4 * k + 3] > 0.0f)) continue;
		const float clear = 0.5f * (f->k.radius + f->props[4 * k + 3]);
		if (!(dn[u] >= clear || dn[u] <= -clear)) continue;
		const float ex = x[4 * k] - x[4 * j], ey = x[4 * k + 1] - x[4 * j + 1], ez = x[4 * k + 2] - x[4 * j + 2];
		const float d2 = (ex * ex + ey * ey) + ez * ez;
		if (!(d2 < best)) continue; /* the first of equals: list order */
		const float* nk = f->sheet + 4 * k;
		const float agree = (nk[0] * nj[0] + nk[1] * nj[1]) + nk[2] * nj[2];
		best = d2;
		side = (dn[u] > 0.0f) == (agree >= 0.0f) ? 1.0f : -1.0f;
	}
	return side;
}

/* Cloth particle j (an index from the memory) is still a sheet's particle with a surface this substep. */
static int SheetParticle(const pbdWorld* w, const pbdFluid* f, int32_t j)
{
	if (j < 0 || j >= w->particleCount || (w->phase[j] & PBD_PHASE_FLUID)) return 0;
	return pbd_Material_IsSheet(w, (int32_t)(w->phase[j] & PBD_PHASE_OBJECT_MASK)) && f->sheet[4 * j + 3] > 0.0f;
}

/* Fluid particle i's memory entry for cloth particle j: its side (+1 / -1), or 0. */
static float Remembered(const int32_t* memory, int32_t j)
{
	for (int32_t e = 0; e < PBD_SHEET_MEMORY; ++e) {
		if (memory[e] == j + 1) return 1.0f;
		if (memory[e] == -(j + 1)) return -1.0f;
	}
	return 0.0f;
}

/* Keeps cloth particle j (side s, squared distance d2 from i) among the PBD_SHEET_MEMORY nearest in
   next / dist (nearest first, ties by index: the same on every build). */
static void Keep(int32_t* next, float* dist, int32_t j, float s, float d2)
{
	int32_t e = PBD_SHEET_MEMORY;
	while (e > 0 && (next[e - 1] == 0 || d2 < dist[e - 1] || (d2 == dist[e - 1] && j + 1 < abs(next[e - 1])))) --e;
	if (e >= PBD_SHEET_MEMORY) return;
	for (int32_t k = PBD_SHEET_MEMORY - 1; k > e; --k) next[k] = next[k - 1], dist[k] = dist[k - 1];
	next[e] = s > 0.0f ? j + 1 : -(j + 1);
	dist[e] = d2;
}

/* Whether fluid particle i is over sheet particle j's patch (within its half-edge l sideways, within h across), with
   their squared distance d2 and i's height dn across j's sheet: the test a remembered pair keeps its contact by. */
static inline int OverPatch(const pbdFluid* f, const float* x, int32_t i, int32_t j, float* d2, float* dn)
{
	const float* a = x + 4 * i;
	const float* b = x + 4 * j;
	const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	*d2 = (dx * dx + dy * dy) + dz * dz;
	*dn = Across(x, f->sheet, i, j);
	const float l = f->sheet[4 * j + 3];
	return (*d2 - *dn * *dn < l * l) && (*dn * *dn < f->k.h2);
}

/* Fluid particle i's memory, this substep: the entries whose cloth particle is gone from i's list
   but that i is still over the patch of (tangentially within l_j, within h of its plane) become
   extra contacts (f->sheetExtra); entries no longer near are dropped. The step's search then keeps
   the PBD_SHEET_MEMORY nearest of i's cloth neighbours and extras with their sides. */
static void Remember(pbdWorld* w, pbdFluid* f, int32_t i, const float* side)
{
	int32_t* memory = f->sheetMemory + PBD_SHEET_MEMORY * i;
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* indices = f->lists.indices + start;
	const float* x = w->x;
	int32_t next[PBD_SHEET_MEMORY] = { 0 };
	float dist[PBD_SHEET_MEMORY] = { 0 };
	uint8_t extra = 0;
	/* the memory's entries that are i's sheet entries (side != 0), in one pass over the list */
	uint32_t listed = 0;
	for (int32_t t = 0; t < n; ++t) {
		if (side[t] == 0.0f) continue;
		for (int32_t e = 0; e < PBD_SHEET_MEMORY; ++e) listed |= (uint32_t)(abs(memory[e]) - 1 == indices[t]) << e;
	}
	for (int32_t e = 0; e < PBD_SHEET_MEMORY; ++e) {
		if (memory[e] == 0) continue;
		const int32_t j = abs(memory[e]) - 1;
		if (!SheetParticle(w, f, j)) continue;
		if ((listed >> e) & 1u) continue; /* kept below with the list's entries */
		float d2, dn;
		if (!OverPatch(f, x, i, j, &d2, &dn)) continue;
		extra |= (uint8_t)(1u << e);
		/* the solve reads a listed solid's props; this one is in no list */
		const uint32_t o = w->phase[j] & PBD_PHASE_OBJECT_MASK;
		f->props[4 * j] = w->x[4 * j + 3] * f->k.mass;
		f->props[4 * j + 3] = pbd_Material_ContactRadius(w, (int32_t)o);
		Keep(next, dist, j, memory[e] > 0 ? 1.0f : -1.0f, d2);
	}
	for (int32_t t = 0; t < n; ++t) {
		if (side[t] == 0.0f) continue;
		const int32_t j = indices[t];
		const float* a = x + 4 * i;
		const float* b = x + 4 * j;
		const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
		Keep(next, dist, j, side[t], (dx * dx + dy * dy) + dz * dz);
	}
	f->sheetExtra[i] = extra;
	if (extra) f->nearSheet[i] = 1;
	if (!f->sheetRemember) {
		/* a query's search: the extras point into the memory as it is */
		return;
	}
	/* the extras' bits must name the entries of the memory the solve reads: rewrite them */
	uint8_t moved = 0;
	for (int32_t e = 0; e < PBD_SHEET_MEMORY; ++e) {
		/* an entry of next is one of i's sheet entries or one of the old memory's extras (disjoint) */
		for (int32_t u = 0; u < PBD_SHEET_MEMORY && next[e] != 0; ++u) {
			if (((extra >> u) & 1u) && abs(memory[u]) == abs(next[e])) moved |= (uint8_t)(1u << e);
		}
	}
	for (int32_t e = 0; e < PBD_SHEET_MEMORY; ++e) memory[e] = next[e];
	f->sheetExtra[i] = moved;
}

/* A fluid particle i with no cloth in its list and no memory, next to fluid particles that remember
   cloth particles: it takes those it is over the patch of (as Remember's extras), on the side it is
   clearly on at the substep's start (|dn| >= reach / 2: it has not crossed, or the pair would have
   been caught), else on its neighbour's side. Water sinking into a gap stretched wider than h (the
   lower layer that held the memory moved aside) so still meets the cloth: the search reaches one
   fluid neighbour further than h. */
static void Adopt(pbdWorld* w, pbdFluid* f, int32_t i)
{
	int32_t* memory = f->sheetMemory + PBD_SHEET_MEMORY * i;
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* indices = f->lists.indices + start;
	const float* x = w->x;
	float dist[PBD_SHEET_MEMORY] = { 0 };
	for (int32_t t = 0; t < n; ++t) {
		const int32_t q = indices[t];
		if (q == i || !(w->phase[q] & PBD_PHASE_FLUID)) continue;
		const int32_t* mq = f->sheetMemory + PBD_SHEET_MEMORY * q;
		for (int32_t e = 0; e < PBD_SHEET_MEMORY; ++e) {
			if (mq[e] == 0) continue;
			const int32_t j = abs(mq[e]) - 1;
			if (Remembered(memory, j) != 0.0f || !SheetParticle(w, f, j)) continue;
			float d2, dn;
			if (!OverPatch(f, x, i, j, &d2, &dn)) continue;
			const float half = 0.5f * (f->k.radius + pbd_Material_ContactRadius(w, (int32_t)(w->phase[j] & PBD_PHASE_OBJECT_MASK)));
			const float s = dn >= half ? 1.0f : dn <= -half ? -1.0f : mq[e] > 0 ? 1.0f : -1.0f;
			Keep(memory, dist, j, s, d2);
		}
	}
}

void pbd_Fluid_FindSheets(pbdWorld* w, pbdFluid* f)
{
	f->sheetPairs = 0;
	int32_t remembers = 0;
	for (int32_t o = 0; o < f->fluidCount; ++o) {
		const int32_t i = f->order[o];
		const int32_t* m = f->sheetMemory + PBD_SHEET_MEMORY * i;
		f->nearSheet[i] = 0;
		f->sheetExtra[i] = 0;
		remembers |= (m[0] | m[1]) | (m[2] | m[3]);
	}
	/* the cloth particles with fluid neighbours: none, and no fluid particle remembers a cloth: nothing to do */
	int32_t any = remembers != 0;
	for (int32_t o = f->fluidCount; o < f->orderCount && !any; ++o) {
		const uint32_t obj = w->phase[f->order[o]] & PBD_PHASE_OBJECT_MASK;
		any = pbd_Material_IsSheet(w, (int32_t)obj);
	}
	if (!any) return;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		if (pbd_Material_IsSheet(w, o)) SheetNormals(w, f, &w->objects[o]);
	}
	const float* x = w->x;
	/* the fluid particles near a sheet */
	for (int32_t o = f->fluidCount; o < f->orderCount; ++o) {
		const int32_t j = f->order[o];
		const uint32_t obj = w->phase[j] & PBD_PHASE_OBJECT_MASK;
		const int sheet = pbd_Material_IsSheet(w, (int32_t)obj);
		if (!sheet) f->sheet[4 * j + 3] = 0.0f; /* a solid that is no sheet: the sphere contact */
		if (f->sheet[4 * j + 3] <= 0.0f) continue;
		const int32_t start = f->lists.start[j], n = f->lists.count[j];
		for (int32_t t = 0; t < n; ++t) f->nearSheet[f->lists.indices[start + t]] = 1; /* fluid (fluid.c ListsInput: solids list only fluid) */
	}
	/* their entries' sides, decided from the fluid particle's list (dn first, in the entries): the
	   remembered side where i remembers j (Bridson et al. 2002's history: a particle pushed past a
	   cloth particle's plane within a substep, or over a gap stretched wider than h, is held on the
	   side it came from), else EntrySide */
	for (int32_t o = 0; o < f->fluidCount; ++o) {
		const int32_t i = f->order[o];
		int32_t* memory = f->sheetMemory + PBD_SHEET_MEMORY * i;
		const int32_t start = f->lists.start[i], n = f->lists.count[i];
		float* side = f->entrySide + start;
		if (f->nearSheet[i]) {
			const int32_t padded = (n + 3) & ~3;
			const int32_t* indices = f->lists.indices + start;
			float* dn = f->entryAux + start; /* free until the density pass writes it */
			for (int32_t t = 0; t < n; ++t) {
				const int32_t j = indices[t];
				const int sheet = !(w->phase[j] & PBD_PHASE_FLUID) && f->sheet[4 * j + 3] > 0.0f;
				dn[t] = sheet ? Across(x, f->sheet, i, j) : 0.0f;
			}
			for (int32_t t = 0; t < padded; ++t) {
				const int32_t j = indices[t];
				const int sheet = t < n && !(w->phase[j] & PBD_PHASE_FLUID) && f->sheet[4 * j + 3] > 0.0f;
				const float kept = sheet ? Remembered(memory, j) : 0.0f;
				side[t] = !sheet ? 0.0f : kept != 0.0f ? kept : EntrySide(w, f, i, t, dn);
			}
		}
		if (!f->nearSheet[i] && remembers != 0 && f->sheetRemember && ((memory[0] | memory[1]) | (memory[2] | memory[3])) == 0) {
			Adopt(w, f, i);
		}
		if (!f->nearSheet[i] && ((memory[0] | memory[1]) | (memory[2] | memory[3])) != 0) {
			/* no cloth in i's list, but a memory: its entries take no sheet contact */
			for (int32_t t = 0; t < ((n + 3) & ~3); ++t) side[t] = 0.0f;
		}
		if (f->nearSheet[i] || ((memory[0] | memory[1]) | (memory[2] | memory[3])) != 0) Remember(w, f, i, side);
	}
	/* the cloth particles' entries: the same sides, looked up in the fluid particle's list (the
	   lists are symmetric; a pair cut from the fluid side by a full list gets the sign of dn) */
	for (int32_t o = f->fluidCount; o < f->orderCount; ++o) {
		const int32_t j = f->order[o];
		const int32_t start = f->lists.start[j], n = f->lists.count[j];
		const int32_t padded = (n + 3) & ~3;
		float* side = f->entrySide + start;
		for (int32_t t = 0; t < padded; ++t) side[t] = 0.0f;
		if (f->sheet[4 * j + 3] <= 0.0f) continue;
		for (int32_t t = 0; t < n; ++t) {
			const int32_t i = f->lists.indices[start + t];
			const int32_t si = f->lists.start[i], ni = f->lists.count[i];
			float s = Across(x, f->sheet, i, j) >= 0.0f ? 1.0f : -1.0f;
			for (int32_t u = 0; u < ni; ++u) {
				if (f->lists.indices[si + u] == j) {
					s = f->entrySide[si + u];
					break;
				}
			}
			side[t] = s;
			f->sheetPairs += 1;
		}
	}
}
