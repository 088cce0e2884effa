/* neighbours/grid_cells.h -- the cell hashing that the build (grid.c) and the walk (grid_walk.h) share:
   the walk finds a slot's neighbourhood by hashing its cell exactly as the build bucketed it. Private to
   src/neighbours/. */
#ifndef PBD_GRID_CELLS_H
#define PBD_GRID_CELLS_H

#include "world/core.h"

#include <stddef.h>
#include <stdint.h>

/* The cell is a hair larger than R so that rounding in p * (1 / cell) cannot put two
   particles closer than R more than one cell apart. That holds within ~4000 cells of the
   origin; farther out a pair at nearly R could be missed, a contact (closer than R / 1.2 in
   the contacts family) only beyond ~700k cells, where float positions are already coarser
   than 0.1 of it. */
#define CELL_SLACK 1.0009765625f
#define CELL_LIMIT 1e9f
/* Sorted arrays are padded so that a 4-wide load may run past the last particle. */
#define PAD 4

/// One sorted array: the particles plus the padding, rounded up to a cache line.
static inline size_t pbd_SortedStride(int32_t count) { return ((size_t)count + PAD + 15u) & ~(size_t)15u; }

/// The cell coordinate of v (toward minus infinity), clamped so NaN and huge values stay in range.
static inline int32_t pbd_CellIndex(float v, float inv)
{
	float f = v * inv;
	if (!(f >= -CELL_LIMIT)) f = -CELL_LIMIT; /* also NaN */
	if (f > CELL_LIMIT) f = CELL_LIMIT;
	const int32_t c = (int32_t)f; /* toward zero */
	return c - ((float)c > f);
}

/// The row's part of a cell's bucket (Teschner et al. 2003); x is added to it, so the three cells of a row
/// along x are three consecutive buckets.
static inline uint32_t pbd_CellRowHash(int32_t iy, int32_t iz) { return ((uint32_t)iy * 19349663u) ^ ((uint32_t)iz * 83492791u); }

/// The bucket of cell (ix, iy, iz) in a table of mask + 1 buckets.
static inline uint32_t pbd_CellBucket(int32_t ix, int32_t iy, int32_t iz, uint32_t mask)
{
	return ((uint32_t)ix + pbd_CellRowHash(iy, iz)) & mask;
}

#endif
