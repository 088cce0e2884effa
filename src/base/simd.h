/* simd.h -- the one place that knows about SIMD.

   pbdF4 is four floats that the compiler maps to one 128-bit register: wasm SIMD
   (-msimd128) on the web, SSE natively, through GCC/clang vector extensions. Building
   with -DPBD_SCALAR=1 swaps in a plain struct with the same element-wise operations.
   Element-wise IEEE add/sub/mul/div/sqrt round identically in both, so the scalar and
   SIMD builds give the same bits (the scalar test build, build/test_scalar, checks it). Nothing here may
   reassociate or fuse: the build uses -ffp-contract=off.
*/
#ifndef PBD_SIMD_H
#define PBD_SIMD_H

#include <stdint.h>
#include <string.h>

#if !defined(PBD_SCALAR) || PBD_SCALAR == 0
#define PBD_SIMD 1
typedef float pbdF4 __attribute__((vector_size(16), aligned(16)));

static inline pbdF4 pbdF4_Load(const float* p) { pbdF4 r; memcpy(&r, p, 16); return r; }
static inline void pbdF4_Store(float* p, pbdF4 v) { memcpy(p, &v, 16); }
static inline pbdF4 pbdF4_Set(float x, float y, float z, float w) { pbdF4 r = { x, y, z, w }; return r; }
static inline pbdF4 pbdF4_Splat(float s) { pbdF4 r = { s, s, s, s }; return r; }
static inline pbdF4 pbdF4_Add(pbdF4 a, pbdF4 b) { return a + b; }
static inline pbdF4 pbdF4_Sub(pbdF4 a, pbdF4 b) { return a - b; }
static inline pbdF4 pbdF4_Mul(pbdF4 a, pbdF4 b) { return a * b; }
static inline pbdF4 pbdF4_Div(pbdF4 a, pbdF4 b) { return a / b; }
static inline float pbdF4_Get(pbdF4 a, int i) { return a[i]; }

typedef int32_t pbdI4 __attribute__((vector_size(16), aligned(16)));
#if defined(__clang__)
#define PBD_SHUFFLE(a, b, i0, i1, i2, i3) __builtin_shufflevector(a, b, i0, i1, i2, i3)
#else
#define PBD_SHUFFLE(a, b, i0, i1, i2, i3) __builtin_shuffle(a, b, (pbdI4){ i0, i1, i2, i3 })
#endif

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
static inline pbdF4 pbdF4_Sqrt(pbdF4 a) { return (pbdF4)wasm_f32x4_sqrt((v128_t)a); }
#elif defined(__SSE2__)
#include <emmintrin.h>
static inline pbdF4 pbdF4_Sqrt(pbdF4 a) { return (pbdF4)_mm_sqrt_ps((__m128)a); }
#else
#include <math.h>
static inline pbdF4 pbdF4_Sqrt(pbdF4 a)
{
	pbdF4 r = { sqrtf(a[0]), sqrtf(a[1]), sqrtf(a[2]), sqrtf(a[3]) };
	return r;
}
#endif

/* Lane masks are all-ones or zero: a > b, a >= b, a & b, and choose(m, a, b) = m ? a : b. */
typedef pbdI4 pbdMask4;
static inline pbdMask4 pbdF4_Greater(pbdF4 a, pbdF4 b) { return a > b; }
static inline pbdMask4 pbdF4_GreaterEq(pbdF4 a, pbdF4 b) { return a >= b; }
static inline pbdMask4 pbdMask4_And(pbdMask4 a, pbdMask4 b) { return a & b; }
static inline pbdF4 pbdF4_Select(pbdMask4 m, pbdF4 a, pbdF4 b) { return (pbdF4)((m & (pbdI4)a) | (~m & (pbdI4)b)); }
/* m ? a : +0, one AND */
static inline pbdF4 pbdF4_Keep(pbdMask4 m, pbdF4 a) { return (pbdF4)(m & (pbdI4)a); }
/* (x, y, z, +0): a float4 particle difference without its w lane */
static inline pbdF4 pbdF4_ZeroW(pbdF4 a)
{
	const pbdI4 xyz = { -1, -1, -1, 0 };
	return (pbdF4)(xyz & (pbdI4)a);
}
/* (a[i], a[i], a[i], a[i]) for a constant i: one pshufd / i32x4.shuffle */
#define pbdF4_SplatLane(a, i) PBD_SHUFFLE(a, a, i, i, i, i)
/* |a| lane by lane (clears the sign bits) */
static inline pbdF4 pbdF4_Abs(pbdF4 a)
{
	const pbdI4 bits = { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff };
	return (pbdF4)(bits & (pbdI4)a);
}
/* bit k set where a[k] < b[k] (NaN: not set): one movemask / i32x4.bitmask */
static inline uint32_t pbdF4_LessBits(pbdF4 a, pbdF4 b)
{
	const pbdI4 m = a < b;
#if defined(__wasm_simd128__)
	return (uint32_t)wasm_i32x4_bitmask((v128_t)m);
#elif defined(__SSE2__)
	return (uint32_t)_mm_movemask_ps((__m128)m);
#else
	return (uint32_t)((m[0] & 1) | (m[1] & 2) | (m[2] & 4) | (m[3] & 8));
#endif
}

/* Rows to columns: four particles (x, y, z, w) become x4, y4, z4, w4. */
static inline void pbdF4_Transpose(pbdF4* r0, pbdF4* r1, pbdF4* r2, pbdF4* r3)
{
	pbdF4 t0 = PBD_SHUFFLE(*r0, *r1, 0, 4, 1, 5), t1 = PBD_SHUFFLE(*r2, *r3, 0, 4, 1, 5);
	pbdF4 t2 = PBD_SHUFFLE(*r0, *r1, 2, 6, 3, 7), t3 = PBD_SHUFFLE(*r2, *r3, 2, 6, 3, 7);
	*r0 = PBD_SHUFFLE(t0, t1, 0, 1, 4, 5);
	*r1 = PBD_SHUFFLE(t0, t1, 2, 3, 6, 7);
	*r2 = PBD_SHUFFLE(t2, t3, 0, 1, 4, 5);
	*r3 = PBD_SHUFFLE(t2, t3, 2, 3, 6, 7);
}
#else
#define PBD_SIMD 0
typedef struct pbdF4 { float v[4]; } pbdF4;

static inline pbdF4 pbdF4_Load(const float* p) { pbdF4 r; memcpy(r.v, p, 16); return r; }
static inline void pbdF4_Store(float* p, pbdF4 a) { memcpy(p, a.v, 16); }
static inline pbdF4 pbdF4_Set(float x, float y, float z, float w) { pbdF4 r = { { x, y, z, w } }; return r; }
static inline pbdF4 pbdF4_Splat(float s) { return pbdF4_Set(s, s, s, s); }
#define PBD_F4_OP(name, op)                                                   \
	static inline pbdF4 name(pbdF4 a, pbdF4 b)                                \
	{                                                                          \
		pbdF4 r;                                                               \
		for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] op b.v[i];                 \
		return r;                                                              \
	}
PBD_F4_OP(pbdF4_Add, +)
PBD_F4_OP(pbdF4_Sub, -)
PBD_F4_OP(pbdF4_Mul, *)
PBD_F4_OP(pbdF4_Div, /)
#undef PBD_F4_OP
static inline float pbdF4_Get(pbdF4 a, int i) { return a.v[i]; }

#include <math.h>
static inline pbdF4 pbdF4_Sqrt(pbdF4 a) { return pbdF4_Set(sqrtf(a.v[0]), sqrtf(a.v[1]), sqrtf(a.v[2]), sqrtf(a.v[3])); }

typedef struct pbdMask4 { int32_t v[4]; } pbdMask4;
static inline pbdMask4 pbdF4_Greater(pbdF4 a, pbdF4 b)
{
	pbdMask4 m;
	for (int i = 0; i < 4; ++i) m.v[i] = a.v[i] > b.v[i] ? -1 : 0;
	return m;
}
static inline pbdMask4 pbdF4_GreaterEq(pbdF4 a, pbdF4 b)
{
	pbdMask4 m;
	for (int i = 0; i < 4; ++i) m.v[i] = a.v[i] >= b.v[i] ? -1 : 0;
	return m;
}
static inline pbdMask4 pbdMask4_And(pbdMask4 a, pbdMask4 b)
{
	pbdMask4 m;
	for (int i = 0; i < 4; ++i) m.v[i] = a.v[i] & b.v[i];
	return m;
}
static inline pbdF4 pbdF4_Select(pbdMask4 m, pbdF4 a, pbdF4 b)
{
	pbdF4 r;
	for (int i = 0; i < 4; ++i) r.v[i] = m.v[i] ? a.v[i] : b.v[i];
	return r;
}
static inline pbdF4 pbdF4_Keep(pbdMask4 m, pbdF4 a)
{
	pbdF4 r;
	for (int i = 0; i < 4; ++i) r.v[i] = m.v[i] ? a.v[i] : 0.0f;
	return r;
}
static inline pbdF4 pbdF4_ZeroW(pbdF4 a)
{
	a.v[3] = 0.0f;
	return a;
}
static inline pbdF4 pbdF4_SplatLane(pbdF4 a, int i) { return pbdF4_Splat(a.v[i]); }
static inline pbdF4 pbdF4_Abs(pbdF4 a) { return pbdF4_Set(fabsf(a.v[0]), fabsf(a.v[1]), fabsf(a.v[2]), fabsf(a.v[3])); }
static inline uint32_t pbdF4_LessBits(pbdF4 a, pbdF4 b)
{
	uint32_t bits = 0;
	for (int k = 0; k < 4; ++k) bits |= (uint32_t)(a.v[k] < b.v[k]) << k;
	return bits;
}
static inline void pbdF4_Transpose(pbdF4* r0, pbdF4* r1, pbdF4* r2, pbdF4* r3)
{
	pbdF4* r[4] = { r0, r1, r2, r3 };
	for (int i = 0; i < 4; ++i) {
		for (int j = i + 1; j < 4; ++j) {
			float t = r[i]->v[j];
			r[i]->v[j] = r[j]->v[i];
			r[j]->v[i] = t;
		}
	}
}
#endif

#endif
