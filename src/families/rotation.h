/* families/rotation.h -- the rotational part of a 3x3 matrix (Mueller, Bender, Chentanez and
   Macklin 2016, "A robust method to extract the rotational part of deformations") and the unit
   quaternion algebra shape matching shares. Quaternions are (x, y, z, w), as pbdColliderDef's
   rotation; matrices are row-major float[9]. Only + - * / and sqrtf: the same bits on every
   build (native, scalar, wasm), no libm trigonometry. */
#ifndef PBD_ROTATION_H
#define PBD_ROTATION_H

#include <stdint.h>

/// The rotation R(q) nearest to A (the R of A's polar decomposition A = R S, S symmetric
/// positive), by Mueller et al. 2016's iteration warm-started from q: q in is the start, q out
/// the result (unit). Before iterating, the best of q, q i, q j, q k (largest tr(R^T A)) is
/// taken, so a start up to 180 degrees off converges. A zero or non-finite A leaves q as it is
/// (normalised). At most maxIterations steps; fewer when the step falls below ~1e-7 rad.
void pbd_ExtractRotation(const float A[9] /* row-major */, float q[4] /* in: warm start, out */, int32_t maxIterations);

/// R = R(q) (row-major) for a unit q.
static inline void pbd_QuatToMatrix(const float q[4], float R[9])
{
	const float x = q[0], y = q[1], z = q[2], w = q[3];
	const float xx = x * x, yy = y * y, zz = z * z;
	const float xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
	R[0] = 1.0f - 2.0f * (yy + zz), R[1] = 2.0f * (xy - wz), R[2] = 2.0f * (xz + wy);
	R[3] = 2.0f * (xy + wz), R[4] = 1.0f - 2.0f * (xx + zz), R[5] = 2.0f * (yz - wx);
	R[6] = 2.0f * (xz - wy), R[7] = 2.0f * (yz + wx), R[8] = 1.0f - 2.0f * (xx + yy);
}

/// out = a b (rotation b first, then a); out may alias a or b.
static inline void pbd_QuatMul(const float a[4], const float b[4], float out[4])
{
	const float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	const float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	const float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	const float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
	out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

#endif
