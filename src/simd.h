/* simd.h -- the one place that knows about SIMD.

   pbdF4 is four floats that the compiler maps to one 128-bit register: wasm SIMD
   (-msimd128) on the web, SSE natively, through GCC/clang vector extensions. Building
   with -DPBD_SCALAR=1 swaps in a plain struct with the same element-wise operations.
   Element-wise IEEE add/sub/mul/div/sqrt round identically in both, so the scalar and
   SIMD builds give the same bits (tests/c/test_solver.c checks it). Nothing here may
   reassociate or fuse: the build uses -ffp-contract=off.
*/
#ifndef PBD_SIMD_H
#define PBD_SIMD_H

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
#endif

#endif
