/* families/colliders_state.h -- the collider family's state: colliders.c (the family: the solve and
   restitution). The colliders' records and their API are the boundary's (services/boundary.h). */
#ifndef PBD_COLLIDERS_STATE_H
#define PBD_COLLIDERS_STATE_H

#include "families/family.h"
#include "services/boundary.h"

typedef struct pbdBounce {
	int32_t particle, collider;
	float speed; ///< approach speed u > 0 along the contact normal, relative to the collider
} pbdBounce;

typedef struct pbdColliderFrame {
	pbdXf from, to;   ///< transform at the substep's start and at alpha
	float lo[3], hi[3]; ///< world box around the shape at both ends of the substep, grown by r
	float edgeLo[3], edgeHi[3]; ///< world box around the shape at alpha, grown by r
} pbdColliderFrame;

/* Particles per unit of the colliders' colour when it is shared out (colliders.c Colliders_ColourSize). */
#define PBD_COLLIDER_BLOCK 256

typedef struct pbdColliders {
	pbdBoundary* walls; ///< the colliders' records (services/boundary.h)
	/* The step in progress (per world, so worlds may step at the same time). */
	float alphaFrom;    ///< share of the step at the substep's start
	float alphaTo;      ///< ... and at its end
	float h, restingSpeed;
	pbdColliderFrame* frames; ///< per collider, for this substep
	/* Restitution records of this substep: room for every particle against up to four
	   colliders (a particle bounces off each collider it touched in a substep). */
	pbdBounce* bounces;
	int32_t bounceCount, bounceCapacity;
	/* Shared out by blocks of particles (no edge tests this substep): block b's records are its own, at
	   bounces + b PBD_COLLIDER_BLOCK perBlock, blockBounces[b] of them. */
	int32_t* blockBounces;
	int32_t perBlock, byBlocks;
	/* Boxes (min xyz, max xyz) around each object's particles, so a collider skips whole
	   objects it cannot reach: x's once per substep (x is fixed during the solve), p's once
	   per pass, then grown by every particle a collider moves. */
	float* xBox;
	float* pBox;
	uint8_t* pBoxValid;
} pbdColliders;

static inline pbdColliders* pbd_CollidersState(const pbdWorld* w) { return (pbdColliders*)w->families[pbdFamily_colliders]; }

#endif
