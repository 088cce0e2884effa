/* families/volume_solve.c -- the volume family's kernels: the signed tet volume constraint
   C = V - V0 of seed 001 (soft bodies), projected with seed 000's mass-weighted formula (2.2)
       dp_i = -k' w_i C / sum_j w_j |grad_j C|^2 grad_i C.
   With e_k = x_k - x0, V = e1 . (e2 x e3) / 6 and its gradients are
       grad_1 = e2 x e3 / 6, grad_2 = e3 x e1 / 6, grad_3 = e1 x e2 / 6, grad_0 = -(grad_1 + grad_2 + grad_3).
   The kernels keep six times everything (V6 = 6 V, G_i = 6 grad_i V), which leaves the step
       dp_i = -k' (V6 - 6 V0) w_i G_i / sum_j w_j |G_j|^2
   with no 1/6 in it. C is signed, so an inverted tet (V < 0) is pushed back through its flat
   state to positive volume rather than toward -V0 (an unsigned |V| - V0 has a second, inverted
   rest state it can stay stuck in). A tet whose weighted gradients have all but vanished
   (volume_state.h PBD_VOLUME_DEGENERATE) moves by 0 that pass.

   Every path does exactly this arithmetic in this order: the 4-wide kernel gathers four tets of
   one colour (no shared particle) into lanes, one 4x4 transpose per vertex slot, computes, and
   scatters with the inverse transposes; the plain loop does each lane's operations on floats.
   A skipped tet still adds s w_i G_i with s = +0 in both, so a -0 coordinate turns +0 alike. */
#include "families/volume_state.h"
#include "base/simd.h"

#include <math.h>


/* The gradients of a tet's 6 V at its corners b, c, d (G_1 = e2 x e3 and cyclic, e_k = x_k - x_a; G_a is minus
   their sum) into g[0..2], and 6 V = e1 . G_1: one expression order for every kernel, so they agree bit for bit. */
static inline float TetGradients(const float* a, const float* b, const float* c, const float* d, float g[3][3])
{
	const float e1x = b[0] - a[0], e1y = b[1] - a[1], e1z = b[2] - a[2];
	const float e2x = c[0] - a[0], e2y = c[1] - a[1], e2z = c[2] - a[2];
	const float e3x = d[0] - a[0], e3y = d[1] - a[1], e3z = d[2] - a[2];
	g[0][0] = e2y * e3z - e2z * e3y, g[0][1] = e2z * e3x - e2x * e3z, g[0][2] = e2x * e3y - e2y * e3x;
	g[1][0] = e3y * e1z - e3z * e1y, g[1][1] = e3z * e1x - e3x * e1z, g[1][2] = e3x * e1y - e3y * e1x;
	g[2][0] = e1y * e2z - e1z * e2y, g[2][1] = e1z * e2x - e1x * e2z, g[2][2] = e1x * e2y - e1y * e2x;
	return (e1x * g[0][0] + e1y * g[0][1]) + e1z * g[0][2];
}

float pbd_Volume_Six(const float* x, const int32_t* tet, float* gradients)
{
	float g[3][3];
	const float V6 = TetGradients(x + 4 * tet[0], x + 4 * tet[1], x + 4 * tet[2], x + 4 * tet[3], g);
	if (gradients != NULL) {
		const float g1x = g[0][0], g1y = g[0][1], g1z = g[0][2], g2x = g[1][0], g2y = g[1][1], g2z = g[1][2];
		const float g3x = g[2][0], g3y = g[2][1], g3z = g[2][2];
		const float g0x = 0.0f - ((g1x + g2x) + g3x), g0y = 0.0f - ((g1y + g2y) + g3y), g0z = 0.0f - ((g1z + g2z) + g3z);
		const float n0 = (g0x * g0x + g0y * g0y) + g0z * g0z, n1 = (g1x * g1x + g1y * g1y) + g1z * g1z;
		const float n2 = (g2x * g2x + g2y * g2y) + g2z * g2z, n3 = (g3x * g3x + g3y * g3y) + g3z * g3z;
		*gradients = (((n0 + n1) + n2) + n3) * 0.25f;
	}
	return V6;
}

/* One tet, in the lanes' order of operations (ProjectTets4). */
static inline void ProjectTet(float* p, const int32_t* tet, float rest6, float degenerate, float k)
{
	float *q0 = p + 4 * tet[0], *q1 = p + 4 * tet[1], *q2 = p + 4 * tet[2], *q3 = p + 4 * tet[3];
	const float e1x = q1[0] - q0[0], e1y = q1[1] - q0[1], e1z = q1[2] - q0[2];
	const float e2x = q2[0] - q0[0], e2y = q2[1] - q0[1], e2z = q2[2] - q0[2];
	const float e3x = q3[0] - q0[0], e3y = q3[1] - q0[1], e3z = q3[2] - q0[2];
	const float g1x = e2y * e3z - e2z * e3y, g1y = e2z * e3x - e2x * e3z, g1z = e2x * e3y - e2y * e3x;
	const float g2x = e3y * e1z - e3z * e1y, g2y = e3z * e1x - e3x * e1z, g2z = e3x * e1y - e3y * e1x;
	const float g3x = e1y * e2z - e1z * e2y, g3y = e1z * e2x - e1x * e2z, g3z = e1x * e2y - e1y * e2x;
	const float g0x = 0.0f - ((g1x + g2x) + g3x), g0y = 0.0f - ((g1y + g2y) + g3y), g0z = 0.0f - ((g1z + g2z) + g3z);
	const float vol6 = (e1x * g1x + e1y * g1y) + e1z * g1z;
	const float n0 = (g0x * g0x + g0y * g0y) + g0z * g0z, n1 = (g1x * g1x + g1y * g1y) + g1z * g1z;
	const float n2 = (g2x * g2x + g2y * g2y) + g2z * g2z, n3 = (g3x * g3x + g3y * g3y) + g3z * g3z;
	const float w0 = q0[3], w1 = q1[3], w2 = q2[3], w3 = q3[3];
	const float den = ((w0 * n0 + w1 * n1) + w2 * n2) + w3 * n3;
	const float weights = ((w0 + w1) + w2) + w3;
	const float s = den > degenerate * weights ? k * (vol6 - rest6) / den : 0.0f;
	const float s0 = s * w0, s1 = s * w1, s2 = s * w2, s3 = s * w3;
	q0[0] = q0[0] - s0 * g0x, q0[1] = q0[1] - s0 * g0y, q0[2] = q0[2] - s0 * g0z;
	q1[0] = q1[0] - s1 * g1x, q1[1] = q1[1] - s1 * g1y, q1[2] = q1[2] - s1 * g1z;
	q2[0] = q2[0] - s2 * g2x, q2[1] = q2[1] - s2 * g2y, q2[2] = q2[2] - s2 * g2z;
	q3[0] = q3[0] - s3 * g3x, q3[1] = q3[1] - s3 * g3y, q3[2] = q3[2] - s3 * g3z;
}

void pbd_Volume_GuardRange(const pbdVolume* v, float* p, int32_t from, int32_t end, float floor)
{
	for (int32_t t = from; t < end; ++t) {
		const int32_t* tet = v->tets + 4 * t;
		const float least = floor * v->rest6[t];
		if (pbd_Volume_Six(p, tet, NULL) < least) ProjectTet(p, tet, least, v->degenerate[t], 1.0f);
	}
}

void pbd_Volume_SolveRange(const pbdVolume* v, float* p, int32_t from, int32_t end, float k)
{
	for (int32_t t = from; t < end; ++t) ProjectTet(p, v->tets + 4 * t, v->rest6[t], v->degenerate[t], k);
}

#if PBD_SIMD
/* a x b lane by lane, component arrays in and out, as ProjectTet writes it */
#define PBD_CROSS(ox, oy, oz, ax, ay, az, bx, by, bz)                   \
	const pbdF4 ox = pbdF4_Sub(pbdF4_Mul(ay, bz), pbdF4_Mul(az, by));   \
	const pbdF4 oy = pbdF4_Sub(pbdF4_Mul(az, bx), pbdF4_Mul(ax, bz));   \
	const pbdF4 oz = pbdF4_Sub(pbdF4_Mul(ax, by), pbdF4_Mul(ay, bx))
/* (x x + y y) + z z */
#define PBD_DOT(ax, ay, az, bx, by, bz) pbdF4_Add(pbdF4_Add(pbdF4_Mul(ax, bx), pbdF4_Mul(ay, by)), pbdF4_Mul(az, bz))

/* Four tets of one colour, tets t .. t + 3. Vertex slot m of the four gathers into (X_m, Y_m,
   Z_m, W_m) by one transpose, W_m being the four weights (p.w = w). */
static inline void ProjectTets4(float* p, const int32_t* tets, pbdF4 rest6, pbdF4 degenerate, pbdF4 kv)
{
	float* q[4][4]; /* q[m][lane] */
	for (int lane = 0; lane < 4; ++lane) {
		for (int m = 0; m < 4; ++m) q[m][lane] = p + 4 * tets[4 * lane + m];
	}
	pbdF4 X[4], Y[4], Z[4], W[4];
	for (int m = 0; m < 4; ++m) {
		X[m] = pbdF4_Load(q[m][0]), Y[m] = pbdF4_Load(q[m][1]), Z[m] = pbdF4_Load(q[m][2]), W[m] = pbdF4_Load(q[m][3]);
		pbdF4_Transpose(&X[m], &Y[m], &Z[m], &W[m]);
	}
	const pbdF4 zero = pbdF4_Splat(0.0f);
	const pbdF4 e1x = pbdF4_Sub(X[1], X[0]), e1y = pbdF4_Sub(Y[1], Y[0]), e1z = pbdF4_Sub(Z[1], Z[0]);
	const pbdF4 e2x = pbdF4_Sub(X[2], X[0]), e2y = pbdF4_Sub(Y[2], Y[0]), e2z = pbdF4_Sub(Z[2], Z[0]);
	const pbdF4 e3x = pbdF4_Sub(X[3], X[0]), e3y = pbdF4_Sub(Y[3], Y[0]), e3z = pbdF4_Sub(Z[3], Z[0]);
	PBD_CROSS(g1x, g1y, g1z, e2x, e2y, e2z, e3x, e3y, e3z);
	PBD_CROSS(g2x, g2y, g2z, e3x, e3y, e3z, e1x, e1y, e1z);
	PBD_CROSS(g3x, g3y, g3z, e1x, e1y, e1z, e2x, e2y, e2z);
	const pbdF4 g0x = pbdF4_Sub(zero, pbdF4_Add(pbdF4_Add(g1x, g2x), g3x));
	const pbdF4 g0y = pbdF4_Sub(zero, pbdF4_Add(pbdF4_Add(g1y, g2y), g3y));
	const pbdF4 g0z = pbdF4_Sub(zero, pbdF4_Add(pbdF4_Add(g1z, g2z), g3z));
	const pbdF4 vol6 = PBD_DOT(e1x, e1y, e1z, g1x, g1y, g1z);
	const pbdF4 n0 = PBD_DOT(g0x, g0y, g0z, g0x, g0y, g0z), n1 = PBD_DOT(g1x, g1y, g1z, g1x, g1y, g1z);
	const pbdF4 n2 = PBD_DOT(g2x, g2y, g2z, g2x, g2y, g2z), n3 = PBD_DOT(g3x, g3y, g3z, g3x, g3y, g3z);
	const pbdF4 den = pbdF4_Add(pbdF4_Add(pbdF4_Add(pbdF4_Mul(W[0], n0), pbdF4_Mul(W[1], n1)), pbdF4_Mul(W[2], n2)),
								pbdF4_Mul(W[3], n3));
	const pbdF4 weights = pbdF4_Add(pbdF4_Add(pbdF4_Add(W[0], W[1]), W[2]), W[3]);
	const pbdMask4 live = pbdF4_Greater(den, pbdF4_Mul(degenerate, weights));
	const pbdF4 s = pbdF4_Keep(live, pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(vol6, rest6)), den));
	const pbdF4 gx[4] = { g0x, g1x, g2x, g3x }, gy[4] = { g0y, g1y, g2y, g3y }, gz[4] = { g0z, g1z, g2z, g3z };
	for (int m = 0; m < 4; ++m) {
		const pbdF4 sm = pbdF4_Mul(s, W[m]);
		X[m] = pbdF4_Sub(X[m], pbdF4_Mul(sm, gx[m]));
		Y[m] = pbdF4_Sub(Y[m], pbdF4_Mul(sm, gy[m]));
		Z[m] = pbdF4_Sub(Z[m], pbdF4_Mul(sm, gz[m]));
		pbdF4_Transpose(&X[m], &Y[m], &Z[m], &W[m]); /* back to particles; w comes back as it was */
		pbdF4_Store(q[m][0], X[m]), pbdF4_Store(q[m][1], Y[m]), pbdF4_Store(q[m][2], Z[m]), pbdF4_Store(q[m][3], W[m]);
	}
}
#undef PBD_CROSS
#undef PBD_DOT
#endif

/* A colour's tets share no particle, so the four lanes are independent and any split of the
   range gives the same bits. Without SIMD (-DPBD_SCALAR=1) the plain loop: the same bits at a
   plain loop's speed rather than the lanes emulated one by one (as the distance family). */
void pbd_Volume_SolveColour4(const pbdVolume* v, float* p, int32_t from, int32_t end, float k)
{
	int32_t t = from;
#if PBD_SIMD
	const pbdF4 kv = pbdF4_Splat(k);
	for (; t + 4 <= end; t += 4) {
		ProjectTets4(p, v->tets + 4 * t, pbdF4_Load(v->rest6 + t), pbdF4_Load(v->degenerate + t), kv);
	}
#endif
	pbd_Volume_SolveRange(v, p, t, end, k);
}

/* ---------------------------------------------------------------- cells

   A lattice body's volume, cell by cell (volume.c says why): C = V_cell - V0_cell with V_cell the sum
   of the cell's 6 Kuhn tets, so grad_i C is the sum of the tets' gradients at corner i and seed 000's
   projection is dp_i = -k (V6 - rest6) w_i G_i / sum_j w_j |G_j|^2 over the 8 corners.

   The walls. A corner the walls unit found in a wall is held: the cell reads it where the wall will put
   it (the colliders and the ground come later in the pass, and measure their friction by how deep they
   find it, so it is left where it is), and moves it along the wall only (its G without the component
   along the wall's normal); the wall's friction then says whether it slides. A free corner that a
   projection takes past one of its walls' planes is put back on it, so the sweeps find a volume the
   walls leave the body. Plain floats in a fixed order: every build gives the same bits, and a colour's
   cells share no particle, so any split of its range too. */

/* The corners around the cell's diagonal 0 -> 7, in order: the 6 Kuhn tets (pbd_VolumeKuhn) are (0, a, b, 7) for each
   pair (a, b) of neighbours on this ring, each oriented as e_a . (e_b x d) with e_k = x_k - x_0 and d = x_7 - x_0. */
static const int32_t s_ring[8] = { 5, 1, 3, 2, 6, 4, 5, 1 }; /* s_ring[i + 1] is ring corner i, wrapped both ways */

/* Loops over the ring stay loops in wasm: unrolled, this file was 54 bytes more gzip (the element's weight). */
#ifdef __clang__
#define PBD_RING_LOOP _Pragma("clang loop unroll(disable)")
#else
#define PBD_RING_LOOP
#endif

/* 6 V of the cell (the sum of its 6 Kuhn tets' volumes) and the gradients G_k of it at its 8 corners. With the tets
   around the diagonal,
       6 V = sum_i e_i . (e_{i+1} x d) = d . A,   A = sum_i e_i x e_{i+1}   (i around the ring),
   so G_7 = A, G_{ring i} = (e_{i+1} - e_{i-1}) x d = (x_{i+1} - x_{i-1}) x d, and G_0 = -A (the ring's G sum to 0
   around the ring; the 8 to 0: a translation moves no volume). 12 cross products for the 18 of the tets one by one,
   and no sum over them. */
static float CellGradients(const float* q[8], float G[8][3])
{
	const float* o = q[0];
	const float dx = q[7][0] - o[0], dy = q[7][1] - o[1], dz = q[7][2] - o[2];
	float e[7][3]; /* e[6] = e[0] */
	PBD_RING_LOOP
	for (int i = 0; i < 7; ++i) {
		const float* r = q[s_ring[i + 1]];
		e[i][0] = r[0] - o[0], e[i][1] = r[1] - o[1], e[i][2] = r[2] - o[2];
	}
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	PBD_RING_LOOP
	for (int i = 0; i < 6; ++i) {
		const float *a = e[i], *b = e[i + 1];
		ax += a[1] * b[2] - a[2] * b[1], ay += a[2] * b[0] - a[0] * b[2], az += a[0] * b[1] - a[1] * b[0];
	}
	PBD_RING_LOOP
	for (int i = 0; i < 6; ++i) {
		const float *next = q[s_ring[i + 2]], *prev = q[s_ring[i]];
		const float sx = next[0] - prev[0], sy = next[1] - prev[1], sz = next[2] - prev[2];
		float* g = G[s_ring[i + 1]];
		g[0] = sy * dz - sz * dy, g[1] = sz * dx - sx * dz, g[2] = sx * dy - sy * dx;
	}
	G[7][0] = ax, G[7][1] = ay, G[7][2] = az;
	G[0][0] = -ax, G[0][1] = -ay, G[0][2] = -az;
	return (dx * ax + dy * ay) + dz * az;
}

float pbd_Volume_CellSix(const float* x, const int32_t* cell, float* gradients)
{
	const float* q[8];
	for (int m = 0; m < 8; ++m) q[m] = x + 4 * cell[m];
	float G[8][3];
	const float V6 = CellGradients(q, G);
	if (gradients != NULL) {
		float sum = 0.0f;
		for (int m = 0; m < 8; ++m) sum += (G[m][0] * G[m][0] + G[m][1] * G[m][1]) + G[m][2] * G[m][2];
		*gradients = sum * 0.125f;
	}
	return V6;
}

/* Puts r back on the side of each of its two wall planes it has gone past. */
static inline void KeepOut(float* r, const float* plane)
{
	for (int k = 0; k < 2; ++k, plane += 4) {
		const float g = ((plane[0] * r[0] + plane[1] * r[1]) + plane[2] * r[2]) + plane[3];
		if (g < 0.0f) r[0] -= g * plane[0], r[1] -= g * plane[1], r[2] -= g * plane[2];
	}
}

int32_t pbd_Volume_SolveCells(const pbdVolume* v, float* p, int32_t from, int32_t end, float k, int32_t slot, float settled)
{
	int32_t off = 0;
	for (int32_t c = from; c < end; ++c) {
		const int32_t* cell = v->cells + 8 * (size_t)c;
		const float* q[8];
		const float* hold[8];
		float at[8][3];
		for (int m = 0; m < 8; ++m) {
			q[m] = p + 4 * cell[m];
			hold[m] = v->held + 8 * (size_t)(cell[m] + slot);
			if (hold[m][3] != 0.0f) { /* where the wall will put it */
				at[m][0] = q[m][0] + hold[m][0], at[m][1] = q[m][1] + hold[m][1], at[m][2] = q[m][2] + hold[m][2];
				q[m] = at[m];
			}
		}
		float G[8][3];
		const float V6 = CellGradients(q, G);
		float den = 0.0f, weights = 0.0f;
		for (int m = 0; m < 8; ++m) {
			const float* h = hold[m];
			if (h[3] != 0.0f) { /* along the wall only */
				const float d = (G[m][0] * h[4] + G[m][1] * h[5]) + G[m][2] * h[6];
				G[m][0] -= d * h[4], G[m][1] -= d * h[5], G[m][2] -= d * h[6];
			}
			const float wm = p[4 * cell[m] + 3];
			den += wm * ((G[m][0] * G[m][0] + G[m][1] * G[m][1]) + G[m][2] * G[m][2]);
			weights += wm;
		}
		if (!(den > v->cellDegenerate[c] * weights)) continue; /* collapsed toward a plane, or nothing can move */
		const float C6 = V6 - v->cellRest6[c];
		off |= !(fabsf(C6) <= settled * v->cellRest6[c]);
		const float s = k * C6 / den;
		for (int m = 0; m < 8; ++m) {
			float* r = p + 4 * cell[m];
			const float sm = s * r[3];
			r[0] -= sm * G[m][0], r[1] -= sm * G[m][1], r[2] -= sm * G[m][2];
			if (hold[m][3] == 0.0f) KeepOut(r, v->planes + 8 * (size_t)(cell[m] + slot));
		}
	}
	return off;
}

/* Held: how far the walls will push the particle out (the sum over its walls it is in), 1, and the unit
   normal of the wall it is deepest in. */
void pbd_Volume_HoldInWalls(const pbdVolume* v, const float* p, int32_t from, int32_t end, int32_t slot)
{
	for (int32_t i = from; i < end; ++i) {
		const float* r = p + 4 * i;
		const float* plane = v->planes + 8 * (size_t)(i + slot);
		float* h = v->held + 8 * (size_t)(i + slot);
		float deepest = 0.0f;
		for (int k = 0; k < 8; ++k) h[k] = 0.0f;
		for (int k = 0; k < 2; ++k, plane += 4) {
			const float g = ((plane[0] * r[0] + plane[1] * r[1]) + plane[2] * r[2]) + plane[3];
			if (!(g < 0.0f)) continue;
			h[0] -= g * plane[0], h[1] -= g * plane[1], h[2] -= g * plane[2], h[3] = 1.0f;
			if (g < deepest) deepest = g, h[4] = plane[0], h[5] = plane[1], h[6] = plane[2];
		}
	}
}
