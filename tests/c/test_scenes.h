/* test_scenes.h -- the scenes whose hash a test pins, built in one place: each hash test
   (DeterminismHash, VolumeDeterminismHash, ShapesDeterminismHash, BodyDeterminismHash,
   FluidDeterminismHash, ColliderDeterminismHash, SelfCollisionDeterminismHash,
   ContactRadiusDeterminismHash) runs its scene single-threaded to its pinned hash, and the threads
   tests (test_threads.c) run the same scene, not a copy, on 1 to 8 threads and in slices, which
   must reach the same hash. A change to a scene moves both, so the two can never drift apart. */
#ifndef PBD_TEST_SCENES_H
#define PBD_TEST_SCENES_H

#include "minipbd.h"
#include "test.h"

#include <stdint.h>

/* ENSURE for a builder, which returns its world: a failed check fails the running test (the hash
   test's or the threads test's) and the build goes on. */
#define SCENE_ENSURE(c)                                                           \
	do {                                                                          \
		if (!(c)) {                                                               \
			printf("  FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);               \
			g_testFailed = 1;                                                     \
		}                                                                         \
	} while (0)

/* The pinned hashes (pbd_World_Hash after the scene's steps), the same bits on every build
   (native SIMD, scalar, sanitizers, wasm). A change to the solver's arithmetic must update the
   constant on purpose. tests/node/engine.test.mjs reads PBD_DETERMINISM_HASH from this file. */
/* the rope's particles kept on their side of the cloth's triangles since issue 22 (contacts_sheets.c; was 0xee411f0c) */
#define PBD_DETERMINISM_HASH 0x01482abcu
#define PBD_VOLUME_DETERMINISM_HASH 0x3cb79eabu
/* the contacts after the shape matching since issue 22 item 2 (family.h; were 0x93fa4102 and 0x81f3ac8f); the
   supports since item 5 (contacts.c; was 0x607680e3) */
#define PBD_SHAPES_DETERMINISM_HASH 0x90424e22u
/* the soft cube solved by cells since issue 22 item 5 (volumeSweeps 8, volume.c; was 0x63f7384a); a pair that
   separated past the search radius kept in the list since (contacts_list.c KeepSeparating; was 0x2c2b1ea9); the cell's
   gradients around its diagonal (volume_solve.c) and a small lattice's sweeps stopped once it settles (volume.c)
   since, the kept pairs projected last (was 0xfd6ded0f); the bodies kept on their side of the cloth's triangles
   (contacts_sheets.c; was 0x1c9451f5) */
#define PBD_BODY_DETERMINISM_HASH 0x08a7744cu
#define PBD_FLUID_HASH 0x44649560u /* since a wall takes lambda_i once, not mirrored (fluid_solve.c) */
#define PBD_COLLIDER_DETERMINISM_HASH 0x20471342u
/* The lower cloth is pinned at its four corners, four pin islands, so since the tethers reach
   every island its particles are tethered to all four corners, not only the nearest (was 0xc423502a). */
#define PBD_SELF_COLLISION_HASH 0x67f3af04u
#define PBD_CONTACT_RADIUS_HASH 0x8cd027fbu

/* A scene: built by `build` (which SCENE_ENSUREs what it adds landed where the scene expects), driven by
   `drive` (NULL: nothing) before each of its `steps` steps; `pinned` is its pinned hash (0: none,
   the single-thread run is the reference). */
typedef struct TestScene {
	const char* name;
	pbdWorldId (*build)(void);
	void (*drive)(pbdWorldId world, int step);
	int steps;
	uint32_t pinned;
} TestScene;

extern const TestScene g_sceneDeterminism; /* cloth, chain, a moved attachment, the ground (test_scenes.c) */
extern const TestScene g_sceneSoft;        /* two soft lattices, one thrown spinning and plastic */
extern const TestScene g_sceneShapes;      /* three boxes stacked, a lopsided one thrown, a soft plastic slab */
extern const TestScene g_sceneBodies;      /* a soft box, a rigid ball and a soft torus onto a cloth */
extern const TestScene g_sceneDamBreak;    /* 480 fluid particles in a tank */
extern const TestScene g_sceneColliders;   /* every collider shape, one moving, a cloth and a chain (test_scenes_colliders.c) */
extern const TestScene g_sceneSelfCollision; /* two self-colliding layers with friction (test_scenes_contacts.c) */
extern const TestScene g_sceneContactRadii;  /* a cloth, a rope and loose pairs of three radii, a box */

/* Builds `scene` and takes its steps, driven, one pbd_World_Step each; the world (destroy it). */
pbdWorldId TestSceneRun(const TestScene* scene);

/* Two horizontal 20 x 20 cloths (two objects), the upper 3 thicknesses above the lower and offset
   by half a spacing in x and z, so its particles fall between the lower one's (test_contact_scenes.c).
   contacts: 0 none (selfCollision and collisions off), 1 selfCollision on (collisions at its
   default, on), 2 collisions between objects only (selfCollision off). pinCorners: the lower
   cloth pinned at its 4 corners 0.5 up, else both resting on the ground. */
#define TEST_LAYERS_THICKNESS 0.02f
#define TEST_LAYERS_RES 20          /* 20 x 20 particles per cloth */
#define TEST_LAYERS_SPACING 0.012f  /* 0.6 thickness: no gap a particle could slip through */
typedef struct TestLayers {
	pbdWorldId w;
	int lower, upper, n; /* first particles of the two layers, particles per layer */
} TestLayers;
TestLayers TestTwoLayers(int contacts, int pinCorners);

#endif
