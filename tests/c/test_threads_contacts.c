/* Contact scenes of the threads tests (test_threads.h): the two self-colliding layers of
   SelfCollisionDeterminismHash and the mixed radii of ContactRadiusDeterminismHash, the hash tests'
   own builders (test_scenes_contacts.c), so the threaded and sliced runs must reach their pinned
   hashes. */
#include "test_threads.h"

const ThreadScene* const g_threadContactScenes[] = { &g_sceneSelfCollision, &g_sceneContactRadii };
const int g_threadContactSceneCount = (int)(sizeof g_threadContactScenes / sizeof g_threadContactScenes[0]);
