/* services/surfaces.h -- what the particles' surfaces look like, for the families that push particles against
   them: a body particle's contact normal and lattice faces (Macklin et al. 2014 section 5.1; the particle contacts,
   contacts_bodies.c) and the structural edges a collider keeps out of itself (seed 001 section 4.3; colliders.c).
   The family that knows a surface provides it through a table of functions (its create sets world->normals or
   world->edges: the shapes family's bodies, the distance family's stretch and chain edges); the families that
   ask read it here and never call the provider, so contacts do not call shapes and colliders do not call
   distance. A world without a provider has no normals and no edges. */
#ifndef PBD_SURFACES_H
#define PBD_SURFACES_H

#include "world/core.h"

/// One group's constraints [first, end) as edges a[c] - b[c]; a torn edge has a[c] == b[c].
typedef struct pbdEdges {
	const int32_t* a;
	const int32_t* b;
	int32_t first, end;
	int32_t object;
} pbdEdges;

/// Body normals: a family of shape-matched bodies provides them (shapes_sdf.c).
typedef struct pbdNormalSource {
	/// 1 when `object`'s particles may have contact normals.
	int (*hasNormals)(const pbdWorld* world, int32_t object);
	/// 0 if the particle has none; otherwise 1 + its layer beneath its body's surface (1: on it) and, in n, the
	/// outward unit normal of the surface there, turned by the body's rotation as last solved.
	int (*contactNormal)(const pbdWorld* world, int32_t particle, float n[3]);
	/// The lattice faces a body particle on its surface lies on, as outward unit normals; their count.
	int (*contactFaces)(const pbdWorld* world, int32_t particle, float faces[6][3]);
} pbdNormalSource;

/// Structural edges: the family that holds the stretch and chain constraints provides them (distance.c).
typedef struct pbdEdgeSource {
	int32_t (*groupCount)(const pbdWorld* world);
	/// 1 and *edges when group `group` is structural (stretch or chain), else 0.
	int (*structuralEdges)(const pbdWorld* world, int32_t group, pbdEdges* edges);
} pbdEdgeSource;

static inline int pbd_Surface_HasNormals(const pbdWorld* w, int32_t object)
{
	return w->normals != NULL && w->normals->hasNormals(w, object);
}
static inline int pbd_Surface_ContactNormal(const pbdWorld* w, int32_t particle, float n[3])
{
	return w->normals != NULL ? w->normals->contactNormal(w, particle, n) : 0;
}
static inline int pbd_Surface_ContactFaces(const pbdWorld* w, int32_t particle, float faces[6][3])
{
	return w->normals != NULL ? w->normals->contactFaces(w, particle, faces) : 0;
}
static inline int32_t pbd_Surface_EdgeGroups(const pbdWorld* w) { return w->edges != NULL ? w->edges->groupCount(w) : 0; }
static inline int pbd_Surface_StructuralEdges(const pbdWorld* w, int32_t group, pbdEdges* edges)
{
	return w->edges->structuralEdges(w, group, edges);
}

#endif
