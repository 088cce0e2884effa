/* neighbours/triangles.c -- the swept triangles' hashed grid (triangles.h). */
#include "neighbours/triangles.h"
#include "neighbours/grid_cells.h"
#include "base/simd.h"

#include <string.h>

static uint32_t Buckets(int32_t maxTriangles)
{
	uint32_t n = 16;
	while (n < 2u * (uint32_t)(maxTriangles > 0 ? maxTriangles : 1)) n <<= 1;
	return n;
}

size_t pbd_TriangleIndex_ScratchBytes(int32_t maxTriangles)
{
	if (maxTriangles <= 0) return 0;
	const size_t buckets = Buckets(maxTriangles);
	/* per triangle: its box (6 floats), id, cell range (6 int32); the entries; the table */
	return (buckets + 1 + (size_t)PBD_TRIANGLE_ENTRIES * (size_t)maxTriangles + (size_t)maxTriangles * 13) * sizeof(int32_t) + 64;
}

static inline pbdF4 MinF4(pbdF4 a, pbdF4 b) { return pbdF4_Select(pbdF4_Greater(a, b), b, a); }
static inline pbdF4 MaxF4(pbdF4 a, pbdF4 b) { return pbdF4_Select(pbdF4_Greater(b, a), b, a); }

/* The swept box of triangle t from a to b, grown by margin, into box[6] (lo, hi), 4 wide. 0 when it is not within
   +-1e30 (no box: an infinite coordinate would never fit any cell; a NaN one is dropped by the min and max, and the
   continuous test finds no root with it). */
static int SweptBox(const uint32_t* tri, const float* a, const float* b, float margin, float* box)
{
	pbdF4 lo = pbdF4_Load(a + 4 * tri[0]), hi = lo;
	const float* q[5] = { a + 4 * tri[1], a + 4 * tri[2], b + 4 * tri[0], b + 4 * tri[1], b + 4 * tri[2] };
	for (int k = 0; k < 5; ++k) {
		const pbdF4 v = pbdF4_Load(q[k]);
		lo = MinF4(lo, v);
		hi = MaxF4(hi, v);
	}
	const pbdF4 m = pbdF4_Splat(margin);
	float l[4], h[4];
	pbdF4_Store(l, pbdF4_Sub(lo, m));
	pbdF4_Store(h, pbdF4_Add(hi, m));
	for (int k = 0; k < 3; ++k) {
		if (!(l[k] >= -1e30f && h[k] <= 1e30f)) return 0;
		box[k] = l[k], box[3 + k] = h[k];
	}
	return 1;
}

/* Cells of a box at 1 / cell = inv, every one it overlaps, capped so a sum cannot overflow; their range into r[6]
   (x0, y0, z0, x1, y1, z1) when r is not NULL. */
static int64_t BoxCells(const float* box, float inv, int32_t* r)
{
	const int64_t cap = (int64_t)1 << 40;
	int64_t n = 1;
	for (int k = 0; k < 3; ++k) {
		const int32_t lo = pbd_CellIndex(box[k], inv), hi = pbd_CellIndex(box[3 + k], inv);
		if (r != NULL) r[k] = lo, r[3 + k] = hi;
		/* capped as it goes: a box across the world at a fine cell has ~1e8 cells a side, whose cube overflows */
		const int64_t span = (int64_t)hi - (int64_t)lo + 1;
		n = span > cap / n ? cap : n * span;
	}
	return n;
}

/* Whether box[6] (lo, hi) meets [lo, hi]. */
static inline int Meets(const float* box, const float* lo, const float* hi)
{
	return box[3] >= lo[0] && box[0] <= hi[0] && box[4] >= lo[1] && box[1] <= hi[1] && box[5] >= lo[2] && box[2] <= hi[2];
}

int32_t pbd_TriangleIndex_Build(pbdTriangleIndex* index, const uint32_t* triangles, const int32_t* ranges,
								int32_t rangeCount, const float* a, const float* b, float margin, float cell,
								const float* within, int32_t withinCount, void* scratch, size_t scratchBytes)
{
	memset(index, 0, sizeof *index);
	index->triangles = triangles;
	int32_t n = 0;
	for (int32_t r = 0; r < rangeCount; ++r) n += ranges[2 * r + 1];
	if (n <= 0 || !(cell > 0.0f) || pbd_TriangleIndex_ScratchBytes(n) > scratchBytes) return 0;
	/* the boxes and ids first (n at most), then the entries, then the table (sized for the triangles kept) */
	float* boxes = scratch; /* 6 per triangle */
	int32_t* ids = (int32_t*)(boxes + 6 * (size_t)n);
	int32_t* range = ids + n; /* 6 per triangle: its cells x0, y0, z0, x1, y1, z1 at the cell chosen */
	int32_t* entries = range + 6 * (size_t)n;
	/* the boxes, and their box */
	int32_t m = 0;
	for (int k = 0; k < 3; ++k) index->lo[k] = 3.4e38f, index->hi[k] = -3.4e38f;
	for (int32_t r = 0; r < rangeCount; ++r) {
		for (int32_t t = ranges[2 * r]; t < ranges[2 * r] + ranges[2 * r + 1]; ++t) {
			float* box = boxes + 6 * m;
			if (!SweptBox(triangles + 3 * t, a, b, margin, box)) continue;
			if (within != NULL) {
				int32_t k = 0;
				while (k < withinCount && !Meets(box, within + 6 * k, within + 6 * k + 3)) ++k;
				if (k == withinCount) continue;
			}
			for (int k = 0; k < 3; ++k) {
				index->lo[k] = box[k] < index->lo[k] ? box[k] : index->lo[k];
				index->hi[k] = box[3 + k] > index->hi[k] ? box[3 + k] : index->hi[k];
			}
			ids[m++] = t;
		}
	}
	if (m == 0) return 0;
	const uint32_t buckets = Buckets(m);
	int32_t* cellStart = entries + (size_t)PBD_TRIANGLE_ENTRIES * (size_t)n;
	/* the cell: doubled until every triangle's cells fit the entries reserved */
	const int64_t budget = (int64_t)PBD_TRIANGLE_ENTRIES * n; /* the entries reserved: n, however few are kept */
	float inv = 1.0f / cell;
	for (;;) {
		int64_t total = 0;
		for (int32_t e = 0; e < m && total <= budget; ++e) total += BoxCells(boxes + 6 * e, inv, range + 6 * e);
		if (total <= budget) break;
		cell *= 2.0f;
		inv = 1.0f / cell;
	}
	/* a counting sort of the (cell, triangle) entries by bucket, in triangle order */
	memset(cellStart, 0, (buckets + 1) * sizeof(int32_t));
	const uint32_t mask = buckets - 1;
	for (int pass = 0; pass < 2; ++pass) {
		for (int32_t e = 0; e < m; ++e) {
			const int32_t* r = range + 6 * e;
			for (int32_t iz = r[2]; iz <= r[5]; ++iz) {
				for (int32_t iy = r[1]; iy <= r[4]; ++iy) {
					for (int32_t ix = r[0]; ix <= r[3]; ++ix) {
						const uint32_t bucket = pbd_CellBucket(ix, iy, iz, mask);
						if (pass == 0) cellStart[bucket + 1] += 1;
						else entries[cellStart[bucket]++] = e;
					}
				}
			}
		}
		if (pass == 0) {
			for (uint32_t k = 0; k < buckets; ++k) cellStart[k + 1] += cellStart[k];
		} else {
			/* each bucket's start moved to its end: back one bucket */
			for (uint32_t k = buckets; k > 0; --k) cellStart[k] = cellStart[k - 1];
			cellStart[0] = 0;
		}
	}
	index->cellStart = cellStart;
	index->entries = entries;
	index->ids = ids;
	index->boxes = boxes;
	index->mask = mask;
	index->cell = cell;
	index->invCell = inv;
	index->count = m;
	return m;
}

void pbd_TriangleIndex_Query(const pbdTriangleIndex* index, const float lo[3], const float hi[3],
							 int (*visit)(void* data, int32_t triangle), void* data)
{
	if (index->count == 0) return;
	for (int k = 0; k < 3; ++k) {
		if (!(hi[k] >= index->lo[k] && lo[k] <= index->hi[k])) return; /* also NaN */
	}
	/* the box within the index's: cells beyond it hold nothing */
	float box[6];
	for (int k = 0; k < 3; ++k) {
		box[k] = lo[k] > index->lo[k] ? lo[k] : index->lo[k];
		box[3 + k] = hi[k] < index->hi[k] ? hi[k] : index->hi[k];
	}
	const float inv = index->invCell;
	if (BoxCells(box, inv, NULL) > (int64_t)index->mask + 1) {
		/* more cells than buckets (a path across the whole index): every bucket once, in order */
		for (uint32_t bucket = 0; bucket <= index->mask; ++bucket) {
			for (int32_t s = index->cellStart[bucket]; s < index->cellStart[bucket + 1]; ++s) {
				if (Meets(index->boxes + 6 * index->entries[s], lo, hi) && !visit(data, index->ids[index->entries[s]])) return;
			}
		}
		return;
	}
	const int32_t x0 = pbd_CellIndex(box[0], inv), x1 = pbd_CellIndex(box[3], inv);
	const int32_t y0 = pbd_CellIndex(box[1], inv), y1 = pbd_CellIndex(box[4], inv);
	const int32_t z0 = pbd_CellIndex(box[2], inv), z1 = pbd_CellIndex(box[5], inv);
	for (int32_t iz = z0; iz <= z1; ++iz) {
		for (int32_t iy = y0; iy <= y1; ++iy) {
			for (int32_t ix = x0; ix <= x1; ++ix) {
				const uint32_t bucket = pbd_CellBucket(ix, iy, iz, index->mask);
				for (int32_t s = index->cellStart[bucket]; s < index->cellStart[bucket + 1]; ++s) {
					if (Meets(index->boxes + 6 * index->entries[s], lo, hi) && !visit(data, index->ids[index->entries[s]])) return;
				}
			}
		}
	}
}
