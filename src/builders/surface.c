/* builders/surface.c -- checks of a triangle surface and the inside tests that fill a lattice
   with it: ray crossings for a closed one, the generalized winding number otherwise (surface.h). */
#include "builders/surface.h"
#include "world/core.h"

#include <string.h>

size_t pbd_Surface_CheckBytes(int32_t vertexCount, int32_t triangleCount)
{
	/* the adjacency: each vertex's triangles, as offsets (vertexCount + 1) and a list (3 per triangle) */
	return pbd_BodyInts((size_t)vertexCount + 1u) + pbd_BodyInts(3u * (size_t)triangleCount);
}

int pbd_Surface_CheckInput(const float* v, int32_t nv, const uint32_t* idx, int32_t nt, pbdBodyError* err)
{
	if (nv < 4 || nv > PBD_BODY_MAX_VERTICES) {
		return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "a surface needs 4 to %d vertices, got %d", PBD_BODY_MAX_VERTICES, nv);
	}
	if (nt < 4 || nt > PBD_BODY_MAX_TRIANGLES) {
		return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "a surface needs 4 to %d triangles, got %d", PBD_BODY_MAX_TRIANGLES, nt);
	}
	if (v == NULL || idx == NULL) return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "surface vertices or indices are NULL");
	for (int32_t i = 0; i < nv; ++i) {
		for (int a = 0; a < 3; ++a) {
			const float c = v[3 * i + a];
			if (!pbd_IsFinite(c)) return pbd_BodyFail(err, PBD_ERR_NOT_FINITE, "surface vertex %d is not finite", i);
			if (!pbd_IsCoord(c)) {
				return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "surface vertex %d lies beyond +-%g", i, (double)PBD_COORD_LIMIT);
			}
		}
	}
	for (int32_t t = 0; t < nt; ++t) {
		const uint32_t* tri = idx + 3 * t;
		for (int e = 0; e < 3; ++e) {
			if (tri[e] >= (uint32_t)nv) {
				return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "triangle %d has vertex index %u, out of range (%d vertices)", t,
									tri[e], nv);
			}
		}
	}
	return PBD_OK;
}

double pbd_Surface_Volume(const float* v, const uint32_t* idx, int32_t nt)
{
	double volume = 0.0;
	for (int32_t t = 0; t < nt; ++t) {
		const float *a = v + 3 * idx[3 * t], *b = v + 3 * idx[3 * t + 1], *c = v + 3 * idx[3 * t + 2];
		volume += ((double)a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) + (double)a[1] * ((double)b[2] * c[0] - (double)b[0] * c[2]) +
				   (double)a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) /
				  6.0;
	}
	return volume;
}

/* Closed and consistently oriented: every directed edge run once, and once the other way. */
static int CheckTopology(int32_t nv, const uint32_t* idx, int32_t nt, void* mem, size_t memBytes, pbdBodyError* err)
{
	if (mem == NULL || memBytes < pbd_Surface_CheckBytes(nv, nt)) {
		return pbd_BodyFail(err, PBD_ERR_OUT_OF_MEMORY, "%lu bytes to check a surface of %d triangles",
							(unsigned long)pbd_Surface_CheckBytes(nv, nt), nt);
	}
	int32_t* start = mem;
	int32_t* list = (int32_t*)((uint8_t*)mem + pbd_BodyInts((size_t)nv + 1u));
	memset(start, 0, ((size_t)nv + 1u) * sizeof(int32_t));
	for (int32_t i = 0; i < 3 * nt; ++i) start[idx[i] + 1] += 1;
	for (int32_t i = 0; i < nv; ++i) start[i + 1] += start[i];
	for (int32_t t = 0; t < nt; ++t) {
		for (int e = 0; e < 3; ++e) list[start[idx[3 * t + e]]++] = t; /* start[i] moves to the end of i's list */
	}
	for (int32_t i = nv; i > 0; --i) start[i] = start[i - 1]; /* back to the beginnings */
	start[0] = 0;
	/* Every directed edge a -> b of a closed, consistently oriented surface is run by exactly one
	   triangle (itself), and b -> a by exactly one other. Both are among a's triangles. */
	for (int32_t t = 0; t < nt; ++t) {
		for (int e = 0; e < 3; ++e) {
			const uint32_t a = idx[3 * t + e], b = idx[3 * t + (e + 1) % 3];
			int32_t same = 0, opposite = 0, other = -1;
			for (int32_t s = start[a]; s < start[a + 1]; ++s) {
				const uint32_t* tri = idx + 3 * list[s];
				for (int f = 0; f < 3; ++f) {
					if (tri[f] != a) continue;
					if (tri[(f + 1) % 3] == b) {
						same += 1;
						if (list[s] != t) other = list[s];
					}
					if (tri[(f + 2) % 3] == b) opposite += 1;
				}
			}
			if (same > 1 || opposite > 1) {
				if (same > 1 && opposite <= 1) {
					return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT,
										"inconsistent orientation: triangles %d and %d both run edge %u-%u the same way (one is flipped)",
										t, other, a, b);
				}
				return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "edge %u-%u is shared by more than two triangles", a, b);
			}
			if (opposite == 0) {
				return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "the surface is open: edge %u-%u of triangle %d has no triangle across it",
									a, b, t);
			}
		}
	}
	return PBD_OK;
}

/* A closed surface's volume: positive (counter-clockwise seen from outside). */
static int CheckVolume(const float* v, const uint32_t* idx, int32_t nt, pbdBodyError* err)
{
	const double volume = pbd_Surface_Volume(v, idx, nt);
	if (volume < 0.0) {
		return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT,
							"the surface is inside out (its volume is %g: triangles must wind counter-clockwise seen from outside)", volume);
	}
	if (!(volume > 0.0)) return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "the surface encloses no volume");
	return PBD_OK;
}

int pbd_Surface_CheckClosed(const float* v, int32_t nv, const uint32_t* idx, int32_t nt, void* mem, size_t memBytes,
							pbdBodyError* err)
{
	const int rc = CheckTopology(nv, idx, nt, mem, memBytes, err);
	return rc != PBD_OK ? rc : CheckVolume(v, idx, nt, err);
}

/* ---------------------------------------------------------------- inside test */

/* Edge function of the ray point p against edge (a, b) in the (y, z) plane, computed with the
   lower vertex index first, so the two triangles of a shared edge get exactly opposite values
   and a ray through the edge is counted by one of them (or, at a silhouette, by both or neither:
   the parity is right either way). */
static double EdgeFn(const float* v, uint32_t ia, uint32_t ib, const double p[2])
{
	const uint32_t lo = ia < ib ? ia : ib, hi = ia < ib ? ib : ia;
	const float *a = v + 3 * lo, *b = v + 3 * hi;
	const double e = ((double)b[1] - a[1]) * (p[1] - a[2]) - ((double)b[2] - a[2]) * (p[0] - a[1]);
	return ia < ib ? e : -e;
}

/* Tie rule for a ray exactly on an edge: the edge a -> b counts as holding it when it points
   "up" in (y, z) lexicographic order (the top-left rule of rasterisers): the sign its edge
   function takes once the ray is nudged by (-e^2, e), e -> 0+. */
static int EdgeHolds(const float* v, uint32_t ia, uint32_t ib)
{
	const float *a = v + 3 * ia, *b = v + 3 * ib;
	return b[1] > a[1] || (b[1] == a[1] && b[2] > a[2]);
}

/* Where the ray (y, z) = p along x crosses triangle t, or 0 when it misses. */
static int Crossing(const float* v, const uint32_t* tri, const double p[2], double* x, int* sign)
{
	double e[3];
	int pos = 1, neg = 1;
	for (int k = 0; k < 3; ++k) {
		const uint32_t a = tri[k], b = tri[(k + 1) % 3];
		e[k] = EdgeFn(v, a, b, p);
		const int holds = EdgeHolds(v, a, b);
		pos &= e[k] > 0.0 || (e[k] == 0.0 && holds);
		neg &= e[k] < 0.0 || (e[k] == 0.0 && !holds);
	}
	if (!pos && !neg) return 0;
	/* barycentric weight of vertex k: the edge function of the edge opposite it */
	const double s = e[0] + e[1] + e[2];
	if (s == 0.0) return 0;
	*x = (e[1] * v[3 * tri[0]] + e[2] * v[3 * tri[1]] + e[0] * v[3 * tri[2]]) / s;
	*sign = s > 0.0 ? -1 : 1; /* the triangle's facing along x: +1 where the ray enters an outward-wound surface */
	return 1;
}

/* Prefix XOR of the bits: bit i becomes the XOR of bits 0..i. */
static uint64_t PrefixXor(uint64_t x)
{
	for (int s = 1; s < 64; s <<= 1) x ^= x << s;
	return x;
}

/* The rows' crossings of FillLattice and FillCount: for each triangle, each row ray (j, k) its (y, z) bounds cover
   that it crosses (Crossing: the tie rule of the nudged ray), the first cell i whose centre lies right of the
   crossing, and the crossing's sign, given to `visit`. */
typedef void (*pbdCrossingVisit)(void* ctx, int32_t j, int32_t k, int32_t i, int sign);
static void RowCrossings(const pbdLattice* lat, const float* v, const uint32_t* idx, int32_t nt, pbdCrossingVisit visit,
						 void* ctx)
{
	const double oy = (double)lat->origin[1] + 0.5 * lat->spacing[1], oz = (double)lat->origin[2] + 0.5 * lat->spacing[2];
	const double sy = lat->spacing[1], sz = lat->spacing[2];
	for (int32_t t = 0; t < nt; ++t) {
		const uint32_t* tri = idx + 3 * t;
		double y0 = v[3 * tri[0] + 1], y1 = y0, z0 = v[3 * tri[0] + 2], z1 = z0;
		for (int k = 1; k < 3; ++k) {
			const double y = v[3 * tri[k] + 1], z = v[3 * tri[k] + 2];
			y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
			z0 = z < z0 ? z : z0, z1 = z > z1 ? z : z1;
		}
		/* rows whose ray (oy + j sy, oz + k sz) lies within the triangle's bounds */
		const double jl = (y0 - oy) / sy, jh = (y1 - oy) / sy, kl = (z0 - oz) / sz, kh = (z1 - oz) / sz;
		if (jh < 0.0 || kh < 0.0 || jl > lat->n[1] || kl > lat->n[2]) continue;
		const int32_t j0 = jl < 0.0 ? 0 : (int32_t)jl, k0 = kl < 0.0 ? 0 : (int32_t)kl;
		const int32_t j1 = jh >= lat->n[1] ? lat->n[1] - 1 : (int32_t)jh, k1 = kh >= lat->n[2] ? lat->n[2] - 1 : (int32_t)kh;
		for (int32_t k = k0; k <= k1; ++k) {
			for (int32_t j = j0; j <= j1; ++j) {
				const double p[2] = { oy + j * sy, oz + k * sz };
				double x;
				int sign;
				if (!Crossing(v, tri, p, &x, &sign)) continue;
				/* the first cell whose centre lies right of x: i > (x - ox) / sx - 0.5 */
				double f = (x - lat->origin[0]) / lat->spacing[0] - 0.5;
				if (f >= lat->n[0]) continue;
				const int32_t i = f < 0.0 ? 0 : (int32_t)f + 1; /* floor(f) + 1, at least 0 */
				visit(ctx, j, k, i, sign);
			}
		}
	}
}

static void FlipCell(void* ctx, int32_t j, int32_t k, int32_t i, int sign)
{
	(void)sign;
	pbdLattice* lat = ctx;
	lat->cell[j + PBD_LATTICE_MAX * k] ^= 1ull << i;
}

/* Ray parity: one ray along x per row (j, k) of cells, through the row's cell
   centres; a cell is inside when an odd number of crossings lie left of its centre. A ray that
   meets an edge or a vertex exactly is resolved by the tie rule of EdgeFn and EdgeHolds, which
   is the same as nudging the ray by a fixed, infinitely small offset (-e^2, e) in (y, z)
   ("simulation of simplicity"): a vertex or shared edge is counted by exactly the triangles the
   nudged ray would cross, so the parity stays right without moving the ray by a finite amount
   (which would misjudge centres that close to the surface). Instead of sorting a row's
   crossings, each crossing flips the bit of the first cell right of it and a prefix XOR along
   the row turns flips into parities: no memory beyond the mask, and each triangle visits only
   the rows its (y, z) bounds cover. The engine fills a closed surface with FillCount (the same crossings, counted
   by sign); this parity form is the reference the lattice and surface tests build with. */
void pbd_Surface_FillLattice(pbdLattice* lat, const float* v, const uint32_t* idx, int32_t nt)
{
	memset(lat->cell, 0, sizeof lat->cell);
	RowCrossings(lat, v, idx, nt, FlipCell, lat);
	const uint64_t row = (1ull << lat->n[0]) - 1u;
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) {
			uint64_t* r = &lat->cell[j + PBD_LATTICE_MAX * k];
			*r = PrefixXor(*r) & row;
		}
	}
}

/* ---------------------------------------------------------------- any surface */

/* No area: a repeated vertex, or twice the area below 1e-12 of the model's squared size (a
   sliver, or three points on a line). Such a triangle adds nothing to a winding number or a
   volume, and it is no face of the body, so it is left out rather than refused: scanned and
   exported models often carry a few. */
static int Degenerate(const float* v, const uint32_t* tri, double minArea2)
{
	if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) return 1;
	const float *a = v + 3 * tri[0], *b = v + 3 * tri[1], *c = v + 3 * tri[2];
	const double e1[3] = { (double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2] };
	const double e2[3] = { (double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2] };
	const double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
	return !(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > minArea2 * minArea2);
}

/* Bytes of the crossing counts pbd_Surface_Fill keeps for a closed surface: a 16-bit delta per cell
   (and one past each row's end) of the largest lattice. */
static size_t CountBytes(void) { return ((size_t)(PBD_LATTICE_MAX + 1) * PBD_LATTICE_CELL_ROWS * sizeof(int16_t) + 7u) & ~(size_t)7u; }

size_t pbd_Surface_Bytes(int32_t vertexCount, int32_t triangleCount)
{
	const size_t check = pbd_Surface_CheckBytes(vertexCount, triangleCount), tree = pbd_Winding_Bytes(triangleCount);
	size_t rest = check > tree ? check : tree;
	rest = rest > CountBytes() ? rest : CountBytes();
	return pbd_BodyInts(3u * (size_t)triangleCount) + rest;
}

int pbd_Surface_Prepare(pbdSurface* s, const float* v, int32_t nv, const uint32_t* idx, int32_t nt, void* mem, size_t memBytes,
						pbdBodyError* err)
{
	memset(s, 0, sizeof *s);
	if (mem == NULL || memBytes < pbd_Surface_Bytes(nv, nt)) {
		return pbd_BodyFail(err, PBD_ERR_OUT_OF_MEMORY, "%lu bytes to check a surface of %d triangles",
							(unsigned long)pbd_Surface_Bytes(nv, nt), nt);
	}
	float lo[3], hi[3];
	for (int a = 0; a < 3; ++a) lo[a] = hi[a] = v[a];
	for (int32_t i = 1; i < nv; ++i) {
		for (int a = 0; a < 3; ++a) {
			lo[a] = v[3 * i + a] < lo[a] ? v[3 * i + a] : lo[a];
			hi[a] = v[3 * i + a] > hi[a] ? v[3 * i + a] : hi[a];
		}
	}
	double size = 0.0;
	for (int a = 0; a < 3; ++a) size = (double)hi[a] - lo[a] > size ? (double)hi[a] - lo[a] : size;
	const double minArea2 = 1e-12 * size * size;
	uint32_t* kept = mem;
	int32_t n = 0;
	for (int32_t t = 0; t < nt; ++t) {
		if (Degenerate(v, idx + 3 * t, minArea2)) continue;
		memcpy(kept + 3 * n, idx + 3 * t, 3 * sizeof(uint32_t));
		n += 1;
	}
	s->v = v;
	s->idx = kept;
	s->triangleCount = n;
	s->skipped = nt - n;
	if (n == 0) return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "every triangle of the surface is degenerate (no area): nothing is left");
	void* rest = (uint8_t*)mem + pbd_BodyInts(3u * (size_t)nt);
	const size_t restBytes = memBytes - pbd_BodyInts(3u * (size_t)nt);
	pbdBodyError topology;
	if (CheckTopology(nv, kept, n, rest, restBytes, &topology) == PBD_OK) {
		/* closed and consistently oriented: exact ray crossings, after its volume's sign; the
		   counts in the memory the adjacency had */
		s->closed = 1;
		s->counts = rest;
		return CheckVolume(v, kept, n, err);
	}
	/* open, non-manifold or inconsistently wound: the winding number, its tree in the same memory */
	s->closed = 0;
	pbd_Winding_Build(&s->tree, rest, v, kept, n);
	return PBD_OK;
}

/* The winding number at the centres of row (j, k) of cells; kept where w >= 0.5 (Jacobson et al. 2013 sec. 3). */
void pbd_Surface_FillWindingRow(const pbdSurface* s, pbdLattice* lat, int32_t j, int32_t k)
{
	uint64_t row = 0;
	for (int32_t i = 0; i < lat->n[0]; ++i) {
		const double q[3] = { (double)lat->origin[0] + (i + 0.5) * lat->spacing[0], (double)lat->origin[1] + (j + 0.5) * lat->spacing[1],
							  (double)lat->origin[2] + (k + 0.5) * lat->spacing[2] };
		if (pbd_Winding_Inside(&s->tree, q)) row |= 1ull << i;
	}
	lat->cell[j + PBD_LATTICE_MAX * k] = row;
}

/* Every row: the winding number at every cell centre. */
static void FillWinding(pbdLattice* lat, const pbdSurface* s)
{
	memset(lat->cell, 0, sizeof lat->cell);
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) pbd_Surface_FillWindingRow(s, lat, j, k);
	}
}

/* FillCount's visit: the crossing's sign into the first cell right of it, saturated (a cell's count stays within the
   surface's layers; rather than wrap on absurd input). */
#define COUNT_STRIDE (PBD_LATTICE_MAX + 1)
static void AddCrossing(void* ctx, int32_t j, int32_t k, int32_t i, int sign)
{
	int16_t* d = (int16_t*)ctx + (size_t)(j + PBD_LATTICE_MAX * k) * COUNT_STRIDE + i;
	const int32_t next = *d + sign;
	*d = (int16_t)(next > 32767 ? 32767 : next < -32767 ? -32767 : next);
}

/* The same rays, tie rules and crossings as pbd_Surface_FillLattice, each crossing counted +1 where
   the ray enters (the triangle faces -x) and -1 where it leaves: a prefix sum along the row is then
   the winding number of the nudged ray's cell centre, exactly. A closed, oriented surface that does
   not cross itself gives 0 or 1, the parity (the same cells as FillLattice); two closed parts
   through each other give 2 where they overlap, which parity would have left out. Kept: >= 1. */
static void FillCount(pbdLattice* lat, const float* v, const uint32_t* idx, int32_t nt, int16_t* delta)
{
	const int32_t stride = COUNT_STRIDE;
	memset(delta, 0, CountBytes());
	RowCrossings(lat, v, idx, nt, AddCrossing, delta);
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) {
			const int16_t* d = &delta[(size_t)(j + PBD_LATTICE_MAX * k) * stride];
			int32_t w = 0;
			uint64_t row = 0;
			for (int32_t i = 0; i < lat->n[0]; ++i) {
				w += d[i];
				if (w >= 1) row |= 1ull << i;
			}
			lat->cell[j + PBD_LATTICE_MAX * k] = row;
		}
	}
}

void pbd_Surface_Fill(const pbdSurface* s, pbdLattice* lat)
{
	if (s->closed) FillCount(lat, s->v, s->idx, s->triangleCount, s->counts);
	else FillWinding(lat, s);
}
