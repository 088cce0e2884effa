/* Integration tests: the step around the projection against closed forms -- free fall as the
   discrete semi-implicit Euler predicts (seed 000 2.1, 2.3), with substeps; the ground (nothing
   below it, restitution e u); Coulomb friction, kinetic and static; damping after the velocity
   update; momentum conserved and energy never gained; the speed and world bounds. */
#include "test_physics_helpers.h"

/* Seed 000 2.1 + 2.3 with no constraints: v_n = v0 + n dt g, x_n = x0 + dt sum v_k
   = x0 + n dt v0 + dt^2 g n(n+1)/2 (semi-implicit Euler, not the continuous parabola). */
void Test_FreeFallClosedForm(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	/* Start near 0: v is rebuilt from positions each step, so float rounding of x
	   (ulp(|x|) / dt per step) is the tolerance's main term. */
	AddPair(w, 0, 0, 0, 1, 0, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetVelocity(w, 0, 1.0f, 2.0f, 0.0f);
	float dt = pbd_World_GetParam(w, pbdParam_dt);
	const int n = 60;
	for (int s = 0; s < n; ++s) pbd_World_Step(w);
	double expectY = 0.0 + n * dt * 2.0 + (double)dt * dt * -9.81 * n * (n + 1) / 2.0;
	ENSURE_NEAR(X(w)[1], expectY, 1e-4);
	ENSURE_NEAR(X(w)[0], n * dt * 1.0, 1e-5);
	ENSURE_NEAR(V(w)[1], 2.0 + n * dt * -9.81, 1e-3);
	pbd_DestroyWorld(w);
}

void Test_FreeFallSubsteps(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	AddPair(w, 0, 0, 0, 1, 0, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_substeps, 4.0f);
	double h = pbd_World_GetParam(w, pbdParam_dt) / 4.0;
	const int steps = 30, n = 4 * steps;
	for (int s = 0; s < steps; ++s) pbd_World_Step(w);
	/* One step of x += dt v per substep before v changes would be off by n h^2 g = 0.02. */
	ENSURE_NEAR(X(w)[1], h * h * -9.81 * n * (n + 1) / 2.0, 1e-3);
	pbd_DestroyWorld(w);
}

void Test_NothingBelowGround(void)
{
	pbdWorldId w = MakeWorld(4000, 40000);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_groundHeight, 0.25f);
	AddCloth(w, 30, 30, 1.0f);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 3.0f;
	chain.end[0] = 2.0f;
	chain.end[1] = 0.5f;
	chain.segments = 30;
	pbd_World_AddChain(w, &chain);
	int n = pbd_World_GetParticleCount(w);
	for (int i = 0; i < n; i += 7) pbd_World_SetVelocity(w, i, 0.0f, -30.0f, 0.0f); /* fast impacts too */
	for (int s = 0; s < 240; ++s) {
		pbd_World_Step(w);
		const float* x = X(w);
		for (int i = 0; i < n; ++i) ENSURE(x[4 * i + 1] >= 0.25f);
	}
	pbd_World_SetParam(w, pbdParam_thickness, 0.1f); /* particle radius 0.05 */
	for (int s = 0; s < 10; ++s) pbd_World_Step(w);
	for (int i = 0; i < n; ++i) ENSURE(X(w)[4 * i + 1] >= 0.3f);
	pbd_DestroyWorld(w);
}

/* A particle hitting the ground at speed u leaves it at e u (Mueller et al. 2020). */
void Test_Restitution(void)
{
	const float es[] = { 0.0f, 0.5f, 0.8f };
	for (int k = 0; k < 3; ++k) {
		pbdWorldId w = MakeWorld(2, 1);
		pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
		pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
		pbd_World_SetParam(w, pbdParam_restitution, es[k]);
		AddPair(w, 0, 0.001f, 0, 10, 0.001f, 0);
		pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
		pbd_World_SetVelocity(w, 0, 0.0f, -4.0f, 0.0f);
		pbd_World_Step(w); /* hits the ground during this step at about 4.16 m/s */
		float impact = 4.0f + 9.81f / 60.0f;
		ENSURE(X(w)[1] >= 0.0f);
		ENSURE_NEAR(V(w)[1], es[k] * impact, 1e-3);
		pbd_DestroyWorld(w);
	}
}

/* Positional friction on a resting particle removes mu_k g h of tangential speed per
   step: the Coulomb law, v_n = v0 - n mu_k g h, until it stops. */
void Test_KineticFrictionClosedForm(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_staticFriction, 0.0f);
	pbd_World_SetParam(w, pbdParam_kineticFriction, 0.5f);
	const float rest = 0.5f * pbd_World_GetParam(w, pbdParam_thickness); /* resting height: one radius */
	AddPair(w, 0, rest, 0, 10, rest, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetVelocity(w, 0, 3.0f, 0.0f, 0.0f);
	double h = pbd_World_GetParam(w, pbdParam_dt);
	for (int s = 1; s <= 20; ++s) {
		pbd_World_Step(w);
		ENSURE_NEAR(V(w)[0], 3.0 - s * 0.5 * 9.81 * h, 1e-3);
		ENSURE(X(w)[1] == rest);
	}
	for (int s = 0; s < 100; ++s) pbd_World_Step(w);
	ENSURE(fabsf(V(w)[0]) < 1e-4f); /* stopped, did not reverse */
	pbd_DestroyWorld(w);
}

void Test_StaticFrictionHolds(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_staticFriction, 10.0f);
	const float rest = 0.5f * pbd_World_GetParam(w, pbdParam_thickness);
	AddPair(w, 0, rest, 0, 10, rest, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetVelocity(w, 0, 0.5f, 0.0f, 0.0f); /* travel 0.5/60 < 10 * g h^2 */
	pbd_World_Step(w);
	ENSURE(X(w)[0] == 0.0f && V(w)[0] == 0.0f);
	pbd_DestroyWorld(w);
}

/* Damping acts after v = (p - x)/dt, so it reaches the next step: with no forces the
   speed after n steps is v0 / (1 + c dt)^n. Seed 001's order (damp, then recompute v
   from positions) would leave v0 unchanged after the first step. */
void Test_DampingSurvivesVelocityUpdate(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	AddPair(w, 0, 0, 0, 10, 0, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetParam(w, pbdParam_damping, 2.0f);
	pbd_World_SetVelocity(w, 0, 1.0f, 0.0f, 0.0f);
	double dt = pbd_World_GetParam(w, pbdParam_dt);
	double x = 0.0, v = 1.0;
	for (int s = 1; s <= 30; ++s) {
		pbd_World_Step(w);
		x += dt * v;
		v /= 1.0 + 2.0 * dt;
		ENSURE_NEAR(V(w)[0], v, 2e-5);
	}
	ENSURE_NEAR(X(w)[0], x, 1e-5);
	pbd_DestroyWorld(w);
}

/* Mass-weighted corrections satisfy sum m_i dp_i = 0, so with no gravity and no
   ground a chain of mixed masses keeps its linear momentum. */
void Test_MomentumConserved(void)
{
	pbdWorldId w = MakeWorld(64, 64);
	pbdChainDef def = pbd_DefaultChainDef();
	def.segments = 40;
	def.end[0] = 2.0f;
	pbd_World_AddChain(w, &def);
	SeedRand(3);
	double p0[3] = { 0, 0, 0 };
	for (int i = 0; i <= 40; ++i) {
		float m = 0.05f + Rand01() * 5.0f;
		pbd_World_SetMass(w, i, m);
		float v[3];
		for (int k = 0; k < 3; ++k) v[k] = Rand01() * 4.0f - 2.0f;
		pbd_World_SetVelocity(w, i, v[0], v[1], v[2]);
		for (int k = 0; k < 3; ++k) p0[k] += m * v[k];
	}
	for (int s = 0; s < 200; ++s) pbd_World_Step(w);
	double p1[3] = { 0, 0, 0 };
	for (int i = 0; i <= 40; ++i) {
		double m = 1.0 / X(w)[4 * i + 3];
		for (int k = 0; k < 3; ++k) p1[k] += m * V(w)[4 * i + k];
	}
	/* float rounding drifts it by about 1e-3 here; ignoring the masses (equal split)
	   would change it by order 1 */
	for (int k = 0; k < 3; ++k) ENSURE_NEAR(p1[k], p0[k], 1e-2 * (1.0 + fabs(p0[k])));
	pbd_DestroyWorld(w);
}

/* PBD only removes energy (seed 001 2.4): a swinging undamped chain never gains. */
void Test_PendulumEnergyBounded(void)
{
	pbdWorldId w = MakeWorld(32, 32);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[1] = 2.0f;
	def.end[0] = 1.5f;
	def.end[1] = 2.0f;
	def.segments = 20;
	pbd_World_AddChain(w, &def);
	pbd_World_SetInvMass(w, 0, 0.0f);
	pbdStats s;
	pbd_World_GetStats(w, &s);
	double e0 = s.kineticEnergy + s.potentialEnergy;
	double lowest = 1e30;
	float worst = 0.0f;
	for (int k = 0; k < 600; ++k) {
		pbd_World_Step(w);
		pbd_World_GetStats(w, &s);
		double e = s.kineticEnergy + s.potentialEnergy;
		ENSURE(e <= e0 + 1e-3 * fabs(e0) + 1e-6);
		if (s.potentialEnergy < lowest) lowest = s.potentialEnergy;
		if (s.maxStretch > worst) worst = s.maxStretch;
	}
	ENSURE(worst < 0.3f); /* Gauss-Seidel with 10 passes: about 0.18 here; unconstrained would fall apart */
	ENSURE(lowest < e0 - 0.5); /* it did swing down */
	pbd_DestroyWorld(w);
}

/* The velocity passes and the world bound, in closed form (solver.c Stage_Commit: a fast path
   for the common case and exact checks otherwise must agree): free particles, no gravity,
   no damping, one step of dt. */
void Test_SpeedAndWorldBounds(void)
{
	pbdWorldId w = MakeWorld(6, 3);
	const float vmax = 10.0f;
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f); /* three free pairs: six free particles */
	pbd_World_SetParam(w, pbdParam_maxSpeed, vmax);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	const float vs[6][3] = {
		{ 3.0f, 4.0f, 0.0f },    /* |v| = 5, components under vmax / 2: kept (fast path) */
		{ 6.0f, 6.0f, 0.0f },    /* |v| = 8.49 < vmax, components over vmax / 2: kept (exact path) */
		{ 30.0f, 0.0f, 40.0f },  /* |v| = 50: scaled to vmax along its direction */
		{ -9.9f, 0.0f, 0.0f },   /* just under: kept */
		{ 0.0f, 0.0f, 0.0f },
		{ 8.0f, 8.0f, 0.0f },    /* |v| = 11.3 with every component under vmax: scaled all the same */
	};
	for (int k = 0; k < 3; ++k) ENSURE(AddPair(w, 0.0f, 1.0f, (float)(2 * k), 0.0f, 1.0f, (float)(2 * k + 1)) == 2 * k);
	for (int i = 0; i < 6; ++i) pbd_World_SetVelocity(w, i, vs[i][0], vs[i][1], vs[i][2]);
	pbd_World_Step(w);
	const float* v = V(w);
	for (int k = 0; k < 3; ++k) {
		ENSURE_NEAR(v[0 * 4 + k], vs[0][k], 1e-4);
		ENSURE_NEAR(v[1 * 4 + k], vs[1][k], 1e-4);
		ENSURE_NEAR(v[2 * 4 + k], vs[2][k] / 5.0f, 1e-4);
		ENSURE_NEAR(v[3 * 4 + k], vs[3][k], 1e-4);
		ENSURE_NEAR(v[5 * 4 + k], vs[5][k] * vmax / sqrtf(128.0f), 1e-4);
	}
	/* a particle put at the edge of the world and pushed outward stops there, that component's v zeroed */
	pbd_World_SetPosition(w, 4, 99999.97f, 1.0f, -99999.97f);
	pbd_World_SetVelocity(w, 4, 4.0f, 1.0f, -4.0f); /* |v| under vmax: only the wall acts */
	pbd_World_Step(w);
	const float* x = X(w);
	ENSURE(x[16] == 1e5f && x[18] == -1e5f);
	ENSURE(V(w)[16] == 0.0f && V(w)[18] == 0.0f && fabsf(V(w)[17] - 1.0f) < 1e-3f);
	ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
}
