/* base/detmath.h -- arctangents that give the same bits on every build.

   libm's atan2 is not exactly rounded, and glibc (the native build) and musl (Emscripten's wasm)
   differ in the last bit for some arguments; an inside test that thresholds a sum of them would
   then keep different lattice cells on different builds. These use only +, -, *, / and sqrt,
   which IEEE 754 rounds exactly everywhere (with -ffp-contract=off, no fast-math), in one fixed
   order, so every build computes the same double. They are accurate to a few ulps, far below
   what the winding number (builders/winding.c) needs. */
#ifndef PBD_DETMATH_H
#define PBD_DETMATH_H

#include <math.h>

#define PBD_PI 3.14159265358979323846

/// atan(t) for |t| <= 1. Two half-angle steps, atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))), bring
/// |t| to at most tan(pi / 16) ~ 0.199; there the Taylor series to t^27 leaves a remainder below
/// 0.199^29 / 29 ~ 1e-22.
static inline double pbd_AtanUnit(double t)
{
	t = t / (1.0 + sqrt(1.0 + t * t));
	t = t / (1.0 + sqrt(1.0 + t * t));
	const double u = t * t;
	/* Horner, from the t^27 term down: s = sum_k (-1)^k u^k / (2k + 1), k = 0..13 */
	static const double c[13] = { 1.0 / 25.0, -1.0 / 23.0, 1.0 / 21.0, -1.0 / 19.0, 1.0 / 17.0, -1.0 / 15.0, 1.0 / 13.0,
								  -1.0 / 11.0, 1.0 / 9.0,  -1.0 / 7.0,  1.0 / 5.0,   -1.0 / 3.0,  1.0 };
	double s = -1.0 / 27.0;
	for (int k = 0; k < 13; ++k) s = c[k] + u * s;
	return 4.0 * t * s;
}

/// atan2(y, x) in (-pi, pi], 0 for (0, 0), by the half-angle identity atan2(y, x) =
/// 2 atan(y / (r + x)), r = |(x, y)|, whose argument is at most 1 in size for x >= 0; for x < 0,
/// atan2(y, x) = +-pi - atan2(y, -x).
static inline double pbd_Atan2(double y, double x)
{
	if (x == 0.0 && y == 0.0) return 0.0;
	const double r = sqrt(x * x + y * y);
	if (x >= 0.0) return 2.0 * pbd_AtanUnit(y / (r + x));
	const double t = 2.0 * pbd_AtanUnit(y / (r - x));
	return (y >= 0.0 ? PBD_PI : -PBD_PI) - t;
}

#endif
