/* builders/chain.c -- a rope or pendulum chain: segments + 1 particles evenly on the segment
   start..end, one chain constraint between neighbours, drawn as lines. */
#include "builders/builder.h"
#include "families/distance.h"

#include <math.h>
#include <string.h>

pbdChainDef pbd_DefaultChainDef(void)
{
	pbdChainDef def;
	memset(&def, 0, sizeof def);
	def.end[0] = 1.0f;
	def.segments = 10;
	def.mass = 0.1f;
	def.internalValue = PBD_COOKIE;
	return def;
}

void pbd_ChainCounts(int32_t segments, int32_t* particles, int32_t* constraints, int32_t* lines)
{
	int64_t s = segments < 1 || segments >= PBD_MAX_PARTICLES ? 0 : segments; /* what AddChain accepts; no int overflow */
	if (particles) *particles = s > 0 ? (int32_t)(s + 1) : 0;
	if (constraints) *constraints = (int32_t)s;
	if (lines) *lines = (int32_t)s;
}

int pbd_World_AddChain(pbdWorldId id, const pbdChainDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	int err;
	if ((err = pbd_CheckNoStep(w, "pbd_World_AddChain")) != PBD_OK) return err;
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetWorldError(w, PBD_ERR_BAD_DEF, "use pbd_DefaultChainDef()");
	if ((err = pbd_CheckVec(w, def->start, "chain start")) != PBD_OK) return err;
	if ((err = pbd_CheckVec(w, def->end, "chain end")) != PBD_OK) return err;
	if ((err = pbd_Builder_CheckMass(w, def->mass)) != PBD_OK) return err;
	if (def->segments < 1 || def->segments >= PBD_MAX_PARTICLES) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "chain segments must be in [1, %d), got %d", PBD_MAX_PARTICLES,
							def->segments);
	}
	int32_t particles, constraints, lines;
	pbd_ChainCounts(def->segments, &particles, &constraints, &lines);
	if ((err = pbd_Builder_CheckRoom(w, particles, constraints, 0, lines)) != PBD_OK) return err;
	/* its particles are spheres of thickness / 2, at most PBD_MAX_RADIUS_SPACINGS segments (minipbd.h) */
	const float dx = def->end[0] - def->start[0], dy = def->end[1] - def->start[1], dz = def->end[2] - def->start[2];
	const float spacing = sqrtf(dx * dx + dy * dy + dz * dz) / (float)def->segments;
	err = pbd_CheckRadiusSpacing(w, "thickness", w->params[pbdParam_thickness], 2.0f * PBD_MAX_RADIUS_SPACINGS, spacing, "this chain's");
	if (err != PBD_OK) return err;

	const int first = w->particleCount;
	w->objectSpacing[w->objectCount] = spacing;
	pbdObjectInfo* info = pbd_Builder_BeginObject(w, 0);
	w->materials[w->objectCount].edgeCover = 2.0f * spacing; /* straight at rest: i, i + 2 the nearest non-edge */
	const float invMass = 1.0f / def->mass;
	for (int i = 0; i <= def->segments; ++i) {
		float t = (float)i / (float)def->segments;
		pbd_Builder_AddParticle(w, def->start[0] + (def->end[0] - def->start[0]) * t,
								def->start[1] + (def->end[1] - def->start[1]) * t,
								def->start[2] + (def->end[2] - def->start[2]) * t, invMass);
	}
	info->resolutionU = particles;
	info->resolutionV = 1;
	/* Not coloured: along a chain, sequential Gauss-Seidel carries a pin's correction to the
	   far end in one pass, and a chain is too small for SIMD to matter. */
	pbd_Distance_BeginGroup(w, pbdKind_chain, w->objectCount);
	for (int i = 0; i < def->segments; ++i) {
		pbd_Distance_Add(w, first + i, first + i + 1);
		w->lines[2 * w->lineCount] = (uint32_t)(first + i);
		w->lines[2 * w->lineCount + 1] = (uint32_t)(first + i + 1);
		w->lineCount += 1;
	}
	pbd_Distance_EndGroup(w, 0, first, particles);
	info->lineCount = lines;
	pbd_Builder_EndObject(w);
	return first;
}
