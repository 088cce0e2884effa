/* test_contacts.h -- helpers of the contact tests (test_self_collision.c, test_contact_scenes.c):
   worlds, chains and cloths, and the O(n^2) pair reference. */
#ifndef PBD_TEST_CONTACTS_H
#define PBD_TEST_CONTACTS_H

#include "families/contacts.h"
#include "services/materials.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline pbdWorldId MakeWorld(int maxParticles, int maxContacts)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = maxParticles;
	def.maxContacts = maxContacts;
	def.maxObjects = 32;
	return TestCreateWorld(&def);
}

static inline const float* Pos(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }

static inline int AddChain(pbdWorldId w, float ax, float ay, float az, float bx, float by, float bz, int segments)
{
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = ax, def.start[1] = ay, def.start[2] = az;
	def.end[0] = bx, def.end[1] = by, def.end[2] = bz;
	def.segments = segments;
	def.mass = 0.01f;
	return pbd_World_AddChain(w, &def);
}

/* n x n cloth in a plane spanned by u and v (whole edges), particle spacing |u| / (n - 1). */
static inline int AddCloth(pbdWorldId w, int n, float ox, float oy, float oz, const float u[3], const float v[3])
{
	pbdClothDef def = pbd_DefaultClothDef();
	def.origin[0] = ox, def.origin[1] = oy, def.origin[2] = oz;
	memcpy(def.axisU, u, sizeof def.axisU);
	memcpy(def.axisV, v, sizeof def.axisV);
	def.resolutionU = n;
	def.resolutionV = n;
	def.mass = 0.01f;
	return pbd_World_AddCloth(w, &def);
}

static inline int CompareKeys(const void* a, const void* b)
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return (x > y) - (x < y);
}

static inline int ObjectOf(pbdWorldId id, int particle)
{
	for (int o = 0; o < pbd_World_GetObjectCount(id); ++o) {
		pbdObjectInfo info;
		pbd_World_GetObjectInfo(id, o, &info);
		if (particle >= info.firstParticle && particle < info.firstParticle + info.particleCount) return o;
	}
	return -1;
}

/* The contacts' rule for how far the rest-pose filter reaches (contacts_list.c ContactFilter), restated: out to the
   search radius M D when every self-colliding object's rest pairs that near are its structural edges (its
   material's edgeCover past 1.001 x its search radius; the contacts then list those edges apart), else D. */
static inline int EdgesCover(const pbdWorld* w)
{
	for (int32_t o = 0; o < w->objectCount; ++o) {
		const float r = pbd_Material_ContactRadius(w, o);
		const pbdObjectInfo* info = &w->objects[o];
		if (pbd_Material_InPairContacts(w, o) && info->particleCount > 0 && (w->phase[info->firstParticle] & PBD_PHASE_SELF) &&
			!(w->materials[o].edgeCover > 1.001f * ((r + r) * PBD_CONTACT_MARGIN)))
			return 0;
	}
	return 1;
}

/* O(n^2) reference: pairs closer than r, not both pinned, not rest-pose neighbours of one object
   (closer at rest than the thickness, or M x the thickness when EdgesCover). Returns the count; keys
   (i * n + j, i < j) sorted into out. */
static inline int PairsWithin(pbdWorldId id, float r, int64_t* out)
{
	const pbdWorld* w = pbd_GetWorld(id);
	const int n = w->particleCount;
	const float t = w->params[pbdParam_thickness];
	const float rest = EdgesCover(w) ? t * PBD_CONTACT_MARGIN : t;
	const float r2 = r * r, t2 = rest * rest;
	int* object = malloc(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; ++i) object[i] = ObjectOf(id, i);
	int count = 0;
	for (int i = 0; i < n; ++i) {
		const float* a = w->p + 4 * i;
		for (int j = i + 1; j < n; ++j) {
			const float* b = w->p + 4 * j;
			float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
			if (dx * dx + dy * dy + dz * dz >= r2) continue;
			if (a[3] == 0.0f && b[3] == 0.0f) continue;
			if (object[i] == object[j]) {
				const float* ra = w->rest0 + 4 * i;
				const float* rb = w->rest0 + 4 * j;
				float ex = ra[0] - rb[0], ey = ra[1] - rb[1], ez = ra[2] - rb[2];
				if (ex * ex + ey * ey + ez * ez < t2) continue;
			}
			if (out) out[count] = (int64_t)i * n + j;
			count += 1;
		}
	}
	free(object);
	if (out) qsort(out, (size_t)count, sizeof *out, CompareKeys);
	return count;
}

#endif
