/* Collider shape tests: a particle dropped on a sphere, a capsule and a box rests touching it
   (surface distance r within 1% of the thickness), a cloth settles on a sphere; no tunnelling
   through a 1 cm plate at 60 m/s, either moving, nor past a small fast sphere; a box felt rounded
   by r at its edges; a spinning paddle keeps particles out; the boundary's query reports a moving
   wall's velocity at a point as its rigid motion, v + omega x r. */
#include "test_collider_helpers.h"
#include "services/boundary.h"

static float Speed(const float* v) { return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* A particle dropped on a shape ends at rest touching it: surface distance r (the
   particle radius) within 1% of the thickness, never below it on the way, and still. */
static void DropAndRest(pbdWorldId w, int particle, int collider, float expectX, float expectY, float expectZ, float tolXZ)
{
	const float r = Radius(w), tol = 0.02f * r; /* 1% of the thickness */
	for (int s = 0; s < 240; ++s) {
		pbd_World_Step(w);
		ENSURE(MinDistance(w, collider, particle, 1) >= r - tol);
	}
	const float* x = X(w) + 4 * particle;
	ENSURE_NEAR(pbd_World_ColliderDistance(w, collider, x[0], x[1], x[2]), r, tol);
	ENSURE(Speed(V(w) + 4 * particle) < 1e-3f);
	ENSURE_NEAR(x[0], expectX, tolXZ);
	ENSURE_NEAR(x[1], expectY, 2e-3);
	ENSURE_NEAR(x[2], expectZ, tolXZ);
}

void Test_ParticleRestsOnSphere(void)
{
	/* a little off the top: static friction (mu_s 0.5 > tan 5.7 deg) keeps it where it lands */
	pbdWorldId w = MakeWorld(8, 8);
	ENSURE(AddSphere(w, 0, 0, 0, 0.5f) == 0);
	int p = AddParticle(w, 0.05f, 1.5f, 0.0f);
	float rho = 0.5f + Radius(w);
	/* the impact's projection along the normal moves it out a few mm; it stays there */
	DropAndRest(w, p, 0, 0.05f, sqrtf(rho * rho - 0.05f * 0.05f), 0.0f, 0.01f);
	pbd_DestroyWorld(w);
	/* and with a thick particle (r = 5 cm) */
	w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_thickness, 0.1f);
	ENSURE(AddSphere(w, 1, 0, 0, 0.5f) == 0);
	p = AddParticle(w, 1.0f, 2.0f, 0.0f);
	DropAndRest(w, p, 0, 1.0f, 0.55f, 0.0f, 1e-5f);
	pbd_DestroyWorld(w);
}

void Test_ParticleRestsOnCapsule(void)
{
	/* lying along x (90 degrees about z), dropped onto its side and onto its cap */
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.2f;
	cap.halfHeight = 0.5f;
	cap.position[1] = 1.0f;
	AxisAngle(0, 0, 1, PI / 2, cap.rotation);
	ENSURE(pbd_World_AddCollider(w, &cap) == 0);
	int p = AddParticle(w, 0.3f, 2.0f, 0.0f);
	DropAndRest(w, p, 0, 0.3f, 1.2f + Radius(w), 0.0f, 1e-4f);
	pbd_DestroyWorld(w);

	w = MakeWorld(8, 8);
	cap.rotation[0] = cap.rotation[1] = cap.rotation[2] = 0.0f, cap.rotation[3] = 1.0f; /* upright */
	ENSURE(pbd_World_AddCollider(w, &cap) == 0);
	p = AddParticle(w, 0.0f, 3.0f, 0.0f);
	DropAndRest(w, p, 0, 0.0f, 1.7f + Radius(w), 0.0f, 1e-5f);
	pbd_DestroyWorld(w);
}

void Test_ParticleRestsOnBox(void)
{
	/* turned 30 degrees about y, so the local frame matters; the top face stays level */
	pbdWorldId w = MakeWorld(8, 8);
	float pos[3] = { 0.0f, 0.5f, 0.0f }, q[4];
	AxisAngle(0, 1, 0, PI / 6, q);
	ENSURE(AddBox(w, pos, q, 0.5f, 0.25f, 0.5f) == 0);
	int p = AddParticle(w, 0.1f, 2.0f, 0.2f);
	DropAndRest(w, p, 0, 0.1f, 0.75f + Radius(w), 0.2f, 1e-4f);
	pbd_DestroyWorld(w);
}

/* The test: a 30 x 30 cloth dropped on a sphere settles over it with no particle
   inside sphere + r by more than 1% of the thickness, and no edge through the sphere. */
void Test_ClothSettlesOnSphere(void)
{
	pbdWorldId w = MakeWorld(1000, 8000);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_groundHeight, -0.6f);
	const float R = 0.4f;
	float centre[3] = { 0.0f, 0.0f, 0.0f };
	ENSURE(AddSphere(w, centre[0], centre[1], centre[2], R) == 0);
	float origin[3] = { -0.75f, 0.8f, -0.75f }, u[3] = { 1.5f, 0, 0 }, v[3] = { 0, 0, 1.5f };
	int first = AddCloth(w, origin, u, v, 30, 30);
	ENSURE(first == 0);
	const int n = 900;
	const float r = Radius(w), tol = 0.02f * r;
	float worst = 3.4e38f, worstEdge = 3.4e38f;
	float midBefore[3] = { 0, 0, 0 };
	const int mid = first + 15 * 30 + 15;
	for (int s = 0; s < 600; ++s) {
		pbd_World_Step(w);
		float d = MinDistance(w, 0, first, n);
		if (d < worst) worst = d;
		float e = MinEdgeDistance(w, centre);
		if (e < worstEdge) worstEdge = e;
		if (s == 499) memcpy(midBefore, X(w) + 4 * mid, sizeof midBefore);
	}
	ENSURE(worst >= r - tol);
	ENSURE(worstEdge >= R);
	/* it lies on the sphere: some particles touch it (the edges, kept out too, lift the
	   particles of a 5 cm grid by up to sqrt(rho^2 + (L/2)^2) - rho = 0.8 mm) */
	ENSURE(MinDistance(w, 0, first, n) <= r + 0.002f);
	/* it has come to rest, draped over the top, and does not creep (friction holds) */
	float fastest = 0.0f;
	for (int i = 0; i < n; ++i) {
		float sp = Speed(V(w) + 4 * i);
		if (sp > fastest) fastest = sp;
	}
	ENSURE(fastest < 0.05f);
	const float* top = X(w) + 4 * mid;
	ENSURE(top[1] > R);
	for (int k = 0; k < 3; ++k) ENSURE_NEAR(top[k], midBefore[k], 1e-3);
	pbd_DestroyWorld(w);
}

/* A 1 cm plate: a particle at 60 m/s (1 m per step) and a plate at 60 m/s into a resting
   particle both end on the side they started, with one substep and with four. */
void Test_ThinBoxNoTunnelling(void)
{
	for (int substeps = 1; substeps <= 4; substeps *= 4) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		pbdColliderDef plate = pbd_DefaultColliderDef();
		plate.type = pbdShape_box;
		plate.halfExtents[0] = 2.0f, plate.halfExtents[1] = 0.005f, plate.halfExtents[2] = 2.0f;
		plate.staticFriction = plate.kineticFriction = 10.0f; /* it stops where it lands: on the plate */
		AxisAngle(0, 0, 1, 0.3, plate.rotation);         /* tilted, so the local frame matters */
		ENSURE(pbd_World_AddCollider(w, &plate) == 0);
		const float up[3] = { (float)-sin(0.3), (float)cos(0.3), 0.0f }; /* the plate's normal */
		int p = AddParticle(w, 0.0f, 0.5f, 0.0f);
		pbd_World_SetVelocity(w, p, 0.0f, -60.0f, 0.0f);
		for (int s = 0; s < 30; ++s) {
			pbd_World_Step(w);
			const float* x = X(w) + 4 * p;
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
			ENSURE(x[0] * up[0] + x[1] * up[1] > 0.0f); /* on the side it came from */
		}
		pbd_DestroyWorld(w);
	}
	for (int substeps = 1; substeps <= 4; substeps *= 4) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		float pos[3] = { 0, -0.3f, 0 }, id[4] = { 0, 0, 0, 1 };
		ENSURE(AddBox(w, pos, id, 2.0f, 0.005f, 2.0f) == 0);
		int p = AddParticle(w, 0.1f, 0.0f, 0.0f);
		const float dt = pbd_World_GetParam(w, pbdParam_dt);
		float y = pos[1];
		for (int s = 0; s < 10; ++s) {
			y += 60.0f * dt;
			pbd_World_SetColliderTransform(w, 0, 0, y, 0, 0, 0, 0, 1);
			pbd_World_Step(w);
			const float* x = X(w) + 4 * p;
			ENSURE(x[1] > y); /* carried on top, not left behind */
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
		}
		ENSURE_NEAR(V(w)[4 * p + 1], 60.0f, 0.5f);
		pbd_DestroyWorld(w);
	}
	/* starting already within r of the plate (pushed there, say, by its cloth) and thrown
	   through it: it keeps to the side it started on */
	for (int substeps = 1; substeps <= 4; substeps *= 4) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
		ENSURE(AddBox(w, pos, id, 2.0f, 0.005f, 2.0f) == 0);
		int p = AddParticle(w, 0.0f, 0.005f + 0.6f * Radius(w), 0.0f);
		pbd_World_SetVelocity(w, p, 0.0f, -60.0f, 0.0f);
		for (int s = 0; s < 5; ++s) {
			pbd_World_Step(w);
			const float* x = X(w) + 4 * p;
			ENSURE(x[1] > 0.0f);
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
		}
		pbd_DestroyWorld(w);
	}
	/* a small sphere thrown at 30 m/s (0.5 m per step, ten radii) at a particle on its path:
	   the step that reaches it ends with the centre 2 cm past the particle's place, yet the
	   particle is in front of it, and rides there */
	pbdWorldId w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	ENSURE(AddSphere(w, -0.98f, 0.0f, 0.0f, 0.05f) == 0);
	int p = AddParticle(w, 0.0f, 0.0f, 0.0f);
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	float sx = -0.98f;
	for (int s = 0; s < 20; ++s) {
		sx += 30.0f * dt;
		pbd_World_SetColliderTransform(w, 0, sx, 0, 0, 0, 0, 0, 1);
		pbd_World_Step(w);
		const float* x = X(w) + 4 * p;
		ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
		ENSURE(x[0] > sx); /* in front of it */
	}
	ENSURE_NEAR(V(w)[4 * p], 30.0f, 0.1f);
	pbd_DestroyWorld(w);
}

/* Particles are balls of radius r, so a box is felt rounded by r at its edges and corners:
   a particle gliding diagonally past a vertical edge at 1.2 r is not touched (a square-
   cornered box grown by r would reach to 1.41 r), one at 0.8 r is deflected. */
static float PassBoxEdge(float clearance)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	AddBox(w, pos, id, 0.5f, 0.5f, 0.5f);
	/* along (1, 0, -1) / sqrt 2, closest to the edge x = z = 0.5 at distance clearance */
	const float r = Radius(w), c = clearance * r / sqrtf(2.0f), s0 = 0.2f;
	int p = AddParticle(w, 0.5f + c - s0, 0.0f, 0.5f + c + s0);
	const float v = 1.0f / sqrtf(2.0f);
	pbd_World_SetVelocity(w, p, v, 0.0f, -v);
	for (int s = 0; s < 30; ++s) pbd_World_Step(w);
	float turn = fabsf(V(w)[4 * p] - v) + fabsf(V(w)[4 * p + 2] + v);
	pbd_DestroyWorld(w);
	return turn;
}

void Test_BoxEdgesAreRounded(void)
{
	ENSURE(PassBoxEdge(1.2f) < 1e-4f); /* untouched (v = (p - x) / h rounds by ~3e-6) */
	ENSURE(PassBoxEdge(0.8f) > 1e-2f); /* touched */
}

/* A thin paddle spinning at 6 rad/s through a row of particles: the rotation is
   interpolated per substep and no particle is left inside it. */
void Test_RotatingPaddleKeepsParticlesOut(void)
{
	pbdWorldId w = MakeWorld(64, 64);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 2.0f);
	float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	ENSURE(AddBox(w, pos, id, 1.0f, 0.01f, 0.3f) == 0);
	int first = -1;
	for (int i = 0; i < 10; ++i) {
		int p = AddParticle(w, 0.1f + 0.09f * (float)i, 0.1f, 0.0f);
		if (first < 0) first = p;
	}
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	for (int s = 0; s < 40; ++s) {
		float q[4];
		AxisAngle(0, 0, 1, 6.0 * dt * (s + 1), q);
		pbd_World_SetColliderTransform(w, 0, 0, 0, 0, q[0], q[1], q[2], q[3]);
		pbd_World_Step(w);
		/* the paddle in the plane z = 0 at angle a: local x = (cos a, sin a), local y = (-sin a, cos a) */
		double a = 6.0 * dt * (s + 1);
		float ax = (float)cos(a), ay = (float)sin(a);
		for (int i = 0; i < 10; ++i) {
			const float* x = X(w) + 4 * (first + 2 * i);
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
			/* within the paddle's reach, on its leading face: counter-clockwise, that is
			   local +y beside the +x arm and local -y beside the -x arm */
			float lx = x[0] * ax + x[1] * ay, ly = -x[0] * ay + x[1] * ax;
			if (lx * lx + ly * ly < 0.95f * 0.95f) ENSURE(ly * lx > 0.0f);
		}
	}
	ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
}

/* The boundary's query (services/boundary.h pbd_Walls_NearestMoving): distance, normal and velocity of the
   nearest wall. A paddle turned by theta = 0.1 rad about a tilted axis a and moved by v dt in one step is at
   every point p moving at v + omega x (p - c): omega = a 2 sin(theta / 2) / dt, the turn's quaternion as the
   floor takes it, which is a theta / dt within theta^2 / 24 = 4.2e-4 of it (off by 2e-3 m/s here: the test
   tells them apart). To float precision: 4e-6 m/s, one part in 10^6 of these speeds of up to 4 m/s (seen:
   9e-7, from the quaternions' components rounded to floats). The same rotation written -q moves alike; a sphere moved without turning moves at v at
   every point; the ground and no wall stand still; after the step (prev = where it stands) the walls are still. */
static void ExpectRigid(const pbdWalls* walls, const float p[3], const double v[3], const double om[3], const float c[3],
						float expectPhi, int32_t expectWall)
{
	float n[3], u[3];
	int32_t wall;
	const float phi = pbd_Walls_NearestWall(walls, p, 1.0f, n, &wall);
	ENSURE(wall == expectWall);
	ENSURE_NEAR(phi, expectPhi, 1e-5);
	ENSURE_NEAR(pbd_Walls_NearestMoving(walls, p, 1.0f, n, u), phi, 0.0);
	const double r[3] = { (double)p[0] - c[0], (double)p[1] - c[1], (double)p[2] - c[2] };
	const double e[3] = { v[0] + om[1] * r[2] - om[2] * r[1], v[1] + om[2] * r[0] - om[0] * r[2], v[2] + om[0] * r[1] - om[1] * r[0] };
	for (int k = 0; k < 3; ++k) ENSURE_NEAR(u[k], e[k], 4e-6);
}

void Test_WallVelocityIsRigidMotion(void)
{
	pbdWorldId w = MakeWorld(16, 16);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_groundHeight, -3.0f);
	const double dt = pbd_World_GetParam(w, pbdParam_dt), theta = 0.1, a0 = 0.4;
	const double len = sqrt(0.2 * 0.2 + 0.3 * 0.3 + 1.0), axis[3] = { 0.2 / len, -0.3 / len, 1.0 / len };
	const float c0[3] = { 0.2f, 0.1f, -0.1f }, c1[3] = { 0.2f + 0.01f, 0.1f - 0.02f, -0.1f + 0.005f };
	float q0[4], q1[4];
	AxisAngle((float)axis[0], (float)axis[1], (float)axis[2], a0, q0);
	AxisAngle((float)axis[0], (float)axis[1], (float)axis[2], a0 + theta, q1);
	ENSURE(AddBox(w, c0, q0, 1.0f, 0.01f, 0.3f) == 0);
	ENSURE(AddSphere(w, 5.0f, 0.0f, 0.0f, 0.5f) == 1);
	ENSURE(pbd_World_SetColliderTransform(w, 0, c1[0], c1[1], c1[2], q1[0], q1[1], q1[2], q1[3]) == PBD_OK);
	ENSURE(pbd_World_SetColliderTransform(w, 1, 5.0f + 0.03f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f) == PBD_OK);
	pbdWorld* pw = pbd_GetWorld(w);
	const pbdWalls walls = pbd_Boundary_Walls(pw, 1.0f);
	const double v[3] = { (c1[0] - c0[0]) / dt, (c1[1] - c0[1]) / dt, (c1[2] - c0[2]) / dt };
	const double speed = 2.0 * sin(0.5 * theta) / dt;
	const double om[3] = { axis[0] * speed, axis[1] * speed, axis[2] * speed };
	ENSURE(fabs(speed / (theta / dt) - 1.0) < theta * theta / 24.0);
	/* points 4 cm off the paddle's faces (local (x, +-0.05, z)), in world by the paddle's transform now */
	const float local[4][3] = { { 0.9f, 0.05f, 0.2f }, { -0.7f, -0.05f, -0.25f }, { 0.0f, 0.05f, 0.0f }, { 0.3f, -0.05f, 0.1f } };
	pbdXf t;
	QuatToXf(c1, pw->boundary->colliders[0].shape.rotation, &t);
	for (int i = 0; i < 4; ++i) {
		float p[3];
		ToWorld(&t, local[i], p);
		ExpectRigid(&walls, p, v, om, c1, 0.04f, 0);
	}
	/* the same rotation as -q */
	ENSURE(pbd_World_SetColliderTransform(w, 0, c1[0], c1[1], c1[2], -q1[0], -q1[1], -q1[2], -q1[3]) == PBD_OK);
	const pbdWalls negated = pbd_Boundary_Walls(pw, 1.0f);
	float p[3];
	ToWorld(&t, local[0], p);
	ExpectRigid(&negated, p, v, om, c1, 0.04f, 0);
	/* the sphere, moved 3 cm along x without turning: v = (0.03 / dt, 0, 0) on every side of it */
	const double vs[3] = { (double)((5.0f + 0.03f) - 5.0f) / dt, 0.0, 0.0 }, zero[3] = { 0.0, 0.0, 0.0 };
	const float cs[3] = { 5.03f, 0.0f, 0.0f };
	const float around[3][3] = { { 5.63f, 0.0f, 0.0f }, { 5.03f, 0.0f, -0.6f }, { 4.43f, 0.0f, 0.0f } };
	for (int i = 0; i < 3; ++i) ExpectRigid(&walls, around[i], vs, zero, cs, 0.1f, 1);
	/* the ground stands still; so does no wall */
	const float low[3] = { -3.0f, -2.5f, 0.0f }, far[3] = { -3.0f, 5.0f, 0.0f };
	ExpectRigid(&walls, low, zero, zero, c1, 0.5f, pbdWall_ground);
	float n[3], u[3] = { 1.0f, 1.0f, 1.0f };
	ENSURE(pbd_Walls_NearestMoving(&walls, far, 1.0f, n, u) == 1.0f && u[0] == 0.0f && u[1] == 0.0f && u[2] == 0.0f);
	/* after the step the colliders stand where they were moved: still */
	pbd_World_Step(w);
	const pbdWalls after = pbd_Boundary_Walls(pw, 1.0f);
	ToWorld(&t, local[0], p);
	pbd_Walls_NearestMoving(&after, p, 1.0f, n, u);
	ENSURE(u[0] == 0.0f && u[1] == 0.0f && u[2] == 0.0f);
	pbd_DestroyWorld(w);
}
