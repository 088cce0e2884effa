/* wind.c -- aerodynamic drag and lift on cloth triangles, as external forces.

   For a triangle of area A and unit normal n moving at v_rel = v_triangle - v_wind
   through air of density rho (the thin-plate model of Keckeisen et al. 2004, as used by
   NVIDIA Flex):
     drag  F_d = -1/2 rho A C_d |v_rel| (v_rel . n) n                 (pressure on the face)
     lift  F_l = -1/2 rho A C_l (v_rel . n) |v_rel| (n - cos(theta) v_rel/|v_rel|)
   with cos(theta) = (v_rel . n)/|v_rel|; the lift is perpendicular to the flow, which is
   what makes a flag flutter. Each vertex gets a third. The forces are explicit, so a
   triangle's push is capped at a sixth of what would stop its normal motion relative to the
   air in one substep (a grid vertex is in up to 6 triangles, whose pushes add): a light
   cloth in a gale cannot gain energy from the integrator. */
#include "families/family.h"

#include <math.h>
#include <string.h>

static void Accumulate(pbdWorld* w, float h)
{
	const int n = w->particleCount;
	memset(w->force, 0, (size_t)n * 4 * sizeof(float));
	const float rho = w->params[pbdParam_airDensity];
	const float cd = w->params[pbdParam_drag], cl = w->params[pbdParam_lift];
	const float wx = w->params[pbdParam_windX], wy = w->params[pbdParam_windY], wz = w->params[pbdParam_windZ];
	for (int t = 0; t < w->triangleCount; ++t) {
		const uint32_t* tri = w->triangles + 3 * t;
		const float *a = w->x + 4 * tri[0], *b = w->x + 4 * tri[1], *c = w->x + 4 * tri[2];
		float wmax = a[3] > b[3] ? a[3] : b[3];
		if (c[3] > wmax) wmax = c[3];
		if (wmax <= 0.0f) continue; /* all pinned */
		float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		float nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2], nz = e1[0] * e2[1] - e1[1] * e2[0];
		float len = sqrtf(nx * nx + ny * ny + nz * nz);
		if (len < 1e-12f) continue; /* degenerate: no normal, no area */
		float area = 0.5f * len;
		nx /= len, ny /= len, nz /= len;
		const float *va = w->v + 4 * tri[0], *vb = w->v + 4 * tri[1], *vc = w->v + 4 * tri[2];
		float rx = (va[0] + vb[0] + vc[0]) / 3.0f - wx;
		float ry = (va[1] + vb[1] + vc[1]) / 3.0f - wy;
		float rz = (va[2] + vb[2] + vc[2]) / 3.0f - wz;
		float speed = sqrtf(rx * rx + ry * ry + rz * rz);
		if (speed < 1e-9f) continue;
		float vn = rx * nx + ry * ny + rz * nz;
		float q = 0.5f * rho * area;
		float drag = -q * cd * speed * vn;
		float lift = -q * cl * vn * speed;
		float cosT = vn / speed;
		float fx = drag * nx + lift * (nx - cosT * rx / speed);
		float fy = drag * ny + lift * (ny - cosT * ry / speed);
		float fz = drag * nz + lift * (nz - cosT * rz / speed);
		/* cap: the normal velocity change of the lightest vertex must not exceed |vn|, summed
		   over every triangle it is in (up to 6 in a grid cloth), or a light cloth's vertices
		   overshoot the air's speed and the drag pumps energy in (FamilyWindNeverReverses) */
		float fn = fabsf(fx * nx + fy * ny + fz * nz);
		float dvn = 6.0f * h * wmax * fn / 3.0f;
		if (dvn > fabsf(vn)) {
			float s = fabsf(vn) / dvn;
			fx *= s, fy *= s, fz *= s;
		}
		for (int k = 0; k < 3; ++k) {
			float* f = w->force + 4 * tri[k];
			f[0] += fx / 3.0f;
			f[1] += fy / 3.0f;
			f[2] += fz / 3.0f;
		}
	}
}

/* The forces hook: aerodynamics needs air, a coefficient and triangles to act on. */
static void Wind_Forces(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	const float* params = w->params;
	if (!(params[pbdParam_airDensity] > 0.0f) || !(params[pbdParam_drag] > 0.0f || params[pbdParam_lift] > 0.0f) ||
		w->triangleCount == 0) {
		return;
	}
	Accumulate(w, ctx->h);
	w->forceActive = 1;
}

const pbdFamily pbd_family_wind = {
	.name = "wind",
	.forces = Wind_Forces,
};
