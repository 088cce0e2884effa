/* Tests in test_fluid_objects.c, test_fluid_velocity.c, test_fluid_step.c and test_fluid_lists.c: X(Name) for each void Test_Name(void).
   The fluid's emitters and drains (disc pattern and rate, capacity reached, drains keeping other
   objects' indices and attachments, refusals, a hose at full rate) and its velocity passes (XSPH in
   closed form, its momentum and damping, vorticity confinement raising the curl, the bits), and the fluid's neighbour lists against the
   rule written out. */
#ifndef PBD_TEST_FLUID_OBJECTS_H
#define PBD_TEST_FLUID_OBJECTS_H

#define TEST_LIST_FLUID_OBJECTS(X)                \
	X(FluidEmitterDiscPattern)                    \
	X(FluidEmitterRate)                           \
	X(FluidEmitterCapacityKeepsEverything)        \
	X(FluidDrainKeepsIndicesAndAttachments)       \
	X(FluidEmitterDrainRefusals)                  \
	X(FluidHoseFullRateStaysFinite)               \
	X(FluidAttachmentRefusesParkedSlot)           \
	X(FluidXsphPairClosedForm)                    \
	X(FluidXsphDampsSpreadKeepsMomentum)          \
	X(FluidVorticityRaisesCurl)                   \
	X(FluidVelocityHash)                          \
	X(FluidVelocityCacheFollowsLists)             \
	X(FluidStepHoseFillsTank)                     \
	X(FluidStepDrainEmptiesTank)                  \
	X(FluidStepVorticityKeepsSwirl)           \
	X(FluidListsMatchReference)                \
	X(FluidListsBoundedWhenShort)

#endif
