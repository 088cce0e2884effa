/* builders/cloth.c -- a rectangular cloth: particle (i, j) at origin + U i/(nu-1) + V j/(nv-1),
   stretch constraints between grid neighbours, shear across each quad's diagonals, bending
   between particles two apart along the grid (distance bending: cheap and order-independent),
   and two triangles per quad for the render mesh and the wind. */
#include "builders/builder.h"
#include "families/distance.h"

#include <math.h>
#include <string.h>

pbdClothDef pbd_DefaultClothDef(void)
{
	pbdClothDef def;
	memset(&def, 0, sizeof def);
	def.axisU[0] = 1.0f;
	def.axisV[1] = -1.0f;
	def.resolutionU = 16;
	def.resolutionV = 16;
	def.mass = 0.01f;
	def.internalValue = PBD_COOKIE;
	return def;
}

static void ClothKindCounts(int64_t nu, int64_t nv, int64_t counts[3])
{
	counts[pbdKind_stretch] = (nu - 1) * nv + nu * (nv - 1);
	counts[pbdKind_shear] = 2 * (nu - 1) * (nv - 1);
	counts[pbdKind_bend] = (nu - 2) * nv + nu * (nv - 2);
}

void pbd_ClothCounts(int32_t nu, int32_t nv, int32_t* particles, int32_t* constraints, int32_t* triangles)
{
	if (nu < 2 || nv < 2 || (int64_t)nu * nv > PBD_MAX_PARTICLES) {
		if (particles) *particles = 0;
		if (constraints) *constraints = 0;
		if (triangles) *triangles = 0;
		return;
	}
	int64_t k[3];
	ClothKindCounts(nu, nv, k);
	if (particles) *particles = nu * nv;
	if (constraints) *constraints = (int32_t)(k[0] + k[1] + k[2]);
	if (triangles) *triangles = 2 * (nu - 1) * (nv - 1);
}

int pbd_World_AddCloth(pbdWorldId id, const pbdClothDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	int err;
	if ((err = pbd_CheckNoStep(w, "pbd_World_AddCloth")) != PBD_OK) return err;
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetWorldError(w, PBD_ERR_BAD_DEF, "use pbd_DefaultClothDef()");
	if ((err = pbd_CheckVec(w, def->origin, "cloth origin")) != PBD_OK) return err;
	if ((err = pbd_CheckVec(w, def->axisU, "cloth axisU")) != PBD_OK) return err;
	if ((err = pbd_CheckVec(w, def->axisV, "cloth axisV")) != PBD_OK) return err;
	/* Every particle within the world bound too: each coordinate below is monotone in s and t,
	   so the four corners, computed the same way, bound them all (found by tests/fuzz). */
	for (int corner = 0; corner < 4; ++corner) {
		float s = (float)(corner & 1), t = (float)(corner >> 1), c[3];
		for (int k = 0; k < 3; ++k) c[k] = def->origin[k] + def->axisU[k] * s + def->axisV[k] * t;
		if ((err = pbd_CheckVec(w, c, "cloth corner (origin + axisU, axisV)")) != PBD_OK) return err;
	}
	if ((err = pbd_Builder_CheckMass(w, def->mass)) != PBD_OK) return err;
	int nu = def->resolutionU, nv = def->resolutionV;
	if (nu < 2 || nv < 2 || (int64_t)nu * nv > PBD_MAX_PARTICLES) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "cloth resolution %d x %d: each side >= 2 and at most %d particles",
							nu, nv, PBD_MAX_PARTICLES);
	}
	int32_t particles, constraints, triangles;
	pbd_ClothCounts(nu, nv, &particles, &constraints, &triangles);
	if ((err = pbd_Builder_CheckRoom(w, particles, constraints, triangles, 0)) != PBD_OK) return err;
	/* its particles are spheres of thickness / 2, at most PBD_MAX_RADIUS_SPACINGS spacings (minipbd.h): the finer
	   grid step, or twice the root of the area per particle when the axes are so far from square that rows crowd
	   together (parallel axes: 0); never the latter for square axes (2 sqrt(su sv) > min(su, sv)), so a scene's
	   cloth, in plane xy or xz, has the grid step the JS validator computes */
	const float* u = def->axisU;
	const float* v = def->axisV;
	const float su = sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) / (float)(nu - 1);
	const float sv = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / (float)(nv - 1);
	const float c[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
	const float area = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / ((float)(nu - 1) * (float)(nv - 1));
	float spacing = su < sv ? su : sv;
	const float crowded = 2.0f * sqrtf(area);
	spacing = crowded < spacing ? crowded : spacing;
	err = pbd_CheckRadiusSpacing(w, "thickness", w->params[pbdParam_thickness], 2.0f * PBD_MAX_RADIUS_SPACINGS, spacing, "this cloth's");
	if (err != PBD_OK) return err;

	const int first = w->particleCount;
	const int object = w->objectCount;
	pbdObjectInfo* info = pbd_Builder_BeginObject(w, 1);
	w->materials[object].flags |= PBD_MATERIAL_SHEET; /* water stays on its side (families/fluid_sheets.c) */
	w->objectSpacing[object] = spacing;
	/* the nearest two particles its stretch edges do not join: a square's diagonal, or two steps along the finer axis;
	   known only for square axes (skew ones can bring other rows nearer) */
	const float dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
	if ((dot < 0.0f ? -dot : dot) <= 1e-4f * sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])) {
		const float diagonal = sqrtf(su * su + sv * sv), two = 2.0f * (su < sv ? su : sv);
		w->materials[object].edgeCover = diagonal < two ? diagonal : two;
	}
	const float invMass = 1.0f / def->mass;
	for (int j = 0; j < nv; ++j) {
		float t = (float)j / (float)(nv - 1);
		for (int i = 0; i < nu; ++i) {
			float s = (float)i / (float)(nu - 1);
			pbd_Builder_AddParticle(w, def->origin[0] + def->axisU[0] * s + def->axisV[0] * t,
									def->origin[1] + def->axisU[1] * s + def->axisV[1] * t,
									def->origin[2] + def->axisU[2] * s + def->axisV[2] * t, invMass);
		}
	}
	info->resolutionU = nu;
	info->resolutionV = nv;
#define IDX(i, j) (first + (j) * nu + (i))
	/* Row-major order keeps each Gauss-Seidel sweep moving through memory. Within that, the
	   order is chosen so that greedy colouring (distance_colouring.c) puts runs of evenly
	   spaced constraints in each colour, which the solver projects 4 at a time without loading
	   indices: along a row, the edges at even i, then odd i (bends: i mod 4 = 0, 2, 1, 3); the
	   columns and diagonals row by row. A grid still gets 4 colours per group. Each group is
	   coloured for the 4-wide solver as it is closed. */
	pbd_Distance_BeginGroup(w, pbdKind_stretch, object);
	for (int j = 0; j < nv; ++j) {
		for (int parity = 0; parity < 2; ++parity) {
			for (int i = parity; i + 1 < nu; i += 2) pbd_Distance_Add(w, IDX(i, j), IDX(i + 1, j));
		}
	}
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i < nu; ++i) pbd_Distance_Add(w, IDX(i, j), IDX(i, j + 1));
	}
	pbd_Distance_EndGroup(w, 1, first, particles);
	pbd_Distance_BeginGroup(w, pbdKind_shear, object);
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i + 1 < nu; ++i) pbd_Distance_Add(w, IDX(i, j), IDX(i + 1, j + 1));
	}
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i + 1 < nu; ++i) pbd_Distance_Add(w, IDX(i + 1, j), IDX(i, j + 1));
	}
	pbd_Distance_EndGroup(w, 1, first, particles);
	pbd_Distance_BeginGroup(w, pbdKind_bend, object);
	for (int j = 0; j < nv; ++j) {
		static const int startOf[4] = { 0, 2, 1, 3 };
		for (int r = 0; r < 4; ++r) {
			for (int i = startOf[r]; i + 2 < nu; i += 4) pbd_Distance_Add(w, IDX(i, j), IDX(i + 2, j));
		}
	}
	for (int j = 0; j + 2 < nv; ++j) {
		for (int i = 0; i < nu; ++i) pbd_Distance_Add(w, IDX(i, j), IDX(i, j + 2));
	}
	pbd_Distance_EndGroup(w, 1, first, particles);
	/* Two triangles per quad, wound so the front face's normal is axisV x axisU:
	   toward +z for the default hanging cloth (U = +x, V = -y). */
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i + 1 < nu; ++i) {
			uint32_t* t = w->triangles + 3 * w->triangleCount;
			t[0] = (uint32_t)IDX(i, j);
			t[1] = (uint32_t)IDX(i, j + 1);
			t[2] = (uint32_t)IDX(i + 1, j);
			t[3] = (uint32_t)IDX(i + 1, j);
			t[4] = (uint32_t)IDX(i, j + 1);
			t[5] = (uint32_t)IDX(i + 1, j + 1);
			w->triangleCount += 2;
		}
	}
#undef IDX
	info->triangleCount = triangles;
	pbd_Builder_EndObject(w);
	PBD_ASSERT(info->constraintCount == constraints);
	return first;
}
