/* families/distance_state.h -- the distance family's state. Only the family's own files
   read it: distance.c (building, the solve, statistics), distance_colouring.c (colouring a
   group for the 4-wide solve) and tearing.c (its update hook). Tests may look too. */
#ifndef PBD_DISTANCE_STATE_H
#define PBD_DISTANCE_STATE_H

#include "families/distance.h"
#include "families/family.h"

/// At most this many colours per group; constraints that would need more go to the
/// group's overflow set, solved one by one after the colours.
#define PBD_MAX_COLOURS 16

/// Constraints of one kind that belong to one object: the unit a stiffness applies to.
/// When coloured, the group's constraints are sorted by colour: no two constraints of
/// one colour share a particle, so a colour can be solved 4 at a time (Box2D's
/// constraint_graph.c idea). colourEnd[c] is one past colour c's last constraint.
typedef struct pbdGroup {
	int32_t first, count;
	int32_t kind; ///< pbdConstraintKind
	int32_t object;
	float stiffness; ///< k in [0, 1]; the solver turns it into k' for the pass count
	int32_t colourCount; ///< 0: not coloured, solved in order
	int32_t colourEnd[PBD_MAX_COLOURS];
	/// Each colour starts with its regular batches: four constraints (a0 + j s, a0 + j s + o),
	/// j = 0..3, whose addresses the solver computes from (a0, s, o) instead of loading eight
	/// indices (a grid's rows and columns; see pbd_ColourGroup). They end at colourRegularEnd[c];
	/// their descriptors are batch*[colourFirstBatch[c] + (constraint - colour start) / 4].
	int32_t colourRegularEnd[PBD_MAX_COLOURS];
	int32_t colourFirstBatch[PBD_MAX_COLOURS];
} pbdGroup;

/// One colour of the step: constraints [first, end) of one group, its regular batches
/// [first, regularEnd) described from batch firstBatch on.
typedef struct pbdDistanceColour {
	int32_t first, regularEnd, end, firstBatch;
	int32_t serial;
	float k; ///< k' of the group for this step's pass count
} pbdDistanceColour;

typedef struct pbdDistance {
	/* Constraints, structure of arrays. */
	int32_t count, maxConstraints;
	int32_t* ca;
	int32_t* cb;
	float* rest;
	/* The rest length each constraint was built with: soft-body plasticity (plasticity.c) moves
	   rest and bounds the plastic strain |rest / restOriginal - 1|. Copied at EndGroup, after the
	   colouring has put the group's constraints in their final order. */
	float* restOriginal;
	/* Each end's share of a correction, w_a / (w_a + w_b) and w_b / (w_a + w_b) (seed 000 (2.2)
	   with grad C = +-n), kept per constraint so the solver multiplies instead of loading both
	   weights and dividing; 0 for a torn constraint or two pins. Recomputed at the next step
	   whenever the world's massVersion has moved. */
	float* shareA;
	float* shareB;
	int32_t massVersion; ///< world->massVersion the shares were computed for
	/* Regular batches of coloured groups (pbdGroup.colourRegularEnd): first a particle, particle
	   stride and b - a, all in floats (4 x particle index) so they add straight to a pointer. */
	int32_t* batchA;
	int32_t* batchStride;
	int32_t* batchOffset;
	int32_t batchCount, maxBatches;
	pbdGroup* groups;
	int32_t groupCount, maxGroups;
	/* The colours of this step: those of the groups with k' > 0 (rebuilt in start). */
	pbdDistanceColour* colours;
	int32_t colourCount, maxColours;
} pbdDistance;

static inline pbdDistance* pbd_DistanceState(const pbdWorld* world) { return (pbdDistance*)world->families[pbdFamily_distance]; }

/* distance_colouring.c */
/// Bytes of scratch that colouring needs for these capacities.
size_t pbd_ColouringScratchBytes(int32_t maxParticles, int32_t maxConstraints);
/// Sorts a group's constraints by greedy colour and finds its regular batches.
void pbd_ColourGroup(pbdWorld* world, pbdDistance* d, pbdGroup* group, int32_t firstParticle, int32_t particleCount);

/* tearing.c: breaks over-stretched cloth constraints; returns how many broke. */
int pbd_Tearing_Apply(pbdWorld* world, pbdDistance* d);

/* plasticity.c: soft bodies' edges (pbdKind_edge) creep toward their stretched length. */
void pbd_Plasticity_Apply(pbdWorld* world, pbdDistance* d, const pbdStepContext* ctx);

#endif
