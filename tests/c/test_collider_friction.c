/* Collider friction and restitution tests: the Coulomb threshold mu_s = tan theta on a tilted box,
   kinetic sliding in closed form, a moving box carrying a resting particle; a bounce of e u off each
   shape, a restitution changed live, and a moving paddle sending a particle off at (1 + e) U. */
#include "test_collider_helpers.h"

/* A particle at rest on the top face of a box tilted by theta slides iff mu_s < tan theta
   (Coulomb; positional friction: the tangential travel g h^2 sin theta against mu_s times
   the depth g h^2 cos theta). Returns how far it went along the slope in 60 steps. */
static float SlideOnTiltedBox(float theta, float muS, float muK)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef box = pbd_DefaultColliderDef();
	box.type = pbdShape_box;
	box.halfExtents[0] = 5.0f, box.halfExtents[1] = 0.1f, box.halfExtents[2] = 5.0f;
	AxisAngle(0, 0, 1, theta, box.rotation);
	box.staticFriction = muS;
	box.kineticFriction = muK;
	pbd_World_AddCollider(w, &box);
	/* on the top face at local (0, 0.1 + r, 0) */
	float h = 0.1f + Radius(w);
	float px = (float)(-sin(theta) * h), py = (float)(cos(theta) * h);
	int p = AddParticle(w, px, py, 0.0f);
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	const float* x = X(w) + 4 * p;
	float along = (float)((x[0] - px) * cos(theta) + (x[1] - py) * sin(theta)); /* up the slope */
	float off = pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) - Radius(w);
	pbd_DestroyWorld(w);
	return fabsf(off) < 1e-4f ? -along : NAN; /* NAN if it left the face */
}

void Test_ColliderStaticFrictionThreshold(void)
{
	const double theta = 20.0 * PI / 180.0; /* tan = 0.364 */
	float held = SlideOnTiltedBox((float)theta, 0.40f, 0.30f);
	ENSURE(isfinite(held) && fabsf(held) < 1e-5f);
	float slid = SlideOnTiltedBox((float)theta, 0.33f, 0.30f);
	ENSURE(isfinite(slid) && slid > 0.01f);
	float steeper = SlideOnTiltedBox((float)(30.0 * PI / 180.0), 0.5f, 0.4f); /* tan 30 = 0.577 > 0.5 */
	ENSURE(isfinite(steeper) && steeper > 0.01f);
	float flat = SlideOnTiltedBox((float)(30.0 * PI / 180.0), 0.6f, 0.4f);
	ENSURE(isfinite(flat) && fabsf(flat) < 1e-5f);
}

/* Sliding, the particle accelerates at g (sin - mu_k cos) down the slope: after n steps
   of semi-implicit Euler it has gone a h^2 n (n + 1) / 2. */
void Test_ColliderKineticFrictionClosedForm(void)
{
	const double theta = 25.0 * PI / 180.0, g = 9.81, h = 1.0 / 60.0;
	const double muKs[] = { 0.0, 0.2, 0.4 };
	for (int k = 0; k < 3; ++k) {
		float slid = SlideOnTiltedBox((float)theta, 0.0f, (float)muKs[k]);
		double a = g * (sin(theta) - muKs[k] * cos(theta));
		double expect = a * h * h * 60.0 * 61.0 / 2.0;
		ENSURE(isfinite(slid));
		ENSURE_NEAR(slid, expect, 0.01 * expect + 1e-5);
	}
}

/* A box sliding sideways under a resting particle carries it (friction acts on the motion
   relative to the collider's surface): the particle ends up moving with it. */
void Test_ColliderFrictionCarries(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	ENSURE(AddBox(w, pos, id, 1.0f, 0.1f, 1.0f) == 0);
	int p = AddParticle(w, 0.0f, 0.1f + Radius(w), 0.0f);
	const float U = 0.5f, dt = pbd_World_GetParam(w, pbdParam_dt);
	float bx = 0.0f;
	for (int s = 0; s < 90; ++s) {
		bx += U * dt;
		ENSURE(pbd_World_SetColliderTransform(w, 0, bx, 0, 0, 0, 0, 0, 1) == PBD_OK);
		pbd_World_Step(w);
		const float* x = X(w) + 4 * p;
		ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
	}
	const float* x = X(w) + 4 * p;
	ENSURE_NEAR(V(w)[4 * p], U, 1e-3);      /* moving with the box */
	ENSURE_NEAR(V(w)[4 * p + 1], 0.0f, 1e-3); /* and still on it */
	float rel = x[0] - bx;
	/* kinetic while it catches up (mu_k g = 3.9 m/s^2: 0.13 s), static after */
	for (int s = 0; s < 30; ++s) {
		bx += U * dt;
		pbd_World_SetColliderTransform(w, 0, bx, 0, 0, 0, 0, 0, 1);
		pbd_World_Step(w);
	}
	ENSURE_NEAR(X(w)[4 * p] - bx, rel, 1e-4);
	ENSURE(rel < 0.0f && rel > -0.05f); /* it lagged a little while it slipped */
	pbd_DestroyWorld(w);
}

/* A particle hitting a collider at speed u leaves it at e u along the normal. */
void Test_ColliderRestitution(void)
{
	const float es[] = { 0.0f, 0.5f, 0.8f, 1.0f };
	for (int shape = 0; shape < 3; ++shape) {
		for (int k = 0; k < 4; ++k) {
			pbdWorldId w = MakeWorld(8, 8);
			pbdColliderDef def = pbd_DefaultColliderDef();
			def.type = shape;
			def.radius = 0.5f;
			def.halfHeight = 0.5f;
			def.restitution = es[k];
			def.position[1] = -0.5f; /* top surface at y = 0 for all three */
			if (shape == pbdShape_capsule) {
				def.position[1] = -0.5f;
				AxisAngle(1, 0, 0, PI / 2, def.rotation); /* lying along z */
			}
			pbd_World_AddCollider(w, &def);
			int p = AddParticle(w, 0.0f, Radius(w) + 0.001f, 0.0f);
			pbd_World_SetVelocity(w, p, 0.0f, -4.0f, 0.0f);
			pbd_World_Step(w); /* hits during this step at 4 + g dt */
			float impact = 4.0f + 9.81f / 60.0f;
			ENSURE(MinDistance(w, 0, p, 1) >= Radius(w) - 1e-5f);
			ENSURE_NEAR(V(w)[4 * p + 1], es[k] * impact, 0.01 * impact * es[k] + 1e-4);
			ENSURE_NEAR(V(w)[4 * p], 0.0f, 1e-4);
			/* the bounce then rises to about (e u)^2 / 2g */
			if (es[k] > 0.0f) {
				float top = -1.0f;
				for (int s = 0; s < 120; ++s) {
					pbd_World_Step(w);
					if (X(w)[4 * p + 1] > top) top = X(w)[4 * p + 1];
				}
				float rise = es[k] * impact * es[k] * impact / (2.0f * 9.81f);
				ENSURE_NEAR(top - Radius(w), rise, 0.05f * rise + 0.01f);
			}
			pbd_DestroyWorld(w);
		}
	}
}

/* pbd_World_SetColliderMaterial: a live change reaches the next contact (the bounce follows
   the new restitution, e u), and refused values change nothing. */
void Test_ColliderMaterialSetLive(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.radius = 0.5f;
	def.position[1] = -0.5f; /* top at y = 0 */
	ENSURE(pbd_World_AddCollider(w, &def) == 0);
	int p = AddParticle(w, 0.0f, Radius(w) + 0.001f, 0.0f);
	pbdColliderInfo before, after;
	ENSURE(pbd_World_GetColliderInfo(w, 0, &before) == PBD_OK);
	uint32_t hash = pbd_World_Hash(w);
	ENSURE(pbd_World_SetColliderMaterial(w, 1, 0.5f, 0.4f, 0.5f) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_SetColliderMaterial(w, -1, 0.5f, 0.4f, 0.5f) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, 0.5f, 0.4f, 1.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "restitution") != NULL);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, NAN, 0.4f, 0.5f) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, 0.5f, -0.1f, 0.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "kineticFriction") != NULL);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, 11.0f, 0.4f, 0.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &after) == PBD_OK);
	ENSURE(memcmp(&before, &after, sizeof before) == 0 && pbd_World_Hash(w) == hash);

	ENSURE(pbd_World_SetColliderMaterial(w, 0, 0.7f, 0.6f, 0.8f) == PBD_OK);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &after) == PBD_OK);
	ENSURE(after.staticFriction == 0.7f && after.kineticFriction == 0.6f && after.restitution == 0.8f);
	pbd_World_SetVelocity(w, p, 0.0f, -4.0f, 0.0f);
	pbd_World_Step(w);
	float impact = 4.0f + 9.81f / 60.0f;
	ENSURE_NEAR(V(w)[4 * p + 1], 0.8f * impact, 0.01 * impact);
	pbd_DestroyWorld(w);
}

/* A paddle moving up at U into a particle at rest sends it off at (1 + e) U: restitution
   acts on the velocity relative to the collider. */
void Test_ColliderRestitutionMovingPaddle(void)
{
	const float es[] = { 0.0f, 0.5f, 1.0f };
	for (int k = 0; k < 3; ++k) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		pbdColliderDef def = pbd_DefaultColliderDef();
		def.type = pbdShape_box;
		def.halfExtents[0] = 1.0f, def.halfExtents[1] = 0.05f, def.halfExtents[2] = 1.0f;
		def.restitution = es[k];
		def.position[1] = -0.05f - 0.02f; /* top 2 cm below the particle's contact height */
		pbd_World_AddCollider(w, &def);
		int p = AddParticle(w, 0.0f, Radius(w), 0.0f);
		const float U = 3.0f, dt = pbd_World_GetParam(w, pbdParam_dt);
		float y = def.position[1];
		y += U * dt;
		pbd_World_SetColliderTransform(w, 0, 0, y, 0, 0, 0, 0, 1); /* 5 cm this step: it hits */
		pbd_World_Step(w);
		ENSURE_NEAR(V(w)[4 * p + 1], (1.0f + es[k]) * U, 0.01f * U);
		ENSURE(MinDistance(w, 0, p, 1) >= Radius(w) - 1e-5f);
		pbd_DestroyWorld(w);
	}
}
