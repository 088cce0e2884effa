/* families/contacts.h -- the particle contacts family's state: self-collision and collisions
   between objects, one user of the neighbour search (neighbours/grid.h). Only the family's files
   read it (contacts.c the solve, contacts_list.c the pair list, contacts_bodies.c, contacts_sheets.c);
   tests may look. */
#ifndef PBD_CONTACTS_H
#define PBD_CONTACTS_H

#include "families/family.h"
#include "neighbours/grid.h"

/// Pairs are searched within PBD_CONTACT_MARGIN x (r_i + r_j) (contacts_list.c says why 1.2).
#define PBD_CONTACT_MARGIN 1.2f
/// A pair of the last list within this many (r_i + r_j) where the last substep ended touched, and stays listed
/// (contacts_list.c KeepSeparating; 1.01 rather than 1: a projected pair ends at (r_i + r_j) up to rounding).
#define PBD_CONTACT_TOUCH 1.01f

/// A pair with a body particle on its body's surface pushes along the surface's normal when the
/// centre line is within ~40 degrees of it (cos 40 = 0.766; contacts.c says why).
#define PBD_CONTACT_SNAP 0.766f

/// Two opposite faces of bodies meet as planes where their particles are within this many radii of each other
/// sideways (r = D / 2; contacts_bodies.c says why), which the pair loop reaches to: |d|^2 < D^2 (1 + TILE^2 / 4).
#define PBD_CONTACT_TILE 1.0f
#define PBD_CONTACT_FACE_REACH2 (1.0f + 0.25f * PBD_CONTACT_TILE * PBD_CONTACT_TILE)

/// In a particle contact the heavier particle is split as if it were at most this many times
/// heavier than the lighter (contacts.c says why: a heavy body on a light cloth).
#define PBD_CONTACT_MASS_RATIO 10.0f

/// Between two bodies' particles one above the other, the lower is split as if at least this many times heavier
/// than the upper (contacts.c says why: a heavy body on a light one; shock propagation, bounded).
#define PBD_CONTACT_SUPPORT 3.0f

/* How far off the triangle the guard puts a particle, in its contact radii: a tenth. The guard keeps the side; the
   particle contacts with the cloth's particles do the rest. Measured on 42 cubes (soft and rigid, resolution 3-10,
   three places) set down 5 cm over the trampoline's cloth, 5 s: kinetic energy at the end, median / worst, and the
   cubes that went through (without the guard: 3 through, 8.0e-4 / 2.2e-3 J):
       0.1 r: none through, 7.4e-4 / 3.1e-3 J;  0.5 r: none, 1.1e-3 / 2.4e-2;  r + r_s (the contact distance): none,
       2.0e-3 / 0.11 J, the soft cubes jittering on the cloth for good;  0: 2 through (a path that starts in the
   triangle's plane has no side). Moving the particle alone, not the triangle, at r + r_s: none through, but 5 of
   the 42 bounced off the cloth's edge (the cloth never felt those particles' weight, so it did not give). */
#define PBD_SHEET_GUARD 0.1f

typedef struct pbdContacts {
	pbdGrid grid;
	int32_t* pairs; ///< 2 per pair: (i, j), i < j, in the search's order
	int32_t pairCount, maxPairs;
	/* The structural edges held to their contact distance (contacts_list.c CollectEdges, each step with self-collision):
	   the rest-pose pairs the search leaves out between D and M D. Solved after the pairs, in the same colour. */
	int32_t* edges; ///< 2 per edge: (i, j), i < j
	int32_t edgeCount, maxEdges;
	int32_t edgesKept, edgeKey[6]; ///< the list is of this world as of these versions (CollectEdges)
	int32_t dropped; ///< pairs of the last search past maxPairs (counted, not stored)
	/* What this step looks for (start, from the parameters). */
	int32_t self, others; ///< selfCollision; collisions, when there are two objects at least
	float massRatio;      ///< PBD_CONTACT_MASS_RATIO (tests set INFINITY: the exact mass-weighted split)
	/* The free particles' inverse masses, largest (lightest particle) and smallest (heaviest),
	   as of massVersion rangeVersion: the solve skips the ratio test when no pair can pass it. */
	float lightest, heaviest;
	int32_t rangeVersion, rangeCount;
	/* Radii (Radii(), each step and each search, from the objects and the thickness). */
	int32_t uniform;                  ///< every object has the same radius r: one contact distance for all
	float distance;                   ///< uniform: r + r (the thickness when no object has its own)
	float radius[PBD_MAX_OBJECTS];    ///< r_o, the contact radius of object o's particles
	float search[PBD_MAX_OBJECTS];    ///< the grid's radius per object, 2 M r_o: pairs within M (r_i + r_j)
	float reach2[PBD_MAX_OBJECTS];    ///< ((M - 1) r_o)^2: the move that makes the kept list stale (WithinReach)
	/* Shape-matched bodies (Radii(), each search): their particles' pairs take contact normals
	   from the body's surface (SolvePairs, Macklin et al. 2014 section 5.1). */
	int32_t edgesCover;               ///< every self-colliding object's rest pairs within M D are its edges (CollectEdges)
	int32_t bodies;                   ///< any object is a body
	uint8_t body[PBD_MAX_OBJECTS];    ///< object o is a body
	/* Reusing the list across substeps: kept while no particle is (M - 1) r = 0.2 r from where it
	   was at the search (origin, float4 each), and the world has not changed in a way displacement
	   cannot show (the counters below, the particle count). */
	float* origin;
	int32_t reusable;
	int32_t paramVersion, massVersion, particleCount;
	int32_t searches; ///< searches done (tests, benchmark)
	/* The list's makers (contacts_list.c KeepSeparating): the step's search (not pbd_World_FindPairs') with these
	   switches, and how many of its pairs came from the list before. */
	int32_t listOwn, listSelf, listOthers, kept;
	/* The contacts stage in slice units (contacts_list.c pbd_Contacts_FindContactsUnit): the part in progress (0: none), the
	   search's next slot, its candidates tested so far, and the last stage's units and candidates (the
	   estimate of the next: family.h unitsLeft). */
	int32_t slicePart, sliceSlot, sliceUnits, lastUnits;
	int32_t sliceBuilt;
	uint8_t* activation;   ///< the grid's group activation table (ContactFilter), 256 x 256
	int32_t activationKey; ///< the switches it was filled for (0: not yet)
	int32_t activationFilters; ///< and the world's filterVersion (services/materials.h collision filters)
	int32_t activationObjects; ///< and object count (a new object's row)
	int64_t sliceTests, lastTests;
} pbdContacts;

static inline pbdContacts* pbd_ContactsState(const pbdWorld* world) { return (pbdContacts*)world->families[pbdFamily_contacts]; }

/// The family's hooks for its pair list (contacts_list.c): the step's start (which kinds are on, the edges listed
/// apart), each substep's list (kept or searched again), the same in slice units, and the units left.
void pbd_Contacts_Start(pbdWorld* world, void* state, const pbdStepContext* ctx);
void pbd_Contacts_FindContacts(pbdWorld* world, void* state, const pbdStepContext* ctx);
int pbd_Contacts_FindContactsUnit(pbdWorld* world, void* state, const pbdStepContext* ctx, int whole);
int32_t pbd_Contacts_UnitsLeft(const pbdWorld* world, const void* state, int32_t stage, int begun);
/// The contacts stage's work for the current predicted positions: keep the list or search again.
void pbd_Contacts_Prepare(pbdWorld* world);
/// The search radius when every object has the same radius r: PBD_CONTACT_MARGIN x 2r
/// (PBD_CONTACT_MARGIN x thickness when none has its own); with radii that differ, the largest
/// object's (the grid's cells are that size).
float pbd_Contacts_SearchRadius(const pbdWorld* world);
/// A pair (i, j), d = p_i - p_j, d2 = |d|^2 < D^2, with a body particle: 1 and the unit normal n
/// (i pushed along +n, j along -n) and depth from the bodies' surfaces (contacts_bodies.c), or 0
/// to push along the centre line as for any other pair.
int pbd_Contacts_BodyNormal(const pbdWorld* world, const pbdContacts* contacts, int32_t i, int32_t j, float dx, float dy,
							float dz, float d2, float D, float tiny2, float wi, float wj, float n[3], float* depth);
/// After the passes: each solid particle's path in the substep kept from crossing another object's cloth
/// (contacts_sheets.c).
void pbd_Contacts_GuardSheets(pbdWorld* world, pbdContacts* contacts);
/// A cloth colliding with itself kept from passing through its own holes (contacts_self.c), after the passes.
void pbd_Contacts_GuardSelf(pbdWorld* world, const pbdContacts* contacts);
/// The grid built from the current predicted positions, nothing searched (the benchmark's
/// rebuild mode reaches it by this name); 0 if the build was refused.
int pbd_HashGrid_Build(pbdWorld* world);

#endif
