/* Tests in test_press.c: X(Name) for each void Test_Name(void). The cells' volume model in closed form and its
   walls, and soft bodies under a plate pressing them to half and a fifth of their height (issue 22 item 5). */
#ifndef PBD_TEST_PRESS_H
#define PBD_TEST_PRESS_H

#define TEST_LIST_PRESS(X)             \
	X(PressCellClosedForm)             \
	X(PressWallsNearestTwo)            \
	X(PressSweepsStopWhenSettled)      \
	X(PressHalfHeightKeepsVolume)      \
	X(PressAroundHalfKeepsVolume)      \
	X(PressFifthHeightRecovers)        \
	X(PressRigidBetweenPlates)

#endif
