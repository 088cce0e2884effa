/* services/surfaces.h -- what the particles' surfaces look like, for the families that push particles against
   them: a body particle's contact normal and lattice faces (Macklin et al. 2014 section 5.1; the particle contacts,
   contacts_bodies.c) and the structural edges a collider keeps out of itself (seed 001 section 4.3; colliders.c).
   The family that knows a surface provides it at its create (world->normals: the shapes family's bodies, as
   data the contacts read in their pair loop; world->edges: the distance family's stretch and chain edges,
   through a table of functions); the families that ask read it here and never call the provider, so contacts
   do not call shapes and colliders do not call distance. A world without a provider has no normals and no
   edges. */
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

/// A shape-matched body's frame, as the family that solves it last left it (shapes.c, shapes_motion.c,
/// shapes_sdf.c write it; the contacts read it): its particles, its rotation and its lattice.
typedef struct pbdSurfaceFrame {
	int32_t first, count; ///< its particles [first, first + count), fixed at its Add
	int32_t lattice;      ///< 1: its particles form a lattice of axes `axes`
	float R[9];           ///< R(q) of the last solve, row-major: the rest normals turn by it
	float axes[9];        ///< the lattice's unit axes a_k (rows) in the rest frame
} pbdSurfaceFrame;

/// Body normals as data: the shapes family publishes them (shapes.c sets world->normals at its create) and the
/// contacts read them in their pair loop with no call into that family (an indirect call per particle of a
/// pair cost box-stack 5% of its step).
typedef struct pbdNormalSource {
	const int32_t* frameOf;        ///< per object: its frame + 1, 0 for none
	const pbdSurfaceFrame* frames; ///< per body
	const float* normal;           ///< per particle (float4): the outward surface normal in the rest frame, and
	                               ///< in w its layer beneath the surface (0: on it), -1 for none
	const uint8_t* faces;          ///< per particle: the lattice faces it lies on, bit 2k: +a_k, 2k + 1: -a_k
	int32_t objects;               ///< frameOf's length
} pbdNormalSource;

/// Structural edges: the family that holds the stretch and chain constraints provides them (distance.c).
typedef struct pbdEdgeSource {
	int32_t (*groupCount)(const pbdWorld* world);
	/// 1 and *edges when group `group` is structural (stretch or chain), else 0.
	int (*structuralEdges)(const pbdWorld* world, int32_t group, pbdEdges* edges);
} pbdEdgeSource;

/// 1 when `object`'s particles may have contact normals.
static inline int pbd_Surface_HasNormals(const pbdWorld* w, int32_t object)
{
	const pbdNormalSource* s = w->normals;
	return s != NULL && object >= 0 && object < s->objects && s->frameOf[object] != 0;
}

/// The frame of the body `particle` belongs to, or NULL.
static inline const pbdSurfaceFrame* pbd_Surface_Frame(const pbdNormalSource* s, const uint32_t* phase, int32_t particle)
{
	const int32_t k = s->frameOf[phase[particle] & PBD_PHASE_OBJECT_MASK];
	if (k == 0) return NULL;
	const pbdSurfaceFrame* f = &s->frames[k - 1];
	return particle >= f->first && particle < f->first + f->count ? f : NULL;
}

/// The contact normal of a body particle (Macklin et al. 2014, section 5.1): 0 if it has none (not a body's, or
/// no direction: contacts then push along the centre line); otherwise 1 + its layer beneath its body's surface
/// (1: on it) and, in n, the outward unit normal of the surface there, turned by the body's rotation as last
/// solved. `s` is a world's normals (not NULL).
static inline int pbd_Surface_ContactNormal(const pbdNormalSource* s, const uint32_t* phase, int32_t particle, float n[3])
{
	const pbdSurfaceFrame* f = pbd_Surface_Frame(s, phase, particle);
	if (f == NULL) return 0;
	const float* g = s->normal + 4 * particle;
	if (!(g[3] >= 0.0f)) return 0;
	const float* R = f->R;
	n[0] = R[0] * g[0] + R[1] * g[1] + R[2] * g[2];
	n[1] = R[3] * g[0] + R[4] * g[1] + R[5] * g[2];
	n[2] = R[6] * g[0] + R[7] * g[1] + R[8] * g[2];
	return 1 + (int)g[3];
}

/// The lattice faces a body particle on its body's surface lies on (at most 3 of the lattice's 6 face
/// directions, up to 6 on a body one particle thick), as outward unit normals turned by the body's rotation;
/// their count, 0 when it lies on none or its body is no lattice.
static inline int pbd_Surface_ContactFaces(const pbdNormalSource* s, const uint32_t* phase, int32_t particle, float faces[6][3])
{
	const pbdSurfaceFrame* f = pbd_Surface_Frame(s, phase, particle);
	if (f == NULL || !f->lattice) return 0;
	const int32_t mask = s->faces[particle];
	const float* R = f->R;
	int n = 0;
	for (int a = 0; a < 3; ++a) {
		if (!(mask & (3 << (2 * a)))) continue;
		const float* e = f->axes + 3 * a;
		const float x = R[0] * e[0] + R[1] * e[1] + R[2] * e[2];
		const float y = R[3] * e[0] + R[4] * e[1] + R[5] * e[2];
		const float z = R[6] * e[0] + R[7] * e[1] + R[8] * e[2];
		if (mask & (1 << (2 * a))) faces[n][0] = x, faces[n][1] = y, faces[n][2] = z, n += 1;
		if (mask & (2 << (2 * a))) faces[n][0] = -x, faces[n][1] = -y, faces[n][2] = -z, n += 1;
	}
	return n;
}

static inline int32_t pbd_Surface_EdgeGroups(const pbdWorld* w) { return w->edges != NULL ? w->edges->groupCount(w) : 0; }
static inline int pbd_Surface_StructuralEdges(const pbdWorld* w, int32_t group, pbdEdges* edges)
{
	return w->edges->structuralEdges(w, group, edges);
}

#endif
