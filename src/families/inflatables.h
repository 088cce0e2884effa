/* families/inflatables.h -- inflatables: a closed triangle surface kept inflated by the
   overpressure constraint of Mueller et al. 2007 "Position Based Dynamics" section 4.4, one
   constraint over all of an object's particles, C = V - k_pressure V0, V the volume its
   triangles enclose. Its edges are the distance family's stretch and bend constraints (as a
   cloth's). The public calls are declared here, beside the family, and not in minipbd.h: the
   object type is the family's own (issue 21: a new kind of object touches only registry lines
   outside its files); wasm/api_inflatables.c exports them to JS (they are not PBD_API: the wasm exports
   what minipbd.h declares, and the JS calls the pbdjs_ wrappers). */
#ifndef PBD_INFLATABLES_H
#define PBD_INFLATABLES_H

#include "world/core.h"

/// pbdObjectInfo.type of an inflatable (after minipbd.h's PBD_OBJECT_FLUID).
#define PBD_OBJECT_INFLATABLE 5
/// PBD_INFLATABLE_MAX_RESOLUTION, the built-in sphere's largest frequency, is in minipbd.h's PBD_LIMITS.

/// An inflatable: the built-in sphere (vertices NULL) of `radius` around `center` at `resolution`,
/// or a closed mesh (vertices, 3 floats each, and triangles, 3 indices each, counter-clockwise seen
/// from outside) moved by `center`. Every vertex is a particle of `mass` kg.
typedef struct pbdInflatableDef {
	float center[3];
	float radius;
	int32_t resolution;
	const float* vertices;
	int32_t vertexCount;
	const uint32_t* indices;
	int32_t triangleCount;
	float mass;
	float pressure;  ///< k_pressure: the constraint holds V at pressure x V0 (V0 the volume as built)
	float stiffness; ///< k in [0, 1] of the overpressure constraint (k' for the pass count, seed 000 2.2)
	int32_t internalValue;
} pbdInflatableDef;

pbdInflatableDef pbd_DefaultInflatableDef(void);
/// Counts of the built-in sphere at `resolution` (0 each when out of [1, PBD_INFLATABLE_MAX_RESOLUTION]); a mesh
/// of V vertices and T triangles takes V particles, 3 T constraints (stretch and bend per edge) and T triangles.
void pbd_InflatableCounts(int32_t resolution, int32_t* particles, int32_t* constraints, int32_t* triangles);
/// Counts of a mesh of `vertexCount` vertices and `triangleCount` triangles, if the builder accepts it: V particles,
/// 3 T constraints, T triangles (0 each when fewer than 4 of either: no closed surface has).
void pbd_InflatableMeshCounts(int32_t vertexCount, int32_t triangleCount, int32_t* particles, int32_t* constraints, int32_t* triangles);
/// Adds it; its first particle or a negative pbdError (message set; a mesh that is not closed, manifold,
/// consistently oriented and free of degenerate triangles is refused and says why).
int pbd_World_AddInflatable(pbdWorldId world, const pbdInflatableDef* def);
/// k_pressure of inflatable `object` (> 0, at most 100).
int pbd_SetInflatablePressure(pbdWorldId world, int object, float pressure);
/// out[0] = the volume it encloses now (committed positions), out[1] = V0, out[2] = k_pressure.
int pbd_GetInflatableVolume(pbdWorldId world, int object, double* out);

/* For the builder (builders/inflatable.c). */
/// PBD_OK, or the capacity error when one more inflatable of `particles` does not fit.
int pbd_Inflatables_CheckRoom(pbdWorld* world, int32_t particles);
/// Registers object `object` (its particles and triangles recorded already): V0 from world->x now.
void pbd_Inflatables_Add(pbdWorld* world, int32_t object, float pressure, float stiffness);

#endif
