/* test_fluid_step.c -- the emitters, drains and velocity passes through pbd_World_Step, with the
   fluid family's solve running (tanks of test_fluid_helpers.h: d = 0.02, 2 substeps x 4 passes,
   60 Hz). test_fluid_objects.c checks each piece on its own against closed forms; here the checks
   are of what the step must keep: counts, capacity, nothing lost, finiteness. */
#include "test.h"
#include "test_fluid_objects.h"
#include "test_fluid_helpers.h"

#include <math.h>

/* The live fluid particles of object 0 are finite and inside [lo, hi]. */
static int LiveInside(pbdWorldId w, const float lo[3], const float hi[3])
{
	int first;
	const int n = FluidRange(w, 0, &first);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	for (int i = first; i < first + n; ++i) {
		for (int k = 0; k < 3; ++k) {
			if (!isfinite(x[4 * i + k]) || x[4 * i + k] < lo[k] || x[4 * i + k] > hi[k]) return 0;
		}
	}
	return 1;
}

/* A hose (5 particles a disc: radius d) at 1.5 m/s into an empty tank: 0.025 m travelled a step,
   one disc per d, so after s steps floor(1.25 s) discs (give or take the one the float sum of the
   travelled length puts on either side of a step). At a capacity of 400 (80 discs, step 64) it
   stops: full is reported, the count stays at 400, no particle is lost or leaves the tank. */
void Test_FluidStepHoseFillsTank(void)
{
	pbdWorldId w = FluidWorld(600, 400, 2, 4);
	FluidTank(w, 0.24f, 0.24f, 0.4f);
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 400) == 0);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 0, e.speed = 1.5f, e.radius = 0.02f;
	e.position[0] = 0.12f, e.position[1] = 0.3f, e.position[2] = 0.12f;
	ENSURE(pbd_World_AddEmitter(w, &e) == 0);
	const float lo[3] = { -0.01f, -0.01f, -0.01f }, hi[3] = { 0.25f, 0.35f, 0.25f };
	pbdFluidStats st;
	int first;
	for (int s = 1; s <= 120; ++s) {
		pbd_World_Step(w);
		const int n = FluidRange(w, 0, &first);
		ENSURE(pbd_World_GetFluidStats(w, &st) == PBD_OK);
		const int discs = (int)(1.25 * s);
		if (s < 60) {
			ENSURE(n >= 5 * (discs - 1) && n <= 5 * (discs + 1));
			ENSURE(!st.full);
		}
		if (s > 66) ENSURE(n == 400 && st.full && st.emitted == 400);
		ENSURE(st.particles == n && st.drained == 0);
		ENSURE(LiveInside(w, lo, hi));
	}
	ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
}

/* A drain over the tank's floor: the water falls into it and every particle is removed, through
   the step, the count only going down; the emitted-minus-drained ledger matches the live count. */
void Test_FluidStepDrainEmptiesTank(void)
{
	pbdWorldId w = FluidWorld(2000, 2000, 2, 4);
	FluidTank(w, 0.2f, 0.2f, 0.5f);
	ENSURE(AddFluidBlock(w, 0.0f, 0.1f, 0.0f, 0.2f, 0.2f, 0.2f, 0) == 0);
	int first;
	const int n0 = FluidRange(w, 0, &first);
	ENSURE(n0 == 500);
	const float lower[3] = { -1.0f, -1.0f, -1.0f }, upper[3] = { 1.0f, 0.03f, 1.0f };
	ENSURE(pbd_World_AddDrain(w, lower, upper) == 0);
	int last = n0;
	pbdFluidStats st;
	for (int s = 0; s < 240; ++s) {
		pbd_World_Step(w);
		const int n = FluidRange(w, 0, &first);
		ENSURE(n <= last);
		last = n;
		ENSURE(pbd_World_GetFluidStats(w, &st) == PBD_OK && st.particles == n && st.drained == n0 - n);
	}
	ENSURE(last == 0);
	ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
}

/* A tank stirred about the vertical axis (10 rad/s): after a second the water keeps more of its
   angular momentum with vorticity confinement on (0.03) than off; at the parameter's largest value
   (0.1) the swirl stays under 3 m/s (it starts at 1.7), so the 100 m/s speed bound is not what keeps
   them finite (fluid_velocity.c's measurements). */
static double StirredMomentum(float vorticity, float* vmax, int* finite)
{
	const float L = 0.24f;
	pbdWorldId w = FluidWorld(4000, 4000, 2, 4);
	FluidTank(w, L, L, 0.4f);
	AddFluidBlock(w, 0.0f, 0.0f, 0.0f, L, 0.12f, L, 0);
	pbd_World_SetParam(w, pbdParam_damping, 0.05f);
	pbd_World_SetParam(w, pbdParam_fluidVorticity, vorticity);
	int first;
	const int n = FluidRange(w, 0, &first);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	for (int i = first; i < first + n; ++i) {
		pbd_World_SetVelocity(w, i, -10.0f * (x[4 * i + 2] - 0.5f * L), 0.0f, 10.0f * (x[4 * i] - 0.5f * L));
	}
	*vmax = 0.0f;
	for (int s = 0; s < 60; ++s) {
		pbd_World_Step(w);
		const float* v = pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
		for (int i = first; i < first + n; ++i) {
			const float s2 = sqrtf(v[4 * i] * v[4 * i] + v[4 * i + 1] * v[4 * i + 1] + v[4 * i + 2] * v[4 * i + 2]);
			*vmax = s2 > *vmax ? s2 : *vmax;
		}
	}
	const float* v = pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	double ly = 0.0;
	for (int i = first; i < first + n; ++i) {
		ly += (x[4 * i] - 0.5f * L) * v[4 * i + 2] - (x[4 * i + 2] - 0.5f * L) * v[4 * i];
	}
	*finite = TestAllFinite(w);
	pbd_DestroyWorld(w);
	return ly / n;
}

void Test_FluidStepVorticityKeepsSwirl(void)
{
	float v0, v1, v2;
	int f0, f1, f2;
	const double off = StirredMomentum(0.0f, &v0, &f0), on = StirredMomentum(0.03f, &v1, &f1), top = StirredMomentum(0.1f, &v2, &f2);
	ENSURE(f0 && f1 && f2);
	printf("  stirred tank, L/m after 1 s: vorticity 0: %.5f, 0.03: %.5f, 0.1: %.5f (max speed %.2f m/s)\n", off, on, top, v2);
	ENSURE(off > 0.0 && on > 1.2 * off);
	ENSURE(v2 < 3.0f); /* the stir starts at 1.7 m/s at the corners */
}
