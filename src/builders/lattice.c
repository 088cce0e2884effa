/* builders/lattice.c -- the Kuhn-split cubic lattice of soft and rigid bodies (lattice.h). */
#include "builders/lattice.h"
#include "families/volume.h"

#include <string.h>

#define CELL_ROW(j, k) ((j) + PBD_LATTICE_MAX * (k))
#define CORNER_ROW(j, k) ((j) + (PBD_LATTICE_MAX + 1) * (k))

static int32_t Popcount(uint64_t v) { return (int32_t)__builtin_popcountll(v); }

void pbd_Lattice_Init(pbdLattice* lat, const int32_t n[3], const float origin[3], const float spacing[3])
{
	memset(lat, 0, sizeof *lat);
	for (int a = 0; a < 3; ++a) {
		lat->n[a] = n[a] < 1 ? 1 : n[a] > PBD_LATTICE_MAX ? PBD_LATTICE_MAX : n[a];
		lat->origin[a] = origin[a];
		lat->spacing[a] = spacing[a];
	}
}

void pbd_Lattice_Box(pbdLattice* lat)
{
	const uint64_t row = (1ull << lat->n[0]) - 1u;
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) lat->cell[CELL_ROW(j, k)] = row;
	}
}

void pbd_Lattice_Ball(pbdLattice* lat, float radius)
{
	const float r2 = radius * radius;
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		const float z = lat->origin[2] + ((float)k + 0.5f) * lat->spacing[2];
		for (int32_t j = 0; j < lat->n[1]; ++j) {
			const float y = lat->origin[1] + ((float)j + 0.5f) * lat->spacing[1];
			uint64_t row = 0;
			for (int32_t i = 0; i < lat->n[0]; ++i) {
				const float x = lat->origin[0] + ((float)i + 0.5f) * lat->spacing[0];
				if (x * x + y * y + z * z < r2) row |= 1ull << i;
			}
			lat->cell[CELL_ROW(j, k)] = row;
		}
	}
}

/* Row (j, k) of the cell mask, 0 outside the grid. */
static uint64_t CellRow(const pbdLattice* lat, int32_t j, int32_t k)
{
	if (j < 0 || k < 0 || j >= lat->n[1] || k >= lat->n[2]) return 0;
	return lat->cell[CELL_ROW(j, k)];
}

/* The 7 edge directions of the Kuhn split, each (dx, dy, dz) with components 0 or 1: the cube's
   axes, its face diagonals from the face's lowest corner, its main diagonal. */
static const int32_t s_edgeDir[7][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 0 }, { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 } };

/* Bit i set: the edge from corner (i, j, k) along d is an edge of some kept cell. The cells that
   hold it: along an axis where d moves, the cell starting at the corner; where it does not, the
   two cells on either side. */
static uint64_t EdgeRow(const pbdLattice* lat, const int32_t d[3], int32_t j, int32_t k)
{
	uint64_t c = 0;
	for (int32_t dj = d[1] ? 0 : -1; dj <= 0; ++dj) {
		for (int32_t dk = d[2] ? 0 : -1; dk <= 0; ++dk) c |= CellRow(lat, j + dj, k + dk);
	}
	return d[0] ? c : (c | (c << 1));
}

void pbd_Lattice_Finish(pbdLattice* lat)
{
	lat->cellCount = 0;
	for (int32_t r = 0; r < PBD_LATTICE_CELL_ROWS; ++r) lat->cellCount += Popcount(lat->cell[r]);
	int32_t rank = 0;
	for (int32_t k = 0; k <= lat->n[2]; ++k) {
		for (int32_t j = 0; j <= lat->n[1]; ++j) {
			uint64_t m = 0;
			for (int32_t dk = -1; dk <= 0; ++dk) {
				for (int32_t dj = -1; dj <= 0; ++dj) {
					uint64_t c = CellRow(lat, j + dj, k + dk);
					m |= c | (c << 1);
				}
			}
			lat->corner[CORNER_ROW(j, k)] = m;
			lat->cornerRowStart[CORNER_ROW(j, k)] = rank;
			rank += Popcount(m);
		}
	}
	lat->cornerCount = rank;
	lat->edgeCount = 0;
	for (int d = 0; d < 7; ++d) {
		for (int32_t k = 0; k <= lat->n[2]; ++k) {
			for (int32_t j = 0; j <= lat->n[1]; ++j) lat->edgeCount += Popcount(EdgeRow(lat, s_edgeDir[d], j, k));
		}
	}
}

int32_t pbd_Lattice_Corner(const pbdLattice* lat, int32_t i, int32_t j, int32_t k)
{
	if (i < 0 || j < 0 || k < 0 || i > lat->n[0] || j > lat->n[1] || k > lat->n[2]) return -1;
	const uint64_t row = lat->corner[CORNER_ROW(j, k)];
	if (((row >> i) & 1u) == 0) return -1;
	return lat->cornerRowStart[CORNER_ROW(j, k)] + Popcount(row & ((1ull << i) - 1u));
}

void pbd_Lattice_CornerPosition(const pbdLattice* lat, int32_t i, int32_t j, int32_t k, float out[3])
{
	out[0] = lat->origin[0] + (float)i * lat->spacing[0];
	out[1] = lat->origin[1] + (float)j * lat->spacing[1];
	out[2] = lat->origin[2] + (float)k * lat->spacing[2];
}

/* The 8 corner ranks of cell (i, j, k), corner v = x + 2 y + 4 z. */
static void CellCorners(const pbdLattice* lat, int32_t i, int32_t j, int32_t k, int32_t c[8])
{
	for (int v = 0; v < 8; ++v) c[v] = pbd_Lattice_Corner(lat, i + (v & 1), j + ((v >> 1) & 1), k + (v >> 2));
}

/* Each cell's 6 tets, split as the volume family reads them back (families/volume.h pbd_VolumeKuhn). */
void pbd_Lattice_Tets(const pbdLattice* lat, int32_t first, int32_t* out)
{
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) {
			for (uint64_t row = lat->cell[CELL_ROW(j, k)]; row != 0; row &= row - 1u) {
				int32_t c[8];
				CellCorners(lat, __builtin_ctzll(row), j, k, c);
				for (int t = 0; t < 6; ++t) {
					for (int v = 0; v < 4; ++v) out[v] = first + c[pbd_VolumeKuhn[t][v]];
					out += 4;
				}
			}
		}
	}
}

void pbd_Lattice_Edges(const pbdLattice* lat, int32_t first, pbdLatticeEdgeFn edge, void* user)
{
	for (int d = 0; d < 7; ++d) {
		const int32_t* dir = s_edgeDir[d];
		/* the parity of the first coordinate the edge moves along: two edges of one direction and
		   parity never share a corner, so each (direction, parity) is one colour */
		const int axis = dir[0] ? 0 : dir[1] ? 1 : 2;
		for (int parity = 0; parity < 2; ++parity) {
			for (int32_t k = 0; k <= lat->n[2]; ++k) {
				if (axis == 2 && (k & 1) != parity) continue;
				for (int32_t j = 0; j <= lat->n[1]; ++j) {
					if (axis == 1 && (j & 1) != parity) continue;
					uint64_t row = EdgeRow(lat, dir, j, k);
					if (axis == 0) row &= parity ? 0xaaaaaaaaaaaaaaaaull : 0x5555555555555555ull;
					for (; row != 0; row &= row - 1u) {
						const int32_t i = __builtin_ctzll(row);
						edge(user, first + pbd_Lattice_Corner(lat, i, j, k),
							 first + pbd_Lattice_Corner(lat, i + dir[0], j + dir[1], k + dir[2]));
					}
				}
			}
		}
	}
}

int32_t pbd_Lattice_BoundaryFaces(const pbdLattice* lat, pbdLatticeFaceFn face, void* user)
{
	/* The face's axes (u, v) with u x v along +axis: x (y, z), y (z, x), z (x, y). */
	static const int32_t uAxis[3] = { 1, 2, 0 }, vAxis[3] = { 2, 0, 1 };
	int32_t count = 0;
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) {
			for (uint64_t row = lat->cell[CELL_ROW(j, k)]; row != 0; row &= row - 1u) {
				const int32_t i = __builtin_ctzll(row);
				for (int32_t dir = 0; dir < 6; ++dir) {
					const int32_t axis = dir >> 1, plus = dir & 1;
					int32_t nb[3] = { i, j, k };
					nb[axis] += plus ? 1 : -1;
					if (pbd_Lattice_HasCell(lat, nb[0], nb[1], nb[2])) continue;
					int32_t base[3] = { i, j, k };
					base[axis] += plus;
					int32_t q[4]; /* 00, 10, 01, 11 in (u, v) */
					for (int c = 0; c < 4; ++c) {
						int32_t at[3] = { base[0], base[1], base[2] };
						at[uAxis[axis]] += c & 1;
						at[vAxis[axis]] += c >> 1;
						q[c] = pbd_Lattice_Corner(lat, at[0], at[1], at[2]);
					}
					/* split along 00 -> 11, the face diagonal of the tets; wound so the normal is outward */
					const int32_t tri[6] = { q[0], plus ? q[1] : q[3], plus ? q[3] : q[1], q[0], plus ? q[3] : q[2], plus ? q[2] : q[3] };
					count += 1;
					if (face) face(user, dir, base[0], base[1], base[2], tri);
				}
			}
		}
	}
	return count;
}

/* ---------------------------------------------------------------- embedding */

/* Barycentric weights of local coordinates u (in cell units, 0..1 inside) in the cell's Kuhn
   tet that holds them: sort the axes so u_a >= u_b >= u_c; the point is then
   (1 - u_a) x0 + (u_a - u_b) x(e_a) + (u_b - u_c) x(e_a + e_b) + u_c x7. Outside the cell the same
   affine weights extrapolate. Returns the smallest weight. */
static float KuhnWeights(const pbdLattice* lat, const int32_t cell[3], const float u[3], int32_t corners[4], float weights[4])
{
	int32_t a = 0, b = 1, c = 2, t;
	if (u[b] > u[a]) t = a, a = b, b = t;
	if (u[c] > u[b]) t = b, b = c, c = t;
	if (u[b] > u[a]) t = a, a = b, b = t;
	int32_t cc[8];
	CellCorners(lat, cell[0], cell[1], cell[2], cc);
	corners[0] = cc[0];
	corners[1] = cc[1 << a];
	corners[2] = cc[(1 << a) | (1 << b)];
	corners[3] = cc[7];
	weights[0] = 1.0f - u[a];
	weights[1] = u[a] - u[b];
	weights[2] = u[b] - u[c];
	weights[3] = u[c];
	float m = weights[0];
	for (int w = 1; w < 4; ++w) m = weights[w] < m ? weights[w] : m;
	return m;
}

/* The point's coordinates in cell units from the origin, clamped far outside so they convert to int. */
static void CellCoords(const pbdLattice* lat, const float p[3], float t[3], int32_t cell[3])
{
	for (int a = 0; a < 3; ++a) {
		float v = (p[a] - lat->origin[a]) / lat->spacing[a];
		const float hi = (float)(lat->n[a] + 2);
		v = v < -2.0f ? -2.0f : v > hi ? hi : v;
		t[a] = v;
		int32_t c = (int32_t)v;
		if ((float)c > v) c -= 1; /* floor */
		cell[a] = c < 0 ? 0 : c >= lat->n[a] ? lat->n[a] - 1 : c;
	}
}

/* Tries cell c for the point: keeps it in best/corners/weights when its smallest weight is larger. */
static void TryCell(const pbdLattice* lat, const int32_t c[3], const float t[3], float* best, int32_t corners[4], float weights[4])
{
	if (!pbd_Lattice_HasCell(lat, c[0], c[1], c[2])) return;
	const float u[3] = { t[0] - (float)c[0], t[1] - (float)c[1], t[2] - (float)c[2] };
	int32_t cs[4];
	float ws[4];
	const float m = KuhnWeights(lat, c, u, cs, ws);
	if (m > *best) {
		*best = m;
		memcpy(corners, cs, sizeof cs);
		memcpy(weights, ws, sizeof ws);
	}
}

void pbd_Lattice_Embed(const pbdLattice* lat, const float p[3], int32_t corners[4], float weights[4])
{
	float t[3];
	int32_t cell[3];
	CellCoords(lat, p, t, cell);
	float best = -3.4e38f;
	/* the cell that holds it (or, outside the grid, the nearest grid cell) */
	TryCell(lat, cell, t, &best, corners, weights);
	if (best > -3.4e38f) return;
	/* its neighbours: a surface vertex just outside the kept cells */
	for (int32_t dk = -1; dk <= 1; ++dk) {
		for (int32_t dj = -1; dj <= 1; ++dj) {
			for (int32_t di = -1; di <= 1; ++di) {
				const int32_t c[3] = { cell[0] + di, cell[1] + dj, cell[2] + dk };
				TryCell(lat, c, t, &best, corners, weights);
			}
		}
	}
	if (best > -3.4e38f) return;
	/* far from every kept cell (a thin part of a surface): the nearest kept cell's centre, found
	   row by row (in each row the nearest kept cell to the point's column is a bit search), so
	   the cost is bounded by the rows, never by the cells */
	float nearest = 3.4e38f;
	int32_t found[3] = { 0, 0, 0 };
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) {
			const uint64_t row = lat->cell[CELL_ROW(j, k)];
			if (row == 0) continue;
			const float dy = (t[1] - ((float)j + 0.5f)) * lat->spacing[1];
			const float dz = (t[2] - ((float)k + 0.5f)) * lat->spacing[2];
			const uint64_t below = row & ((2ull << cell[0]) - 1u), above = row & ~((1ull << cell[0]) - 1u);
			int32_t candidates[2] = { below ? 63 - __builtin_clzll(below) : -1, above ? __builtin_ctzll(above) : -1 };
			for (int c = 0; c < 2; ++c) {
				if (candidates[c] < 0) continue;
				const float dx = (t[0] - ((float)candidates[c] + 0.5f)) * lat->spacing[0];
				const float d2 = dx * dx + dy * dy + dz * dz;
				if (d2 < nearest) {
					nearest = d2;
					found[0] = candidates[c], found[1] = j, found[2] = k;
				}
			}
		}
	}
	TryCell(lat, found, t, &best, corners, weights);
}
