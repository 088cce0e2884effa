/* bench_kernel_lab.c -- what limits the cloth solve? A lab, not part of `make bench`.

   Replays the solver's distance-constraint projection (src/solver.c Project4) on a
   RES x RES cloth grid of its own (the same stretch, shear and bend constraints, built in
   src/world.c's order and greedy-coloured as src/colouring.c does) and times variants of the
   kernel, in ns per projection, so that a change to src/ can be judged before it is made:

     engine      the engine's kernel before bcast-runs replaced it (the baseline of the ratios):
                 float4 particles (AoS), ca/cb/rest arrays, four 16-byte gathers + a 4x4
                 transpose per side and back, weights from the w lanes
     no-math     the same loads, transposes and stores with the arithmetic replaced by one
                 add: the cost of moving the data alone (the gather/transpose/scatter floor)
     mask-once   the engine's kernel with the skip mask applied once, to the correction
                 factor s, instead of selecting each of the six updated coordinates
     unroll2     the engine's kernel on two batches of 4 per iteration (more independent
                 work in flight for the sqrt/div chain)
     soa-gather  positions as separate x, y, z, w arrays (SoA), lanes filled by scalar
                 loads through the index arrays: no transposes
     bcast       no transposes of positions; d = a - b
                 per constraint as a float4, one transpose of d*d for the 4 lengths, s * share
                 broadcast back per lane; the mass split w_a / (w_a + w_b) precomputed
     bcast-full  bcast with the w lane of d zeroed and all four transposed rows summed: the
                 full 4-row transpose is what V8 compiles to plain unpacks (a 3-row one became
                 pshufb with constants; a splat-with-zero broadcast likewise)
     bcast-runs  what src/solver.c does now: bcast-full on regular batches (a0 + j s, + o),
                 addresses from 3 numbers instead of 8 loaded indices (~97% of a grid)
     runs-newton, runs-nodiv, scalar, scalar-newt   experiments on its arithmetic and the
                 scalar loop it is compared with (see their comment)
     soa-runs    SoA positions on the same regular batches, shares precomputed: stride 1 plain
                 loads, stride 2 (rows) one shufps-shaped split per component, the rest gathered
                 lane by lane; measured at ~0.9x bcast-runs natively and ~0.95x in wasm, so the
                 SoA rewrite of the solve stage does not pay for its conversions
     soa-grid    SoA and the grid's structure instead of index arrays: a colour is a set of
                 rows, the 4 lanes are 4 neighbouring constraints of a row, so each side's
                 lanes are 4 consecutive particles (1 vector load per component; the
                 constraints along a row take 1 shuffle to split even and odd particles).
                 Structured colouring: rows/columns by parity (bend: by pairs), so the
                 colours differ from the greedy ones; same constraint count and arithmetic.
                 Its two halves are also timed alone: rows (stretch and bend along rows)
                 and columns (down columns and the diagonals)

   usage: bench_kernel_lab [RES [PASSES]]   (defaults 316 and 100)
   Build: make build/bench_kernel_lab (native, gcc -O3 -march=native) or
          make build/bench_kernel_lab.cjs && node build/bench_kernel_lab.cjs (wasm SIMD in Node).
   Scalar builds are meaningless here (-DPBD_SCALAR turns the lab's vectors into structs). */
#include "base/simd.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !PBD_SIMD
#error "the kernel lab needs the SIMD pbdF4 (do not build it with PBD_SCALAR)"
#endif

static double NowNs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- the cloth */

typedef struct Colour {
	int first, end; /* constraints [first, end) */
} Colour;

typedef struct Lab {
	int res, n, m;
	float* p; /* AoS float4 */
	float *x, *y, *z, *w; /* SoA, 4 floats of padding */
	int32_t *ca, *cb;
	float* rest;
	float *ra, *rb; /* per-constraint mass split w_a / (w_a + w_b), w_b / (w_a + w_b) (bcast) */
	int32_t *runA, *runSa, *runOff, *runC; /* bcast-runs: per regular batch, a0, a stride, b - a, first constraint (all in floats) */
	int32_t *irrC;                         /* first constraint of each irregular batch */
	int colourRuns[64], colourIrr[64];     /* end of each colour's runs / irregular batches */
	Colour colours[64];
	int colourCount;
} Lab;

static void* Alloc(size_t bytes)
{
	void* q = aligned_alloc(64, (bytes + 63) / 64 * 64);
	if (q == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	memset(q, 0, bytes);
	return q;
}

/* Greedy colouring of [first, end) in order, stable sort by colour (src/colouring.c). */
static void ColourGroup(Lab* L, int first, int end)
{
	int count = end - first;
	uint32_t* used = Alloc((size_t)L->n * 4);
	uint8_t* colour = Alloc((size_t)count);
	int32_t *ca = Alloc((size_t)count * 4), *cb = Alloc((size_t)count * 4);
	float* rest = Alloc((size_t)count * 4);
	int per[32] = { 0 }, colours = 0;
	for (int i = 0; i < count; ++i) {
		int a = L->ca[first + i], b = L->cb[first + i];
		uint32_t busy = used[a] | used[b];
		int k = 0;
		while (busy & (1u << k)) ++k;
		used[a] |= 1u << k;
		used[b] |= 1u << k;
		colour[i] = (uint8_t)k;
		per[k] += 1;
		if (k + 1 > colours) colours = k + 1;
	}
	int start[32], at = 0;
	for (int k = 0; k < colours; ++k) {
		start[k] = at;
		L->colours[L->colourCount++] = (Colour){ first + at, first + at + per[k] };
		at += per[k];
	}
	for (int i = 0; i < count; ++i) {
		int d = start[colour[i]]++;
		ca[d] = L->ca[first + i], cb[d] = L->cb[first + i], rest[d] = L->rest[first + i];
	}
	memcpy(L->ca + first, ca, (size_t)count * 4);
	memcpy(L->cb + first, cb, (size_t)count * 4);
	memcpy(L->rest + first, rest, (size_t)count * 4);
	free(used), free(colour), free(ca), free(cb), free(rest);
}

static void Add(Lab* L, int a, int b)
{
	L->ca[L->m] = a, L->cb[L->m] = b;
	float dx = L->p[4 * a] - L->p[4 * b], dy = L->p[4 * a + 1] - L->p[4 * b + 1];
	L->rest[L->m] = sqrtf(dx * dx + dy * dy);
	L->m += 1;
}

static void BuildLab(Lab* L, int res)
{
	memset(L, 0, sizeof *L);
	L->res = res, L->n = res * res;
	int cap = 6 * L->n;
	L->p = Alloc((size_t)L->n * 16);
	L->x = Alloc(((size_t)L->n + 8) * 4), L->y = Alloc(((size_t)L->n + 8) * 4);
	L->z = Alloc(((size_t)L->n + 8) * 4), L->w = Alloc(((size_t)L->n + 8) * 4);
	L->ca = Alloc((size_t)cap * 4), L->cb = Alloc((size_t)cap * 4), L->rest = Alloc((size_t)cap * 4);
	L->ra = Alloc((size_t)cap * 4), L->rb = Alloc((size_t)cap * 4);
	float h = 2.0f / (float)(res - 1);
	for (int j = 0; j < res; ++j) {
		for (int i = 0; i < res; ++i) {
			float* q = L->p + 4 * (j * res + i);
			q[0] = -1.0f + h * (float)i, q[1] = 2.5f - h * (float)j, q[2] = 0.0f, q[3] = 100.0f;
		}
	}
	L->p[3] = 0.0f, L->p[4 * (res - 1) + 3] = 0.0f;
#define IDX(i, j) ((j) * res + (i))
	int g0 = L->m;
	/* Build order chosen so that greedy colouring gives regular batches (a_j = a0 + j s, b_j = a_j + off):
	   along each row the even edges, then the odd ones; then the columns, row by row. */
	for (int j = 0; j < res; ++j)
		for (int par = 0; par < 2; ++par)
			for (int i = par; i + 1 < res; i += 2) Add(L, IDX(i, j), IDX(i + 1, j));
	for (int j = 0; j + 1 < res; ++j)
		for (int i = 0; i < res; ++i) Add(L, IDX(i, j), IDX(i, j + 1));
	int g1 = L->m;
	for (int j = 0; j + 1 < res; ++j)
		for (int i = 0; i + 1 < res; ++i) Add(L, IDX(i, j), IDX(i + 1, j + 1));
	for (int j = 0; j + 1 < res; ++j)
		for (int i = 0; i + 1 < res; ++i) Add(L, IDX(i + 1, j), IDX(i, j + 1));
	int g2 = L->m;
	for (int j = 0; j < res; ++j)
		for (int par = 0; par < 4; ++par)
			for (int i = (par & 1) * 2 + (par >> 1); i + 2 < res; i += 4) Add(L, IDX(i, j), IDX(i + 2, j));
	for (int j = 0; j + 2 < res; ++j)
		for (int i = 0; i < res; ++i) Add(L, IDX(i, j), IDX(i, j + 2));
#undef IDX
	ColourGroup(L, g0, g1);
	ColourGroup(L, g1, g2);
	ColourGroup(L, g2, L->m);
	L->runA = Alloc((size_t)cap * 4), L->runSa = Alloc((size_t)cap * 4), L->runOff = Alloc((size_t)cap * 4), L->runC = Alloc((size_t)cap * 4);
	L->irrC = Alloc((size_t)cap * 4);
	int nr = 0, ni = 0;
	for (int k = 0; k < L->colourCount; ++k) {
		for (int c = L->colours[k].first; c + 4 <= L->colours[k].end; c += 4) {
			int sa = L->ca[c + 1] - L->ca[c], off = L->cb[c] - L->ca[c], regular = 1;
			for (int j = 0; j < 4; ++j) regular &= L->ca[c + j] == L->ca[c] + j * sa && L->cb[c + j] - L->ca[c + j] == off;
			if (regular) L->runA[nr] = 4 * L->ca[c], L->runSa[nr] = 4 * sa, L->runOff[nr] = 4 * off, L->runC[nr++] = c;
			else L->irrC[ni++] = c;
		}
		L->colourRuns[k] = nr, L->colourIrr[k] = ni;
	}
	printf("bcast-runs: %d regular batches, %d irregular\n", nr, ni);
	for (int c = 0; c < L->m; ++c) {
		float wa = L->p[4 * L->ca[c] + 3], wb = L->p[4 * L->cb[c] + 3], ws = wa + wb;
		L->ra[c] = ws > 0.0f ? wa / ws : 0.0f, L->rb[c] = ws > 0.0f ? wb / ws : 0.0f;
	}
}

/* A stretched state (y scaled by 1.02, a ripple in z) so every constraint has work to do. */
static void Reset(Lab* L)
{
	for (int k = 0; k < L->n; ++k) {
		float* q = L->p + 4 * k;
		int i = k % L->res, j = k / L->res;
		float h = 2.0f / (float)(L->res - 1);
		q[0] = -1.0f + h * (float)i;
		q[1] = 2.5f - 1.02f * h * (float)j;
		q[2] = 0.01f * (float)((i * 7 + j * 3) % 5);
		L->x[k] = q[0], L->y[k] = q[1], L->z[k] = q[2], L->w[k] = q[3];
	}
}

/* ---------------------------------------------------------------- kernels */

/* The engine's kernel (src/solver.c SolveDistanceColour4), without the scalar tail. */
#define GATHER_AOS(c)                                                                                                  \
	float *a0 = p + 4 * ca[c], *a1 = p + 4 * ca[c + 1], *a2 = p + 4 * ca[c + 2], *a3 = p + 4 * ca[c + 3];             \
	float *b0 = p + 4 * cb[c], *b1 = p + 4 * cb[c + 1], *b2 = p + 4 * cb[c + 2], *b3 = p + 4 * cb[c + 3];             \
	pbdF4 ax = pbdF4_Load(a0), ay = pbdF4_Load(a1), az = pbdF4_Load(a2), aw = pbdF4_Load(a3);                         \
	pbdF4 bx = pbdF4_Load(b0), by = pbdF4_Load(b1), bz = pbdF4_Load(b2), bw = pbdF4_Load(b3);                         \
	pbdF4_Transpose(&ax, &ay, &az, &aw);                                                                               \
	pbdF4_Transpose(&bx, &by, &bz, &bw)

#define SCATTER_AOS()                                                                                                  \
	pbdF4_Transpose(&ax, &ay, &az, &aw);                                                                               \
	pbdF4_Transpose(&bx, &by, &bz, &bw);                                                                               \
	pbdF4_Store(a0, ax), pbdF4_Store(a1, ay), pbdF4_Store(a2, az), pbdF4_Store(a3, aw);                               \
	pbdF4_Store(b0, bx), pbdF4_Store(b1, by), pbdF4_Store(b2, bz), pbdF4_Store(b3, bw)

/* The projection on lanes: a and b move toward their rest distance (the engine's arithmetic). */
#define PROJECT(restv)                                                                                                 \
	do {                                                                                                               \
		pbdF4 wsum = pbdF4_Add(aw, bw);                                                                                \
		pbdF4 dx = pbdF4_Sub(ax, bx), dy = pbdF4_Sub(ay, by), dz = pbdF4_Sub(az, bz);                                 \
		pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz)));        \
		pbdMask4 ok = pbdMask4_And(pbdF4_Greater(wsum, zero), pbdF4_GreaterEq(len, eps));                             \
		pbdF4 s = pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, (restv))), pbdF4_Mul(wsum, len));                            \
		pbdF4 s1 = pbdF4_Mul(s, aw), s2 = pbdF4_Mul(s, bw);                                                            \
		ax = pbdF4_Select(ok, pbdF4_Sub(ax, pbdF4_Mul(s1, dx)), ax);                                                   \
		ay = pbdF4_Select(ok, pbdF4_Sub(ay, pbdF4_Mul(s1, dy)), ay);                                                   \
		az = pbdF4_Select(ok, pbdF4_Sub(az, pbdF4_Mul(s1, dz)), az);                                                   \
		bx = pbdF4_Select(ok, pbdF4_Add(bx, pbdF4_Mul(s2, dx)), bx);                                                   \
		by = pbdF4_Select(ok, pbdF4_Add(by, pbdF4_Mul(s2, dy)), by);                                                   \
		bz = pbdF4_Select(ok, pbdF4_Add(bz, pbdF4_Mul(s2, dz)), bz);                                                   \
	} while (0)

/* PROJECT with the mask applied once, to s, instead of to the six results: where the
   scalar code would `continue`, s = 0 and p -= 0 * d leaves p as it was (but for p = -0,
   which becomes +0: the same on every build, so native/wasm/scalar parity holds). */
#define PROJECT_MASK_ONCE(restv)                                                                                       \
	do {                                                                                                               \
		pbdF4 wsum = pbdF4_Add(aw, bw);                                                                                \
		pbdF4 dx = pbdF4_Sub(ax, bx), dy = pbdF4_Sub(ay, by), dz = pbdF4_Sub(az, bz);                                 \
		pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz)));        \
		pbdMask4 ok = pbdMask4_And(pbdF4_Greater(wsum, zero), pbdF4_GreaterEq(len, eps));                             \
		pbdF4 s = pbdF4_Select(ok, pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, (restv))), pbdF4_Mul(wsum, len)), zero);    \
		pbdF4 s1 = pbdF4_Mul(s, aw), s2 = pbdF4_Mul(s, bw);                                                            \
		ax = pbdF4_Sub(ax, pbdF4_Mul(s1, dx)), ay = pbdF4_Sub(ay, pbdF4_Mul(s1, dy)), az = pbdF4_Sub(az, pbdF4_Mul(s1, dz)); \
		bx = pbdF4_Add(bx, pbdF4_Mul(s2, dx)), by = pbdF4_Add(by, pbdF4_Mul(s2, dy)), bz = pbdF4_Add(bz, pbdF4_Mul(s2, dz)); \
	} while (0)

#define KERNEL_CONSTANTS(k)                                                                                            \
	const pbdF4 kv = pbdF4_Splat(k), zero = pbdF4_Splat(0.0f), eps = pbdF4_Splat(1e-9f);                              \
	(void)kv, (void)zero, (void)eps

static void KernelEngine(Lab* L, int from, int end, float k)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float* rest = L->rest;
	KERNEL_CONSTANTS(k);
	for (int c = from; c + 4 <= end; c += 4) {
		GATHER_AOS(c);
		PROJECT(pbdF4_Load(rest + c));
		SCATTER_AOS();
	}
}

static void KernelMaskOnce(Lab* L, int from, int end, float k)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float* rest = L->rest;
	KERNEL_CONSTANTS(k);
	for (int c = from; c + 4 <= end; c += 4) {
		GATHER_AOS(c);
		PROJECT_MASK_ONCE(pbdF4_Load(rest + c));
		SCATTER_AOS();
	}
}

static void KernelNoMath(Lab* L, int from, int end, float k)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const pbdF4 d = pbdF4_Splat(k * 1e-7f);
	for (int c = from; c + 4 <= end; c += 4) {
		GATHER_AOS(c);
		ax = pbdF4_Add(ax, d), by = pbdF4_Add(by, pbdF4_Load(L->rest + c));
		SCATTER_AOS();
	}
}

static void KernelUnroll2(Lab* L, int from, int end, float k)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float* rest = L->rest;
	KERNEL_CONSTANTS(k);
	int c = from;
	for (; c + 8 <= end; c += 8) {
		{
			GATHER_AOS(c);
			PROJECT(pbdF4_Load(rest + c));
			SCATTER_AOS();
		}
		{
			GATHER_AOS(c + 4);
			PROJECT(pbdF4_Load(rest + c + 4));
			SCATTER_AOS();
		}
	}
	if (c + 4 <= end) KernelEngine(L, c, end, k);
}

/* bcast: no transposes of positions. d = a - b per constraint as a float4 (w lane unused),
   the squares transposed once to sum x2 + y2 + z2 for 4 lanes, s computed 4 wide, then
   each lane's s broadcast back as (s, s, s, 0) to move its own particles. The mass split
   w_a / (w_a + w_b) is precomputed per constraint (it changes only when a mass does). */
static void KernelBcast(Lab* L, int from, int end, float k)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float *rest = L->rest, *ra = L->ra, *rb = L->rb;
	KERNEL_CONSTANTS(k);
	for (int c = from; c + 4 <= end; c += 4) {
		float *a0 = p + 4 * ca[c], *a1 = p + 4 * ca[c + 1], *a2 = p + 4 * ca[c + 2], *a3 = p + 4 * ca[c + 3];
		float *b0 = p + 4 * cb[c], *b1 = p + 4 * cb[c + 1], *b2 = p + 4 * cb[c + 2], *b3 = p + 4 * cb[c + 3];
		pbdF4 A0 = pbdF4_Load(a0), A1 = pbdF4_Load(a1), A2 = pbdF4_Load(a2), A3 = pbdF4_Load(a3);
		pbdF4 B0 = pbdF4_Load(b0), B1 = pbdF4_Load(b1), B2 = pbdF4_Load(b2), B3 = pbdF4_Load(b3);
		pbdF4 d0 = pbdF4_Sub(A0, B0), d1 = pbdF4_Sub(A1, B1), d2 = pbdF4_Sub(A2, B2), d3 = pbdF4_Sub(A3, B3);
		pbdF4 q0 = pbdF4_Mul(d0, d0), q1 = pbdF4_Mul(d1, d1), q2 = pbdF4_Mul(d2, d2), q3 = pbdF4_Mul(d3, d3);
		pbdF4_Transpose(&q0, &q1, &q2, &q3);
		pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(q0, q1), q2));
		pbdMask4 ok = pbdF4_GreaterEq(len, eps);
		pbdF4 s = pbdF4_Select(ok, pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c))), len), zero);
		pbdF4 s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));
#define LANE(v, i) PBD_SHUFFLE(v, zero, i, i, i, 4)
		pbdF4_Store(a0, pbdF4_Sub(A0, pbdF4_Mul(LANE(s1, 0), d0)));
		pbdF4_Store(a1, pbdF4_Sub(A1, pbdF4_Mul(LANE(s1, 1), d1)));
		pbdF4_Store(a2, pbdF4_Sub(A2, pbdF4_Mul(LANE(s1, 2), d2)));
		pbdF4_Store(a3, pbdF4_Sub(A3, pbdF4_Mul(LANE(s1, 3), d3)));
		pbdF4_Store(b0, pbdF4_Add(B0, pbdF4_Mul(LANE(s2, 0), d0)));
		pbdF4_Store(b1, pbdF4_Add(B1, pbdF4_Mul(LANE(s2, 1), d1)));
		pbdF4_Store(b2, pbdF4_Add(B2, pbdF4_Mul(LANE(s2, 2), d2)));
		pbdF4_Store(b3, pbdF4_Add(B3, pbdF4_Mul(LANE(s2, 3), d3)));
#undef LANE
	}
}


static void KernelBcastFull(Lab* L, int from, int end, float k)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float *rest = L->rest, *ra = L->ra, *rb = L->rb;
	KERNEL_CONSTANTS(k);
	for (int c = from; c + 4 <= end; c += 4) {
		float *a0 = p + 4 * ca[c], *a1 = p + 4 * ca[c + 1], *a2 = p + 4 * ca[c + 2], *a3 = p + 4 * ca[c + 3];
		float *b0 = p + 4 * cb[c], *b1 = p + 4 * cb[c + 1], *b2 = p + 4 * cb[c + 2], *b3 = p + 4 * cb[c + 3];
		pbdF4 A0 = pbdF4_Load(a0), A1 = pbdF4_Load(a1), A2 = pbdF4_Load(a2), A3 = pbdF4_Load(a3);
		pbdF4 B0 = pbdF4_Load(b0), B1 = pbdF4_Load(b1), B2 = pbdF4_Load(b2), B3 = pbdF4_Load(b3);
		const pbdI4 xyz = { -1, -1, -1, 0 };
		pbdF4 d0 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A0, B0)), d1 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A1, B1)), d2 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A2, B2)), d3 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A3, B3));
		pbdF4 q0 = pbdF4_Mul(d0, d0), q1 = pbdF4_Mul(d1, d1), q2 = pbdF4_Mul(d2, d2), q3 = pbdF4_Mul(d3, d3);
		pbdF4_Transpose(&q0, &q1, &q2, &q3);
		pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Add(q0, q1), q2), q3)); /* q3 = w lane = +0 */
		pbdMask4 ok = pbdF4_GreaterEq(len, eps);
		pbdF4 s = pbdF4_Select(ok, pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c))), len), zero);
		pbdF4 s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));
#define LANE(v, i) PBD_SHUFFLE(v, v, i, i, i, i)
		pbdF4_Store(a0, pbdF4_Sub(A0, pbdF4_Mul(LANE(s1, 0), d0)));
		pbdF4_Store(a1, pbdF4_Sub(A1, pbdF4_Mul(LANE(s1, 1), d1)));
		pbdF4_Store(a2, pbdF4_Sub(A2, pbdF4_Mul(LANE(s1, 2), d2)));
		pbdF4_Store(a3, pbdF4_Sub(A3, pbdF4_Mul(LANE(s1, 3), d3)));
		pbdF4_Store(b0, pbdF4_Add(B0, pbdF4_Mul(LANE(s2, 0), d0)));
		pbdF4_Store(b1, pbdF4_Add(B1, pbdF4_Mul(LANE(s2, 1), d1)));
		pbdF4_Store(b2, pbdF4_Add(B2, pbdF4_Mul(LANE(s2, 2), d2)));
		pbdF4_Store(b3, pbdF4_Add(B3, pbdF4_Mul(LANE(s2, 3), d3)));
#undef LANE
	}
}


static int s_runColour;

/* soa-runs: positions as x, y, z arrays, the regular batches of bcast-runs, shares precomputed.
   stride 1: plain vector loads; stride 2, offset 1 (along a row): 8 consecutive values split
   into even and odd lanes with one shufps-shaped shuffle each; stride 4, offset 2 (bend along
   a row): 16 values, a 4x4 transpose per component; anything else: lanes gathered one by one. */
static inline pbdF4 EvenOf(pbdF4 lo, pbdF4 hi) { return PBD_SHUFFLE(lo, hi, 0, 2, 4, 6); }
static inline pbdF4 OddOf(pbdF4 lo, pbdF4 hi) { return PBD_SHUFFLE(lo, hi, 1, 3, 5, 7); }
#define SOA_MATH()                                                                                                     \
	pbdF4 dx = pbdF4_Sub(ax, bx), dy = pbdF4_Sub(ay, by), dz = pbdF4_Sub(az, bz);                                     \
	pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz)));            \
	pbdF4 s = pbdF4_Keep(pbdF4_GreaterEq(len, eps), pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c))), len)); \
	pbdF4 s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));                               \
	ax = pbdF4_Sub(ax, pbdF4_Mul(s1, dx)), ay = pbdF4_Sub(ay, pbdF4_Mul(s1, dy)), az = pbdF4_Sub(az, pbdF4_Mul(s1, dz)); \
	bx = pbdF4_Add(bx, pbdF4_Mul(s2, dx)), by = pbdF4_Add(by, pbdF4_Mul(s2, dy)), bz = pbdF4_Add(bz, pbdF4_Mul(s2, dz))

static void KernelSoaRuns(Lab* L, int from, int end, float k)
{
	(void)from, (void)end;
	float *X = L->x, *Y = L->y, *Z = L->z;
	const float *rest = L->rest, *ra = L->ra, *rb = L->rb;
	KERNEL_CONSTANTS(k);
	int col = s_runColour;
	for (int r = col ? L->colourRuns[col - 1] : 0; r < L->colourRuns[col]; ++r) {
		const int a = L->runA[r] / 4, st = L->runSa[r] / 4, off = L->runOff[r] / 4, c = L->runC[r];
		if (st == 1) {
			pbdF4 ax = pbdF4_Load(X + a), ay = pbdF4_Load(Y + a), az = pbdF4_Load(Z + a);
			pbdF4 bx = pbdF4_Load(X + a + off), by = pbdF4_Load(Y + a + off), bz = pbdF4_Load(Z + a + off);
			SOA_MATH();
			pbdF4_Store(X + a, ax), pbdF4_Store(Y + a, ay), pbdF4_Store(Z + a, az);
			pbdF4_Store(X + a + off, bx), pbdF4_Store(Y + a + off, by), pbdF4_Store(Z + a + off, bz);
		} else if (st == 2 && off == 1) {
			pbdF4 xl = pbdF4_Load(X + a), xh = pbdF4_Load(X + a + 4), yl = pbdF4_Load(Y + a), yh = pbdF4_Load(Y + a + 4);
			pbdF4 zl = pbdF4_Load(Z + a), zh = pbdF4_Load(Z + a + 4);
			pbdF4 ax = EvenOf(xl, xh), bx = OddOf(xl, xh), ay = EvenOf(yl, yh), by = OddOf(yl, yh), az = EvenOf(zl, zh), bz = OddOf(zl, zh);
			SOA_MATH();
			pbdF4_Store(X + a, PBD_SHUFFLE(ax, bx, 0, 4, 1, 5)), pbdF4_Store(X + a + 4, PBD_SHUFFLE(ax, bx, 2, 6, 3, 7));
			pbdF4_Store(Y + a, PBD_SHUFFLE(ay, by, 0, 4, 1, 5)), pbdF4_Store(Y + a + 4, PBD_SHUFFLE(ay, by, 2, 6, 3, 7));
			pbdF4_Store(Z + a, PBD_SHUFFLE(az, bz, 0, 4, 1, 5)), pbdF4_Store(Z + a + 4, PBD_SHUFFLE(az, bz, 2, 6, 3, 7));
		} else {
			const int a0 = a, a1 = a + st, a2 = a + 2 * st, a3 = a + 3 * st;
			pbdF4 ax = pbdF4_Set(X[a0], X[a1], X[a2], X[a3]), ay = pbdF4_Set(Y[a0], Y[a1], Y[a2], Y[a3]), az = pbdF4_Set(Z[a0], Z[a1], Z[a2], Z[a3]);
			pbdF4 bx = pbdF4_Set(X[a0 + off], X[a1 + off], X[a2 + off], X[a3 + off]);
			pbdF4 by = pbdF4_Set(Y[a0 + off], Y[a1 + off], Y[a2 + off], Y[a3 + off]);
			pbdF4 bz = pbdF4_Set(Z[a0 + off], Z[a1 + off], Z[a2 + off], Z[a3 + off]);
			SOA_MATH();
			X[a0] = ax[0], X[a1] = ax[1], X[a2] = ax[2], X[a3] = ax[3], Y[a0] = ay[0], Y[a1] = ay[1], Y[a2] = ay[2], Y[a3] = ay[3];
			Z[a0] = az[0], Z[a1] = az[1], Z[a2] = az[2], Z[a3] = az[3];
			X[a0 + off] = bx[0], X[a1 + off] = bx[1], X[a2 + off] = bx[2], X[a3 + off] = bx[3];
			Y[a0 + off] = by[0], Y[a1 + off] = by[1], Y[a2 + off] = by[2], Y[a3 + off] = by[3];
			Z[a0 + off] = bz[0], Z[a1 + off] = bz[1], Z[a2 + off] = bz[2], Z[a3 + off] = bz[3];
		}
	}
	s_runColour = (col + 1) % L->colourCount;
}

/* bcast-runs: bcast-full on the grid's regularity (what src/solver.c does): where a batch's four
   constraints are (a0 + j sa, a0 + j sa + off), their addresses come from three numbers instead
   of eight loaded indices; the other batches go through the index arrays. Two experiments on its
   arithmetic (timing only, not for the engine):
   runs-newton  1/|d| from an integer-trick estimate and 3 Newton steps (mul/sub only, no
                divider), s = k (1 - rest / |d|) = k - k rest y;
   runs-nodiv   sqrt and div replaced by multiplies: what the kernel costs without the divider;
   runs-pipe    software-pipelined by one batch (batch j+1 loaded and computed before batch j's
                stores): slower everywhere (the live vectors spill);
   runs-u2      two batches per iteration, q summed over 3 rows from the raw difference and the
                w lane masked off the length's path (same bits): natively ~12% faster than
                bcast-runs (AVX-512 has 32 vector registers), in wasm ~3% slower (V8 has 16
                on x64 and spills); u2-nomath is its data-movement floor (s = |d|^2);
   off-path     runs-u2's two changes on one batch: natively ~4% faster, in wasm the same
                (the 3-row transpose becomes pshufb with constants under V8);
   runs-reload  only d and s live across the square root, each end read again when written
                back: natively no faster, in wasm ~3% (V8 still spills d and the constants:
                --print-wasm-code shows it);
   All of these share the drivers below; the figures are from that shared driver (an earlier
   per-variant copy of the loops timed bcast-runs ~10% slower natively, the same in wasm: the
   lab's native figures move by that much with the loop around the body).
   and two scalar loops over the same constraints in the same order: scalar (the engine's
   -DPBD_SCALAR=1 fallback) and scalar-newt (the same with Newton). */
enum { MATH_EXACT, MATH_NEWTON, MATH_NODIV };

static inline pbdF4 RsqrtNewton(pbdF4 x2)
{
	const pbdI4 magic = { 0x5f375a86, 0x5f375a86, 0x5f375a86, 0x5f375a86 };
	pbdF4 y = (pbdF4)(magic - ((pbdI4)x2 >> 1));
	const pbdF4 half = pbdF4_Splat(0.5f), threeHalves = pbdF4_Splat(1.5f);
	pbdF4 hx = pbdF4_Mul(half, x2);
	for (int i = 0; i < 3; ++i) y = pbdF4_Mul(y, pbdF4_Sub(threeHalves, pbdF4_Mul(hx, pbdF4_Mul(y, y))));
	return y;
}

static inline void BodyVariant(float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3, int c,
							   const float* rest, const float* ra, const float* rb, pbdF4 kv, int mode)
{
	const pbdI4 xyz = { -1, -1, -1, 0 };
	pbdF4 A0 = pbdF4_Load(a0), A1 = pbdF4_Load(a1), A2 = pbdF4_Load(a2), A3 = pbdF4_Load(a3);
	pbdF4 B0 = pbdF4_Load(b0), B1 = pbdF4_Load(b1), B2 = pbdF4_Load(b2), B3 = pbdF4_Load(b3);
	pbdF4 d0 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A0, B0)), d1 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A1, B1));
	pbdF4 d2 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A2, B2)), d3 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A3, B3));
	pbdF4 q0 = pbdF4_Mul(d0, d0), q1 = pbdF4_Mul(d1, d1), q2 = pbdF4_Mul(d2, d2), q3 = pbdF4_Mul(d3, d3);
	pbdF4_Transpose(&q0, &q1, &q2, &q3);
	pbdF4 len2 = pbdF4_Add(pbdF4_Add(pbdF4_Add(q0, q1), q2), q3), s;
	if (mode == MATH_NEWTON) {
		pbdF4 y = RsqrtNewton(len2);
		s = pbdF4_Keep(pbdF4_GreaterEq(len2, pbdF4_Splat(1e-18f)), pbdF4_Sub(kv, pbdF4_Mul(kv, pbdF4_Mul(pbdF4_Load(rest + c), y))));
	} else {
		pbdF4 len = mode == MATH_NODIV ? pbdF4_Mul(len2, len2) : pbdF4_Sqrt(len2);
		pbdF4 num = pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c)));
		s = pbdF4_Keep(pbdF4_GreaterEq(len, pbdF4_Splat(1e-9f)), mode == MATH_NODIV ? pbdF4_Mul(num, len) : pbdF4_Div(num, len));
	}
	pbdF4 s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));
	pbdF4_Store(a0, pbdF4_Sub(A0, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 0, 0, 0, 0), d0)));
	pbdF4_Store(a1, pbdF4_Sub(A1, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 1, 1, 1, 1), d1)));
	pbdF4_Store(a2, pbdF4_Sub(A2, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 2, 2, 2, 2), d2)));
	pbdF4_Store(a3, pbdF4_Sub(A3, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 3, 3, 3, 3), d3)));
	pbdF4_Store(b0, pbdF4_Add(B0, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 0, 0, 0, 0), d0)));
	pbdF4_Store(b1, pbdF4_Add(B1, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 1, 1, 1, 1), d1)));
	pbdF4_Store(b2, pbdF4_Add(B2, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 2, 2, 2, 2), d2)));
	pbdF4_Store(b3, pbdF4_Add(B3, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 3, 3, 3, 3), d3)));
}

/* A batch body: the four constraints starting at c, ends given by address. The drivers below
   walk one colour with it (always inlined, so each variant's body is inlined into its loops). */
typedef void (*Body)(float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3, int c,
					 const float* rest, const float* ra, const float* rb, pbdF4 kv);

/* The colour's irregular batches, through the index arrays. */
static inline __attribute__((always_inline)) void DriveIrregular(Lab* L, int col, pbdF4 kv, Body body)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	for (int r = col ? L->colourIrr[col - 1] : 0; r < L->colourIrr[col]; ++r) {
		const int c = L->irrC[r];
		body(p + 4 * ca[c], p + 4 * ca[c + 1], p + 4 * ca[c + 2], p + 4 * ca[c + 3], p + 4 * cb[c], p + 4 * cb[c + 1],
			 p + 4 * cb[c + 2], p + 4 * cb[c + 3], c, L->rest, L->ra, L->rb, kv);
	}
}

/* The colour's regular batches from run r on, addressed from (a0, stride, offset). */
static inline __attribute__((always_inline)) void DriveRuns(Lab* L, int r, int end, pbdF4 kv, Body body)
{
	float* p = L->p;
	for (; r < end; ++r) {
		float* a = p + L->runA[r];
		const int sa = L->runSa[r], off = L->runOff[r];
		body(a, a + sa, a + 2 * sa, a + 3 * sa, a + off, a + sa + off, a + 2 * sa + off, a + 3 * sa + off, L->runC[r], L->rest, L->ra,
			 L->rb, kv);
	}
}

/* One colour per call (the timing loop calls colours in order): its regular batches, then the rest. */
static inline __attribute__((always_inline)) void DriveColour(Lab* L, float k, Body body)
{
	const pbdF4 kv = pbdF4_Splat(k);
	const int col = s_runColour;
	DriveRuns(L, col ? L->colourRuns[col - 1] : 0, L->colourRuns[col], kv, body);
	DriveIrregular(L, col, kv, body);
	s_runColour = (col + 1) % L->colourCount;
}

#define BODY_OF_MODE(name, mode)                                                                                                  \
	static inline void name(float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3, int c,        \
							const float* rest, const float* ra, const float* rb, pbdF4 kv)                                          \
	{                                                                                                                             \
		BodyVariant(a0, a1, a2, a3, b0, b1, b2, b3, c, rest, ra, rb, kv, mode);                                                   \
	}
BODY_OF_MODE(BodyExact, MATH_EXACT)
BODY_OF_MODE(BodyNewton, MATH_NEWTON)
BODY_OF_MODE(BodyNoDiv, MATH_NODIV)

static void KernelBcastRuns(Lab* L, int from, int end, float k) { (void)from, (void)end; DriveColour(L, k, BodyExact); }
static void KernelRunsNewton(Lab* L, int from, int end, float k) { (void)from, (void)end; DriveColour(L, k, BodyNewton); }
static void KernelRunsNoDiv(Lab* L, int from, int end, float k) { (void)from, (void)end; DriveColour(L, k, BodyNoDiv); }

/* runs-pipe: bcast-runs software-pipelined by one batch: batch j+1's loads and arithmetic are
   issued before batch j's stores (legal within a colour: no shared particle). */
typedef struct Front {
	float *a0, *a1, *a2, *a3, *b0, *b1, *b2, *b3;
	pbdF4 A0, A1, A2, A3, B0, B1, B2, B3, d0, d1, d2, d3, s1, s2;
} Front;

static inline void FrontOf(Front* f, float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3, int c,
						   const float* rest, const float* ra, const float* rb, pbdF4 kv)
{
	const pbdI4 xyz = { -1, -1, -1, 0 };
	f->a0 = a0, f->a1 = a1, f->a2 = a2, f->a3 = a3, f->b0 = b0, f->b1 = b1, f->b2 = b2, f->b3 = b3;
	pbdF4 A0 = pbdF4_Load(a0), A1 = pbdF4_Load(a1), A2 = pbdF4_Load(a2), A3 = pbdF4_Load(a3);
	pbdF4 B0 = pbdF4_Load(b0), B1 = pbdF4_Load(b1), B2 = pbdF4_Load(b2), B3 = pbdF4_Load(b3);
	f->A0 = A0, f->A1 = A1, f->A2 = A2, f->A3 = A3, f->B0 = B0, f->B1 = B1, f->B2 = B2, f->B3 = B3;
	pbdF4 d0 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A0, B0)), d1 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A1, B1));
	pbdF4 d2 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A2, B2)), d3 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(A3, B3));
	f->d0 = d0, f->d1 = d1, f->d2 = d2, f->d3 = d3;
	pbdF4 q0 = pbdF4_Mul(d0, d0), q1 = pbdF4_Mul(d1, d1), q2 = pbdF4_Mul(d2, d2), q3 = pbdF4_Mul(d3, d3);
	pbdF4_Transpose(&q0, &q1, &q2, &q3);
	pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Add(q0, q1), q2), q3));
	pbdF4 s = pbdF4_Keep(pbdF4_GreaterEq(len, pbdF4_Splat(1e-9f)), pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c))), len));
	f->s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), f->s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));
}

static inline void BackOf(const Front* f)
{
	pbdF4 s1 = f->s1, s2 = f->s2;
	pbdF4_Store(f->a0, pbdF4_Sub(f->A0, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 0, 0, 0, 0), f->d0)));
	pbdF4_Store(f->a1, pbdF4_Sub(f->A1, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 1, 1, 1, 1), f->d1)));
	pbdF4_Store(f->a2, pbdF4_Sub(f->A2, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 2, 2, 2, 2), f->d2)));
	pbdF4_Store(f->a3, pbdF4_Sub(f->A3, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 3, 3, 3, 3), f->d3)));
	pbdF4_Store(f->b0, pbdF4_Add(f->B0, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 0, 0, 0, 0), f->d0)));
	pbdF4_Store(f->b1, pbdF4_Add(f->B1, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 1, 1, 1, 1), f->d1)));
	pbdF4_Store(f->b2, pbdF4_Add(f->B2, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 2, 2, 2, 2), f->d2)));
	pbdF4_Store(f->b3, pbdF4_Add(f->B3, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 3, 3, 3, 3), f->d3)));
}

static void PipeVariant(Lab* L, float k)
{
	float* p = L->p;
	const float *rest = L->rest, *ra = L->ra, *rb = L->rb;
	const pbdF4 kv = pbdF4_Splat(k);
	int col = s_runColour;
	int r0 = col ? L->colourRuns[col - 1] : 0, r1 = L->colourRuns[col];
	Front f[2];
	int have = 0, cur = 0;
	for (int r = r0; r < r1; ++r) {
		float* a = p + L->runA[r];
		const int sa = L->runSa[r], off = L->runOff[r], c = L->runC[r];
		FrontOf(&f[cur], a, a + sa, a + 2 * sa, a + 3 * sa, a + off, a + sa + off, a + 2 * sa + off, a + 3 * sa + off, c, rest, ra, rb, kv);
		if (have) BackOf(&f[cur ^ 1]);
		have = 1;
		cur ^= 1;
	}
	if (have) BackOf(&f[cur ^ 1]);
	DriveIrregular(L, col, kv, BodyExact);
	s_runColour = (col + 1) % L->colourCount;
}
static void KernelRunsPipe(Lab* L, int from, int end, float k) { (void)from, (void)end; PipeVariant(L, k); }

/* runs-u2 (and u2-nomath): two regular batches per call; q from the raw difference (its w lane
   lands in the 4th transposed row, which is not summed) and d = the difference with w masked,
   off the length's path. ((x2 + y2) + z2) is what ((x2 + y2) + z2) + 0 was: same bits. */
static inline void Body2(float* const* a, float* const* b, const int* cc, const float* rest, const float* ra, const float* rb, pbdF4 kv, int nomath)
{
	const pbdI4 xyz = { -1, -1, -1, 0 };
	pbdF4 A[8], B[8], d[8], q[8], s1[2], s2[2];
	for (int i = 0; i < 8; ++i) { A[i] = pbdF4_Load(a[i]); B[i] = pbdF4_Load(b[i]); }
	for (int i = 0; i < 8; ++i) { pbdF4 r = pbdF4_Sub(A[i], B[i]); d[i] = (pbdF4)(xyz & (pbdI4)r); q[i] = pbdF4_Mul(r, r); }
	for (int h = 0; h < 2; ++h) {
		pbdF4_Transpose(&q[4*h], &q[4*h+1], &q[4*h+2], &q[4*h+3]);
		pbdF4 len2 = pbdF4_Add(pbdF4_Add(q[4*h], q[4*h+1]), q[4*h+2]);
		pbdF4 s;
		if (nomath) s = len2;
		else {
			pbdF4 len = pbdF4_Sqrt(len2);
			s = pbdF4_Keep(pbdF4_GreaterEq(len, pbdF4_Splat(1e-9f)), pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + cc[h]))), len));
		}
		s1[h] = pbdF4_Mul(s, pbdF4_Load(ra + cc[h])), s2[h] = pbdF4_Mul(s, pbdF4_Load(rb + cc[h]));
	}
	for (int h = 0; h < 2; ++h) {
		pbdF4 x = s1[h], y = s2[h];
		pbdF4_Store(a[4*h+0], pbdF4_Sub(A[4*h+0], pbdF4_Mul(PBD_SHUFFLE(x, x, 0, 0, 0, 0), d[4*h+0])));
		pbdF4_Store(a[4*h+1], pbdF4_Sub(A[4*h+1], pbdF4_Mul(PBD_SHUFFLE(x, x, 1, 1, 1, 1), d[4*h+1])));
		pbdF4_Store(a[4*h+2], pbdF4_Sub(A[4*h+2], pbdF4_Mul(PBD_SHUFFLE(x, x, 2, 2, 2, 2), d[4*h+2])));
		pbdF4_Store(a[4*h+3], pbdF4_Sub(A[4*h+3], pbdF4_Mul(PBD_SHUFFLE(x, x, 3, 3, 3, 3), d[4*h+3])));
		pbdF4_Store(b[4*h+0], pbdF4_Add(B[4*h+0], pbdF4_Mul(PBD_SHUFFLE(y, y, 0, 0, 0, 0), d[4*h+0])));
		pbdF4_Store(b[4*h+1], pbdF4_Add(B[4*h+1], pbdF4_Mul(PBD_SHUFFLE(y, y, 1, 1, 1, 1), d[4*h+1])));
		pbdF4_Store(b[4*h+2], pbdF4_Add(B[4*h+2], pbdF4_Mul(PBD_SHUFFLE(y, y, 2, 2, 2, 2), d[4*h+2])));
		pbdF4_Store(b[4*h+3], pbdF4_Add(B[4*h+3], pbdF4_Mul(PBD_SHUFFLE(y, y, 3, 3, 3, 3), d[4*h+3])));
	}
}
static void Unroll2Variant(Lab* L, float k, int nomath)
{
	float* p = L->p;
	const float *rest = L->rest, *ra = L->ra, *rb = L->rb;
	const pbdF4 kv = pbdF4_Splat(k);
	int col = s_runColour;
	int r = col ? L->colourRuns[col - 1] : 0, r1 = L->colourRuns[col];
	for (; r + 2 <= r1; r += 2) {
		float* a[8]; float* b[8]; int cc[2];
		for (int h = 0; h < 2; ++h) {
			float* a0 = p + L->runA[r + h];
			const int sa = L->runSa[r + h], off = L->runOff[r + h];
			cc[h] = L->runC[r + h];
			for (int j = 0; j < 4; ++j) { a[4*h+j] = a0 + j * sa; b[4*h+j] = a0 + j * sa + off; }
		}
		Body2(a, b, cc, rest, ra, rb, kv, nomath);
	}
	DriveRuns(L, r, r1, kv, BodyExact); /* an odd last run */
	DriveIrregular(L, col, kv, BodyExact);
	s_runColour = (col + 1) % L->colourCount;
}
static void KernelRunsU2(Lab* L, int from, int end, float k) { (void)from, (void)end; Unroll2Variant(L, k, 0); }
static void KernelRunsNoMath(Lab* L, int from, int end, float k) { (void)from, (void)end; Unroll2Variant(L, k, 1); }

/* off-path: runs-u2's arithmetic on one batch at a time. */
static inline void BodyOffPath(float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3, int c,
							   const float* rest, const float* ra, const float* rb, pbdF4 kv)
{
	const pbdI4 xyz = { -1, -1, -1, 0 };
	pbdF4 A0 = pbdF4_Load(a0), A1 = pbdF4_Load(a1), A2 = pbdF4_Load(a2), A3 = pbdF4_Load(a3);
	pbdF4 B0 = pbdF4_Load(b0), B1 = pbdF4_Load(b1), B2 = pbdF4_Load(b2), B3 = pbdF4_Load(b3);
	pbdF4 r0 = pbdF4_Sub(A0, B0), r1 = pbdF4_Sub(A1, B1), r2 = pbdF4_Sub(A2, B2), r3 = pbdF4_Sub(A3, B3);
	pbdF4 q0 = pbdF4_Mul(r0, r0), q1 = pbdF4_Mul(r1, r1), q2 = pbdF4_Mul(r2, r2), q3 = pbdF4_Mul(r3, r3);
	pbdF4_Transpose(&q0, &q1, &q2, &q3);
	pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(q0, q1), q2));
	pbdF4 s = pbdF4_Keep(pbdF4_GreaterEq(len, pbdF4_Splat(1e-9f)), pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c))), len));
	pbdF4 s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));
	pbdF4 d0 = (pbdF4)(xyz & (pbdI4)r0), d1 = (pbdF4)(xyz & (pbdI4)r1), d2 = (pbdF4)(xyz & (pbdI4)r2), d3 = (pbdF4)(xyz & (pbdI4)r3);
	pbdF4_Store(a0, pbdF4_Sub(A0, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 0, 0, 0, 0), d0)));
	pbdF4_Store(a1, pbdF4_Sub(A1, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 1, 1, 1, 1), d1)));
	pbdF4_Store(a2, pbdF4_Sub(A2, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 2, 2, 2, 2), d2)));
	pbdF4_Store(a3, pbdF4_Sub(A3, pbdF4_Mul(PBD_SHUFFLE(s1, s1, 3, 3, 3, 3), d3)));
	pbdF4_Store(b0, pbdF4_Add(B0, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 0, 0, 0, 0), d0)));
	pbdF4_Store(b1, pbdF4_Add(B1, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 1, 1, 1, 1), d1)));
	pbdF4_Store(b2, pbdF4_Add(B2, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 2, 2, 2, 2), d2)));
	pbdF4_Store(b3, pbdF4_Add(B3, pbdF4_Mul(PBD_SHUFFLE(s2, s2, 3, 3, 3, 3), d3)));
}
static void KernelOffPath(Lab* L, int from, int end, float k) { (void)from, (void)end; DriveColour(L, k, BodyOffPath); }

/* runs-reload: bcast-runs keeping only d (and s) live across the square root: each end is read
   again from memory when it is written back, instead of held in a register. */
static inline void BodyReload(float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3, int c,
							  const float* rest, const float* ra, const float* rb, pbdF4 kv)
{
	const pbdI4 xyz = { -1, -1, -1, 0 };
	pbdF4 d0 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(pbdF4_Load(a0), pbdF4_Load(b0)));
	pbdF4 d1 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(pbdF4_Load(a1), pbdF4_Load(b1)));
	pbdF4 d2 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(pbdF4_Load(a2), pbdF4_Load(b2)));
	pbdF4 d3 = (pbdF4)(xyz & (pbdI4)pbdF4_Sub(pbdF4_Load(a3), pbdF4_Load(b3)));
	pbdF4 q0 = pbdF4_Mul(d0, d0), q1 = pbdF4_Mul(d1, d1), q2 = pbdF4_Mul(d2, d2), q3 = pbdF4_Mul(d3, d3);
	pbdF4_Transpose(&q0, &q1, &q2, &q3);
	pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Add(q0, q1), q2), q3));
	pbdF4 s = pbdF4_Keep(pbdF4_GreaterEq(len, pbdF4_Splat(1e-9f)), pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, pbdF4_Load(rest + c))), len));
	pbdF4 s1 = pbdF4_Mul(s, pbdF4_Load(ra + c)), s2 = pbdF4_Mul(s, pbdF4_Load(rb + c));
	pbdF4_Store(a0, pbdF4_Sub(pbdF4_Load(a0), pbdF4_Mul(PBD_SHUFFLE(s1, s1, 0, 0, 0, 0), d0)));
	pbdF4_Store(b0, pbdF4_Add(pbdF4_Load(b0), pbdF4_Mul(PBD_SHUFFLE(s2, s2, 0, 0, 0, 0), d0)));
	pbdF4_Store(a1, pbdF4_Sub(pbdF4_Load(a1), pbdF4_Mul(PBD_SHUFFLE(s1, s1, 1, 1, 1, 1), d1)));
	pbdF4_Store(b1, pbdF4_Add(pbdF4_Load(b1), pbdF4_Mul(PBD_SHUFFLE(s2, s2, 1, 1, 1, 1), d1)));
	pbdF4_Store(a2, pbdF4_Sub(pbdF4_Load(a2), pbdF4_Mul(PBD_SHUFFLE(s1, s1, 2, 2, 2, 2), d2)));
	pbdF4_Store(b2, pbdF4_Add(pbdF4_Load(b2), pbdF4_Mul(PBD_SHUFFLE(s2, s2, 2, 2, 2, 2), d2)));
	pbdF4_Store(a3, pbdF4_Sub(pbdF4_Load(a3), pbdF4_Mul(PBD_SHUFFLE(s1, s1, 3, 3, 3, 3), d3)));
	pbdF4_Store(b3, pbdF4_Add(pbdF4_Load(b3), pbdF4_Mul(PBD_SHUFFLE(s2, s2, 3, 3, 3, 3), d3)));
}
static void KernelRunsReload(Lab* L, int from, int end, float k) { (void)from, (void)end; DriveColour(L, k, BodyReload); }

static void ScalarVariant(Lab* L, int from, int end, float k, int newton)
{
	float* p = L->p;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float *rest = L->rest, *ra = L->ra, *rb = L->rb;
	for (int c = from; c < end; ++c) {
		float *p1 = p + 4 * ca[c], *p2 = p + 4 * cb[c];
		float dx = p1[0] - p2[0], dy = p1[1] - p2[1], dz = p1[2] - p2[2];
		float len2 = dx * dx + dy * dy + dz * dz, s;
		if (newton) {
			int32_t bits;
			memcpy(&bits, &len2, 4);
			bits = 0x5f375a86 - (bits >> 1);
			float y;
			memcpy(&y, &bits, 4);
			float hx = 0.5f * len2;
			for (int i = 0; i < 3; ++i) y = y * (1.5f - hx * (y * y));
			s = len2 >= 1e-18f ? k - k * (rest[c] * y) : 0.0f;
		} else {
			float len = sqrtf(len2);
			s = len >= 1e-9f ? k * (len - rest[c]) / len : 0.0f;
		}
		float s1 = s * ra[c], s2 = s * rb[c];
		p1[0] -= s1 * dx, p1[1] -= s1 * dy, p1[2] -= s1 * dz;
		p2[0] += s2 * dx, p2[1] += s2 * dy, p2[2] += s2 * dz;
	}
}
static void KernelScalar(Lab* L, int from, int end, float k) { ScalarVariant(L, from, end, k, 0); }
static void KernelScalarNewton(Lab* L, int from, int end, float k) { ScalarVariant(L, from, end, k, 1); }

static void KernelSoaGather(Lab* L, int from, int end, float k)
{
	float *X = L->x, *Y = L->y, *Z = L->z, *W = L->w;
	const int32_t *ca = L->ca, *cb = L->cb;
	const float* rest = L->rest;
	KERNEL_CONSTANTS(k);
	for (int c = from; c + 4 <= end; c += 4) {
		const int32_t a0 = ca[c], a1 = ca[c + 1], a2 = ca[c + 2], a3 = ca[c + 3];
		const int32_t b0 = cb[c], b1 = cb[c + 1], b2 = cb[c + 2], b3 = cb[c + 3];
		pbdF4 ax = pbdF4_Set(X[a0], X[a1], X[a2], X[a3]), ay = pbdF4_Set(Y[a0], Y[a1], Y[a2], Y[a3]);
		pbdF4 az = pbdF4_Set(Z[a0], Z[a1], Z[a2], Z[a3]), aw = pbdF4_Set(W[a0], W[a1], W[a2], W[a3]);
		pbdF4 bx = pbdF4_Set(X[b0], X[b1], X[b2], X[b3]), by = pbdF4_Set(Y[b0], Y[b1], Y[b2], Y[b3]);
		pbdF4 bz = pbdF4_Set(Z[b0], Z[b1], Z[b2], Z[b3]), bw = pbdF4_Set(W[b0], W[b1], W[b2], W[b3]);
		PROJECT(pbdF4_Load(rest + c));
		X[a0] = ax[0], X[a1] = ax[1], X[a2] = ax[2], X[a3] = ax[3];
		Y[a0] = ay[0], Y[a1] = ay[1], Y[a2] = ay[2], Y[a3] = ay[3];
		Z[a0] = az[0], Z[a1] = az[1], Z[a2] = az[2], Z[a3] = az[3];
		X[b0] = bx[0], X[b1] = bx[1], X[b2] = bx[2], X[b3] = bx[3];
		Y[b0] = by[0], Y[b1] = by[1], Y[b2] = by[2], Y[b3] = by[3];
		Z[b0] = bz[0], Z[b1] = bz[1], Z[b2] = bz[2], Z[b3] = bz[3];
	}
}

/* soa-grid: constraint (a, b) for lanes a..a+3 and b..b+3, consecutive particles. */
static inline void ProjectContiguous(Lab* L, int a, int b, pbdF4 restv, pbdF4 kv, pbdF4 zero, pbdF4 eps)
{
	float *X = L->x, *Y = L->y, *Z = L->z, *W = L->w;
	pbdF4 ax = pbdF4_Load(X + a), ay = pbdF4_Load(Y + a), az = pbdF4_Load(Z + a), aw = pbdF4_Load(W + a);
	pbdF4 bx = pbdF4_Load(X + b), by = pbdF4_Load(Y + b), bz = pbdF4_Load(Z + b), bw = pbdF4_Load(W + b);
	PROJECT(restv);
	pbdF4_Store(X + a, ax), pbdF4_Store(Y + a, ay), pbdF4_Store(Z + a, az);
	pbdF4_Store(X + b, bx), pbdF4_Store(Y + b, by), pbdF4_Store(Z + b, bz);
}

/* Along a row, (i, i + d) for 4 constraints: with d = 1 the lanes are i, i+2, i+4, i+6 and
   their right neighbours: 8 consecutive particles split into even and odd. With d = 2 the
   lanes are i, i+1, i+4, i+5 and i+2, i+3, i+6, i+7. */
static inline void ProjectRow(Lab* L, int a, int d, pbdF4 restv, pbdF4 kv, pbdF4 zero, pbdF4 eps)
{
	float *X = L->x + a, *Y = L->y + a, *Z = L->z + a, *W = L->w + a;
	pbdF4 ax, ay, az, aw, bx, by, bz, bw;
	/* split 8 consecutive values into the a lanes and the b lanes (unpack shuffles only) */
#define SPLIT(P, A, B)                                                                                                 \
	do {                                                                                                               \
		pbdF4 lo = pbdF4_Load(P), hi = pbdF4_Load((P) + 4);                                                            \
		if (d == 1) {                                                                                                  \
			pbdF4 t0 = PBD_SHUFFLE(lo, hi, 0, 4, 1, 5), t1 = PBD_SHUFFLE(lo, hi, 2, 6, 3, 7);                           \
			A = PBD_SHUFFLE(t0, t1, 0, 4, 1, 5), B = PBD_SHUFFLE(t0, t1, 2, 6, 3, 7);                                   \
		} else {                                                                                                       \
			A = PBD_SHUFFLE(lo, hi, 0, 1, 4, 5), B = PBD_SHUFFLE(lo, hi, 2, 3, 6, 7);                                   \
		}                                                                                                              \
	} while (0)
#define MERGE(P, A, B)                                                                                                 \
	do {                                                                                                               \
		if (d == 1) pbdF4_Store(P, PBD_SHUFFLE(A, B, 0, 4, 1, 5)), pbdF4_Store((P) + 4, PBD_SHUFFLE(A, B, 2, 6, 3, 7)); \
		else pbdF4_Store(P, PBD_SHUFFLE(A, B, 0, 1, 4, 5)), pbdF4_Store((P) + 4, PBD_SHUFFLE(A, B, 2, 3, 6, 7));        \
	} while (0)
	SPLIT(X, ax, bx);
	SPLIT(Y, ay, by);
	SPLIT(Z, az, bz);
	SPLIT(W, aw, bw);
	PROJECT(restv);
	MERGE(X, ax, bx);
	MERGE(Y, ay, by);
	MERGE(Z, az, bz);
#undef SPLIT
#undef MERGE
}

/* One pass of every constraint with the structured colouring; the row tails (res is not a
   multiple of the batch) are skipped: they are < 3% of the constraints at 316 and the
   count of projections done is returned so ns/projection stays honest. */
static long PassSoaGrid(Lab* L, const float k[3], int parts)
{
	const int R = L->res;
	const float h = 2.0f / (float)(R - 1);
	const pbdF4 zero = pbdF4_Splat(0.0f), eps = pbdF4_Splat(1e-9f);
	long done = 0;
	/* stretch: along rows (i even, then odd), then down columns (rows j even, then odd) */
	{
		const pbdF4 kv = pbdF4_Splat(k[0]), r = pbdF4_Splat(h);
		for (int par = 0; par < 2; ++par)
			for (int j = 0; j < R; ++j)
				for (int i = par; i + 8 <= R && (parts & 1); i += 8) ProjectRow(L, j * R + i, 1, r, kv, zero, eps), done += 4;
		for (int par = 0; par < 2; ++par)
			for (int j = par; j + 1 < R; j += 2)
				for (int i = 0; i + 4 <= R && (parts & 2); i += 4) ProjectContiguous(L, j * R + i, (j + 1) * R + i, r, kv, zero, eps), done += 4;
	}
	/* shear: diagonals then anti-diagonals, rows by parity */
	{
		const pbdF4 kv = pbdF4_Splat(k[1]), r = pbdF4_Splat(h * sqrtf(2.0f));
		for (int par = 0; par < 2; ++par)
			for (int j = par; j + 1 < R; j += 2)
				for (int i = 0; i + 5 <= R && (parts & 2); i += 4) ProjectContiguous(L, j * R + i, (j + 1) * R + i + 1, r, kv, zero, eps), done += 4;
		for (int par = 0; par < 2; ++par)
			for (int j = par; j + 1 < R; j += 2)
				for (int i = 0; i + 5 <= R && (parts & 2); i += 4) ProjectContiguous(L, j * R + i + 1, (j + 1) * R + i, r, kv, zero, eps), done += 4;
	}
	/* bend: along rows (pairs of lanes), then down columns (rows j mod 4 in {0, 1}, then {2, 3}) */
	{
		const pbdF4 kv = pbdF4_Splat(k[2]), r = pbdF4_Splat(2.0f * h);
		for (int par = 0; par < 2; ++par)
			for (int j = 0; j < R; ++j)
				for (int i = 2 * par; i + 8 <= R && (parts & 1); i += 8) ProjectRow(L, j * R + i, 2, r, kv, zero, eps), done += 4;
		for (int par = 0; par < 2; ++par)
			for (int j = 0; j + 2 < R; ++j) {
				if (((j >> 1) & 1) != par) continue;
				for (int i = 0; i + 4 <= R && (parts & 2); i += 4) ProjectContiguous(L, j * R + i, (j + 2) * R + i, r, kv, zero, eps), done += 4;
			}
	}
	return done;
}

/* ---------------------------------------------------------------- driver */

typedef void (*Kernel)(Lab*, int, int, float);

static double TimeColoured(Lab* L, Kernel kernel, int passes, const float k[3])
{
	Reset(L);
	double best = 1e30;
	for (int rep = 0; rep < 5; ++rep) {
		long done = 0;
		double t0 = NowNs();
		for (int pass = 0; pass < passes; ++pass) {
			for (int c = 0; c < L->colourCount; ++c) {
				const Colour* col = &L->colours[c];
				int group = c < 4 ? 0 : c < 8 ? 1 : 2; /* 4 colours per group on a grid */
				kernel(L, col->first, col->end, k[group]);
				done += (col->end - col->first) / 4 * 4;
			}
		}
		double ns = (NowNs() - t0) / (double)done;
		if (ns < best) best = ns;
	}
	return best;
}

static double TimeGrid(Lab* L, int passes, const float k[3], int parts)
{
	Reset(L);
	double best = 1e30;
	for (int rep = 0; rep < 5; ++rep) {
		long done = 0;
		double t0 = NowNs();
		for (int pass = 0; pass < passes; ++pass) done += PassSoaGrid(L, k, parts);
		double ns = (NowNs() - t0) / (double)done;
		if (ns < best) best = ns;
	}
	return best;
}

int main(int argc, char** argv)
{
	int res = argc > 1 ? atoi(argv[1]) : 316;
	int passes = argc > 2 ? atoi(argv[2]) : 100;
	if (res < 16 || res > 2048 || passes < 1) {
		fprintf(stderr, "usage: bench_kernel_lab [RES >= 16 [PASSES]]\n");
		return 2;
	}
	Lab L;
	BuildLab(&L, res);
	/* per-pass k' of the benchmark: stretch 1, shear 1, bend 1 - 0.9^(1/10) */
	const float k[3] = { 1.0f, 1.0f, 1.0f - powf(0.9f, 0.1f) };
	printf("kernel lab: %d x %d cloth, %d constraints in %d colours, best of 5 x %d passes\n", res, res, L.m, L.colourCount, passes);
	if (L.colourCount != 12) printf("(expected 12 colours; the per-group k' above assumes 4 per group)\n");
	struct {
		const char* name;
		Kernel kernel;
	} variants[] = {
		{ "engine", KernelEngine },
		{ "no-math", KernelNoMath },
		{ "mask-once", KernelMaskOnce },
		{ "unroll2", KernelUnroll2 },
		{ "soa-gather", KernelSoaGather },
		{ "bcast", KernelBcast },
		{ "bcast-full", KernelBcastFull },
		{ "bcast-runs", KernelBcastRuns },
		{ "soa-runs", KernelSoaRuns },
		{ "runs-newton", KernelRunsNewton },
		{ "runs-nodiv", KernelRunsNoDiv },
		{ "runs-pipe", KernelRunsPipe },
		{ "runs-u2", KernelRunsU2 },
		{ "u2-nomath", KernelRunsNoMath },
		{ "off-path", KernelOffPath },
		{ "runs-reload", KernelRunsReload },
		{ "scalar", KernelScalar },
		{ "scalar-newt", KernelScalarNewton },
	};
	double base = 0.0;
	for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
		double ns = TimeColoured(&L, variants[v].kernel, passes, k);
		if (v == 0) base = ns;
		printf("  %-11s %6.3f ns/projection  %7.1f Mproj/s  %5.2fx the engine's time\n", variants[v].name, ns, 1e3 / ns, ns / base);
	}
	static const char* const gridNames[] = { "", "  rows", "  columns", "soa-grid" };
	for (int parts = 3; parts >= 1; --parts) {
		double ns = TimeGrid(&L, passes, k, parts);
		printf("  %-11s %6.3f ns/projection  %7.1f Mproj/s  %5.2fx the engine's time%s\n", gridNames[parts], ns, 1e3 / ns, ns / base,
			   parts == 1 ? "  (along rows: 8 loads + 8-16 shuffles per side pair)" : parts == 2 ? "  (down columns and diagonals: plain loads)" : "");
	}
	return 0;
}
