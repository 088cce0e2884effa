/* make_corpus.c -- writes the API fuzzer's seed corpus (tests/fuzz/corpus/, `make fuzz-corpus`):
   small programs in fuzz_input.h's encoding that reach the engine's deeper states at once
   (a pinned cloth on colliders, drags, tearing, wind, self-collision, several worlds, stale
   handles, hostile parameters), so the fuzzer mutates from there instead of from nothing.

     build/make_corpus DIR     writes DIR/seed-NN-name files (the same bytes every time) */
#include "fuzz_input.h"
#include "minipbd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t s_buf[4096];
static size_t s_len;

static void B(int b)
{
	if (s_len < sizeof s_buf) s_buf[s_len++] = (uint8_t)b;
}

/* Floats: a special value by its index, or a small number (a multiple of 1/8 in [-16, 16)). */
static void Fs(int special) { B(special); }
static void F(double v)
{
	int q = (int)(v * 8.0 + (v < 0 ? -0.5 : 0.5));
	if (q < -128 || q > 127 || q / 8.0 != v) {
		/* not a small number: raw bits */
		float f = (float)v;
		uint32_t bits;
		memcpy(&bits, &f, sizeof bits);
		B(0xff);
		for (int i = 0; i < 4; ++i) B((int)(bits >> (8 * i)) & 0xff);
		return;
	}
	B(FUZZ_SPECIAL_COUNT);
	B(q & 0xff);
}
static void F3(double x, double y, double z) { F(x), F(y), F(z); }

/* Indices: a valid one (i modulo the count), or a hostile one: -1, count, count + 1, INT_MIN, INT_MAX. */
static void I(int i) { B(0), B(i); }
enum { I_MINUS1 = 0xc0, I_COUNT, I_COUNT1, I_INTMIN, I_INTMAX };
static void Ih(int which) { B(which); }

static void W(void) { B(0); } /* the current slot's world */
/* other handles (fuzz_api.c ReadWorld): slot 1's world, a destroyed one, 0, the current one's next generation */
enum { W_SLOT1 = FUZZ_WORLD_CURRENT + 2, W_STALE = FUZZ_WORLD_STALE - 8, W_ZERO = 0xfc, W_NEXTGEN = 0xed };

static void Op(FuzzOp op) { B(op); }
static void Count(int n) { B(n < 17 ? 0 : 0x80), B(n); }
static void Cap(int v) { B(0), B(v & 0xff), B((v >> 8) & 0xff); }

static void CreateWorld(int slot, int particles, int constraints)
{
	Op(FUZZ_OP_CREATE_WORLD), B(slot), B(0);
	Cap(particles), Cap(constraints);
	for (int i = 0; i < 6; ++i) Cap(0); /* defaults */
}
static void Cloth(double ox, double oy, double oz, double ux, double vy, double vz, int nu, int nv)
{
	Op(FUZZ_OP_ADD_CLOTH), W(), B(0), B(1 | 2 | 4 | 8 | 16);
	F3(ox, oy, oz), F3(ux, 0, 0), F3(0, vy, vz), Count(nu), Count(nv);
}
static void Chain(double sx, double sy, double ex, double ey, int segments)
{
	Op(FUZZ_OP_ADD_CHAIN), W(), B(0), B(1 | 2 | 4);
	F3(sx, sy, 0), F3(ex, ey, 0), Count(segments);
}
static void U32(uint32_t v) { B(v & 0xff), B((v >> 8) & 0xff), B((v >> 16) & 0xff), B(v >> 24); }
static void Filter(int object, uint32_t category, uint32_t mask) { Op(FUZZ_OP_SET_FILTER), W(), I(object), U32(category), U32(mask); }
static void Pin(int particle) { Op(FUZZ_OP_SET_INV_MASS), W(), I(particle), Fs(0); }
static void Steps(int n)
{
	for (; n > 0; n -= 4) Op(FUZZ_OP_STEP), W(), B(n >= 4 ? 3 : n - 1);
}
/* A parameter by index: mode 6 is a point of its range, t/255 of the way (cubed for counts). */
static void ParamAt(pbdParam p, int t) { Op(FUZZ_OP_SET_PARAM), W(), I(p), B(6), B(t); }
static void ParamF(pbdParam p, double v) { Op(FUZZ_OP_SET_PARAM), W(), I(p), B(0), F(v); }
static void ParamSpecial(pbdParam p, int special) { Op(FUZZ_OP_SET_PARAM), W(), I(p), B(0), Fs(special); }
static void Sphere(double x, double y, double z, double r)
{
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 2 | 8), B(0), I(pbdShape_sphere), F3(x, y, z), F(r);
}
static void Shape(int type, double x, double y, double z, double r, double hh, double hx, double hy, double hz)
{
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 2 | 4 | 8 | 16 | 32), B(0), I(type), F3(x, y, z);
	F(0), F(0), F(0.375), F(1); /* a rotation about z, normalised by the engine */
	F(r), F(hh), F3(hx, hy, hz);
}
static void MoveCollider(int c, double x, double y, double z) { Op(FUZZ_OP_SET_COLLIDER_XF), W(), I(c), F3(x, y, z), F(0), F(0), F(0), F(1); }
static void Attach(int particle, double x, double y, double z) { Op(FUZZ_OP_ADD_ATTACHMENT), W(), I(particle), F3(x, y, z), Fs(2); }
static void MoveAttach(int which, double x, double y, double z) { Op(FUZZ_OP_MOVE_ATTACHMENT), W(), B(which), F3(x, y, z); }
/* One of fuzz_query.c's read-only calls, with the arguments it reads. */
static void Query(int which)
{
	Op(FUZZ_OP_QUERY), W(), B(which);
	switch (which) {
	case 0: I(pbdBuffer_triangles); break;            /* GetCount, GetBuffer */
	case 1: case 2: I(0), B(0); break;                /* GetObjectInfo, GetColliderInfo */
	case 3: I(pbdParam_thickness); break;             /* GetParam */
	case 4: I(pbdParam_tethers), B(0); break;         /* GetParamInfo */
	case 5: B(4), B('d'), B('r'), B('a'), B('g'), I(3); break; /* ParamFromName, ParamName */
	case 6: B(0xf3), B(0xff), B(0xff), B(0xff), Fs(4), I(200); break; /* ErrorString(-13), PassStiffness */
	case 7: Count(7), Count(5); break;                /* ClothCounts, ChainCounts */
	default: break;                                   /* hash, counts, IsValid */
	}
}
static void Reads(void)
{
	Op(FUZZ_OP_GET_STATS), W(), B(0);
	Op(FUZZ_OP_UPDATE_NORMALS), W();
	Op(FUZZ_OP_UPDATE_ERRORS), W();
	Op(FUZZ_OP_FIND_PAIRS), W();
	Op(FUZZ_OP_RAY_PICK), W(), F3(0, 1, 4), F3(0, 0, -1), F(0.25);
	Op(FUZZ_OP_RAY_COLLIDERS), W(), F3(0, 1, 4), F3(0, 0, -1), B(0);
	for (int q = 0; q < 9; ++q) Query(q);
}
/* Bodies (fuzz_bodies.c): type 0 soft, 1 rigid; a lattice shape at (x, y, z) of res cells. */
static void Body(int type, int shape, double x, double y, double z, int res)
{
	Op(FUZZ_OP_ADD_BODY), W(), B(0), B(1 | 2 | 4 | 128), B(0), B(type), I(shape), F3(x, y, z), Count(res);
}
/* A mesh body: mesh 0 cube surface, 1 octahedron, 2 cube in 5 tets, 3 one tet; then `count`
   mutations, written by the caller after this (kind byte and its arguments). */
static void MeshBody(int type, int mesh, double y, int count)
{
	Op(FUZZ_OP_ADD_BODY), W(), B(0), B(1 | 4 | 128), B(1024 >> 8), B(type), F3(0, y, 0), Count(4), B(mesh), B(count);
}
static void Skin(void) { Op(FUZZ_OP_UPDATE_SKIN), W(); }
static void Hanging(int n) /* an n x n cloth, 2 m, hanging from its top corners */
{
	Cloth(-1, 2.5, 0, 2, -2, 0, n, n);
	Pin(0), Pin(n - 1);
}

static void WriteFile(const char* dir, const char* name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE* file = fopen(path, "wb");
	if (file == NULL || fwrite(s_buf, 1, s_len, file) != s_len || fclose(file) != 0) {
		fprintf(stderr, "make_corpus: could not write %s\n", path);
		exit(1);
	}
	s_len = 0;
}

static void Write(const char* dir, int index, const char* name)
{
	char file[256];
	snprintf(file, sizeof file, "seed-%02d-%s", index, name);
	WriteFile(dir, file);
}

int main(int argc, char** argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: make_corpus DIR\n");
		return 2;
	}
	const char* dir = argv[1];
	int n = 0;

	Hanging(12), Steps(12), Reads();
	Write(dir, n++, "hanging-cloth");

	Hanging(10), Sphere(0, 1, 0, 0.5), Steps(8), MoveCollider(0, 0.5, 1.5, 0), Steps(8), Reads();
	Write(dir, n++, "cloth-moving-sphere");

	Cloth(-1, 1.5, -1, 2, 0, 2, 10, 10), Shape(pbdShape_capsule, 0, 1, 0, 0.25, 0.5, 0, 0, 0), Steps(8);
	for (int i = 0; i < 6; ++i) MoveCollider(0, 0.25 * i, 1 - 0.125 * i, 0), Steps(1);
	Write(dir, n++, "flat-cloth-capsule-sweep");

	Cloth(-1, 1.5, -1, 2, 0, 2, 9, 9), Shape(pbdShape_box, 0, 0.75, 0, 0, 0, 0.5, 0.125, 0.5), Steps(16), Reads();
	Write(dir, n++, "cloth-on-box");

	Chain(0, 3, 2.5, 3, 16), Pin(0), Attach(16, 2, 1, 0), Steps(4), MoveAttach(0, -2, 4, 0), Steps(4);
	Op(FUZZ_OP_REMOVE_ATTACHMENT), W(), B(0), Steps(4), Op(FUZZ_OP_REMOVE_ATTACHMENT), W(), B(0);
	Write(dir, n++, "chain-drag-release");

	Cloth(-1, 0.5, -1, 2, 0, 2, 12, 12), ParamAt(pbdParam_thickness, 12), ParamF(pbdParam_selfCollision, 1);
	Attach(0, 0.9, 0.6, 0.9), Steps(12), Reads();
	Write(dir, n++, "self-collision-fold");

	Hanging(10), ParamF(pbdParam_airDensity, 1.25), ParamF(pbdParam_windX, 6), ParamF(pbdParam_windZ, 2), Steps(12), Reads();
	Write(dir, n++, "wind");

	Hanging(10), ParamF(pbdParam_tearStretch, 0.25), Attach(55, 0, -3, 2), Steps(8), MoveAttach(0, 0, -6, 4), Steps(8), Reads();
	Write(dir, n++, "tearing-pull");

	Hanging(10), ParamF(pbdParam_tetherSlack, 0.5), ParamF(pbdParam_tethers, 0.5), Steps(8), Pin(5), Steps(4), Reads();
	Write(dir, n++, "tethers-slack-pins-change");

	Hanging(6);
	for (int p = 0; p < pbdParam_count; ++p) ParamSpecial((pbdParam)p, p % 2 ? 22 : 24); /* NaN, Inf */
	for (int p = 0; p < pbdParam_count; ++p) Op(FUZZ_OP_SET_PARAM), W(), I(p), B(7), B(p); /* just outside the range */
	for (int p = 0; p < pbdParam_count; ++p) Op(FUZZ_OP_SET_PARAM), W(), I(p), B(4); /* the maximum */
	Op(FUZZ_OP_SET_PARAM), W(), Ih(I_COUNT), B(0), Fs(2), Op(FUZZ_OP_SET_PARAM), W(), Ih(I_INTMIN), B(0), Fs(2);
	ParamF(pbdParam_substeps, 1), ParamF(pbdParam_iterations, 2), Steps(4);
	Write(dir, n++, "params-hostile-then-max");

	Hanging(6), Op(FUZZ_OP_DESTROY_WORLD), W(), Steps(1), Hanging(4), Query(8);
	Op(FUZZ_OP_DESTROY_WORLD), B(W_STALE), Op(FUZZ_OP_STEP), B(W_STALE), B(0), Op(FUZZ_OP_STEP), B(W_ZERO), B(0);
	CreateWorld(0, 300, 0), Hanging(5), Steps(2), Op(FUZZ_OP_STEP), B(W_STALE), B(0), Op(FUZZ_OP_STEP), B(W_NEXTGEN), B(0);
	Write(dir, n++, "stale-worlds");

	CreateWorld(1, 600, 0), Op(FUZZ_OP_SELECT), B(1), Hanging(8), Steps(4);
	Op(FUZZ_OP_SELECT), B(0), Chain(0, 2, 1, 2, 10), Pin(0), Steps(4);
	Op(FUZZ_OP_STEP), B(W_SLOT1), B(1); /* slot 1's world from slot 0 */
	Op(FUZZ_OP_SELECT), B(1), Reads(), Op(FUZZ_OP_DESTROY_WORLD), W(), Op(FUZZ_OP_SELECT), B(0), Steps(2);
	Write(dir, n++, "two-worlds");

	Hanging(8), Attach(20, 0, 0, 0), MoveAttach(0, 0, 0, 0), Op(FUZZ_OP_MOVE_ATTACHMENT), W(), B(0), Fs(12), Fs(13), Fs(12);
	Steps(2), Op(FUZZ_OP_SET_POSITION), W(), I(30), Fs(12), Fs(13), Fs(14);
	Op(FUZZ_OP_SET_POSITION), W(), I(31), Fs(12), Fs(13), Fs(12), Op(FUZZ_OP_SET_VELOCITY), W(), I(32), Fs(15), Fs(26), Fs(15);
	Op(FUZZ_OP_SET_VELOCITY), W(), I(31), F(15), F(-15), F(15); /* out through the world bound's faces */
	Op(FUZZ_OP_SET_VELOCITY), W(), I(33), Fs(15), Fs(15), Fs(15), ParamF(pbdParam_maxSpeed, 1), Steps(4);
	Write(dir, n++, "teleports-and-speeds");

	Hanging(8);
	for (int i = 0; i < 8; ++i) Op(FUZZ_OP_SET_MASS), W(), I(8 * i + 3), Fs(i % 2 ? 10 : 11);
	Op(FUZZ_OP_SET_MASS), W(), I(5), Fs(29), Op(FUZZ_OP_SET_INV_MASS), W(), I(6), Fs(11), Op(FUZZ_OP_SET_INV_MASS), W(), I(6), Fs(1);
	Op(FUZZ_OP_SET_MASS), W(), Ih(I_COUNT), Fs(2), Op(FUZZ_OP_SET_MASS), W(), Ih(I_MINUS1), Fs(2);
	Steps(8);
	Write(dir, n++, "extreme-masses");

	Hanging(8), ParamF(pbdParam_substeps, 64), ParamF(pbdParam_iterations, 1), ParamF(pbdParam_dt, 0.1), ParamF(pbdParam_damping, 100);
	Steps(4), ParamF(pbdParam_substeps, 1), ParamF(pbdParam_iterations, 1), ParamF(pbdParam_dt, 0.0001), Steps(4);
	Write(dir, n++, "substeps-dt-damping-ends");

	CreateWorld(0, 40, 60), Cloth(-1, 2, 0, 2, -2, 0, 7, 7), Cloth(-1, 2, 0, 2, -2, 0, 5, 5), Chain(0, 0, 1, 1, 50);
	Chain(0, 0, 1, 1, 3), Op(FUZZ_OP_ADD_CHAIN), W(), B(0), B(4), B(0xe1); /* segments INT_MAX */
	Op(FUZZ_OP_ADD_CLOTH), W(), B(0), B(8 | 16), B(0xe1), B(0xe1), Op(FUZZ_OP_ADD_CLOTH), W(), B(2), B(0);
	Op(FUZZ_OP_ADD_CHAIN), W(), B(1), B(0), Steps(2);
	Write(dir, n++, "capacities-and-bad-defs");

	Hanging(6), Sphere(0, 1, 0, 0.5), Reads();
	Op(FUZZ_OP_COLLIDER_DISTANCE), W(), I(0), F3(0, 2, 0), Op(FUZZ_OP_COLLIDER_DISTANCE), W(), Ih(I_COUNT), F3(0, 2, 0);
	Op(FUZZ_OP_COLLIDER_DISTANCE), W(), I(0), Fs(22), F(0), F(0), Op(FUZZ_OP_SET_COLLIDER_MAT), W(), I(0), F(1), F(0.5), F(0.5);
	Op(FUZZ_OP_SET_COLLIDER_MAT), W(), I(0), F(11), F(0.5), F(0.5), Op(FUZZ_OP_SET_COLLIDER_MAT), W(), I(0), F(1), F(0.5), Fs(22);
	Write(dir, n++, "collider-queries-materials");

	Hanging(6), Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 4), B(0), I(pbdShape_box), F(0), F(0), F(0), F(0); /* zero quaternion */
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 8), B(0), Ih(I_COUNT), F(1);                                 /* no such type */
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 8), B(0), I(pbdShape_sphere), Fs(26);                        /* radius FLT_MAX */
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 8), B(0), I(pbdShape_sphere), Fs(15);                        /* radius 1e4 */
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 4), B(0), I(pbdShape_box), Fs(43), Fs(43), Fs(43), Fs(43); /* huge quaternion */
	Op(FUZZ_OP_ADD_COLLIDER), W(), B(0), B(1 | 4), B(0), I(pbdShape_capsule), Fs(30), Fs(30), Fs(30), Fs(30); /* denormal one */
	Steps(4), MoveCollider(1, 0, 0, 0), Steps(2);
	Write(dir, n++, "colliders-hostile");

	Cloth(-1, 0.125, -1, 2, 0, 2, 10, 10), ParamF(pbdParam_gravityY, 9.75), ParamF(pbdParam_groundHeight, 1), Steps(8);
	ParamF(pbdParam_groundEnabled, 0), ParamF(pbdParam_gravityY, -15), ParamF(pbdParam_restitution, 1), Steps(8);
	ParamF(pbdParam_groundEnabled, 1), ParamF(pbdParam_staticFriction, 10), Steps(8);
	Write(dir, n++, "ground-and-gravity");

	Hanging(8), ParamF(pbdParam_recordConvergence, 1), ParamF(pbdParam_iterations, 8), Steps(2), Query(0), Reads();
	Write(dir, n++, "convergence");

	Hanging(8);
	for (int k = 0; k < pbdKind_count; ++k) Op(FUZZ_OP_SET_STIFFNESS), W(), I(0), I(k), F(0.25 * k);
	Op(FUZZ_OP_SET_STIFFNESS), W(), Ih(I_COUNT), I(0), F(1), Op(FUZZ_OP_SET_STIFFNESS), W(), I(0), Ih(I_COUNT), F(1);
	Op(FUZZ_OP_SET_STIFFNESS), W(), I(0), I(0), Fs(22), ParamF(pbdParam_stiffnessBend, 1), Steps(4);
	Write(dir, n++, "stiffness");

	Hanging(6);
	for (int i = 0; i < 20; ++i) Attach(i, 0.125 * i, 1, 1); /* past the default 16 attachments */
	Steps(2);
	for (int i = 0; i < 20; ++i) Op(FUZZ_OP_REMOVE_ATTACHMENT), W(), B(i);
	Op(FUZZ_OP_MOVE_ATTACHMENT), W(), B(0xe2), F3(0, 0, 0), Op(FUZZ_OP_REMOVE_ATTACHMENT), W(), B(0xe3), B(1), B(0), B(1), B(0);
	Write(dir, n++, "attachments-capacity-stale");

	Cloth(-1, 0.5, -1, 2, 0, 2, 12, 12), ParamAt(pbdParam_thickness, 40), ParamF(pbdParam_selfCollision, 1);
	Sphere(0, 0, 0, 0.5), ParamF(pbdParam_airDensity, 1), ParamF(pbdParam_windY, 8), ParamF(pbdParam_tearStretch, 0.5);
	Attach(0, 2, 2, 2), Steps(12), MoveCollider(0, 0, 1, 0), Steps(8), Reads();
	Write(dir, n++, "everything-at-once");

	Chain(0, 1, 0, 1, 5); /* start = end: zero-length links */
	Cloth(0, 1, 0, 0, 0, 0, 4, 4); /* zero axes: every particle on one point */
	Pin(0), Steps(4), Reads();
	Write(dir, n++, "degenerate-geometry");

	Op(FUZZ_OP_SET_INV_MASS), W(), Ih(I_MINUS1), Fs(0), Chain(0, 2, 1, 2, 4), Op(FUZZ_OP_SET_POSITION), W(), Ih(I_INTMAX), F3(0, 0, 0);
	Op(FUZZ_OP_SET_POSITION), W(), Ih(I_INTMIN), F3(0, 0, 0), Op(FUZZ_OP_ADD_ATTACHMENT), W(), Ih(I_COUNT1), F3(0, 0, 0), Fs(2);
	Op(FUZZ_OP_SET_POSITION), W(), I(0), Fs(22), F(0), F(0), Op(FUZZ_OP_SET_POSITION), W(), I(0), Fs(29), Fs(30), Fs(1);
	Steps(2);
	Write(dir, n++, "bad-indices-and-numbers");

	/* Two short chains at the world bound (+x, -z), thrown outward: the commit's clamp must stop them. */
	Op(FUZZ_OP_ADD_CHAIN), W(), B(0), B(1 | 2 | 4), F(99999), F(1), F(0), Fs(12), F(1), F(0), Count(1);
	Op(FUZZ_OP_ADD_CHAIN), W(), B(0), B(1 | 2 | 4), F(0), F(1), F(-99999), F(0), F(1), Fs(13), Count(1);
	for (int i = 0; i < 2; ++i) Op(FUZZ_OP_SET_VELOCITY), W(), I(i), F(15), F(0), F(0);
	for (int i = 2; i < 4; ++i) Op(FUZZ_OP_SET_VELOCITY), W(), I(i), F(0), F(0), F(-15);
	ParamF(pbdParam_gravityY, 0), Steps(3), Reads();
	Write(dir, n++, "world-bound");

	Body(0, pbdBodyShape_box, 0, 1, 0, 2), Body(1, pbdBodyShape_box, 1.5, 1, 0, 2), Body(0, pbdBodyShape_ball, -1.5, 1, 0, 3);
	Body(1, pbdBodyShape_box, 0, 2.5, 0, 3), Steps(8), Skin(), Reads();
	Write(dir, n++, "soft-and-rigid-bodies");

	MeshBody(0, 0, 1, 0), MeshBody(1, 1, 2.5, 0), MeshBody(0, 2, 4, 0), MeshBody(1, 3, 5.5, 0), Steps(4), Skin(), Reads();
	Write(dir, n++, "mesh-bodies");

	MeshBody(0, 0, 1, 1), B(0), B(5), Fs(22);        /* a NaN coordinate */
	MeshBody(0, 0, 1, 1), B(2), B(3);                /* a triangle turned over */
	MeshBody(0, 0, 1, 1), B(5), B(0x80 + 1);         /* one triangle short (indexCount - 3) */
	MeshBody(0, 1, 1, 1), B(1), B(4), Ih(I_COUNT);   /* an index out of range */
	MeshBody(0, 2, 1, 1), B(3), B(1);                /* a tet with a vertex twice */
	MeshBody(1, 3, 1, 1), B(4), B(0xc0 + 3);         /* vertexCount INT_MAX */
	Op(FUZZ_OP_ADD_BODY), W(), B(4), B(1), B(1024 >> 8), B(0), B(0), B(0); /* NULL vertices */
	Op(FUZZ_OP_ADD_BODY), W(), B(0), B(8 | 16), B(0), F(0), F(0), F(0), F(0), Fs(22), F(0), F(0); /* zero rotation, NaN velocity */
	Op(FUZZ_OP_ADD_BODY), W(), B(0), B(128), B(256 >> 8), B(0xe1), Fs(30); /* resolution INT_MAX, denormal mass */
	MeshBody(0, 0, 1, 0), Steps(2), Skin();
	Write(dir, n++, "broken-bodies");

	Hanging(10), Body(0, pbdBodyShape_box, 0, 2, 0.25, 2), Body(1, pbdBodyShape_ball, 0.5, 2.5, 0, 2), Steps(12), Skin();
	Write(dir, n++, "bodies-on-cloth");

	/* Fluid: a world with room for it (flags 4), a block with spare capacity, a hose at full rate
	   (50 m/s, radius 1 m) into it, a drain under it, refused emitters and hostile fluid settings. */
	Op(FUZZ_OP_CREATE_WORLD), B(0), B(4), Cap(1024), Cap(0);
	for (int i = 0; i < 6; ++i) Cap(0);
	Op(FUZZ_OP_ADD_FLUID), W(), B(0), B(16), B(200);
	Op(FUZZ_OP_ADD_EMITTER), W(), B(0), B(4 | 8), B(0), F(50), F(1), B(0);
	Op(FUZZ_OP_ADD_EMITTER), W(), B(0), B(4), B(0), F(0), B(0);          /* speed 0: refused */
	Op(FUZZ_OP_ADD_EMITTER), W(), B(4), B(2), B(0), F3(0, 0, 0), B(0);   /* SetEmitter, zero direction: refused */
	Op(FUZZ_OP_ADD_DRAIN), W(), B(0);
	Op(FUZZ_OP_ADD_DRAIN), W(), B(2), F3(-2, -2, -2);                   /* upside down: refused */
	Steps(8);
	ParamF(pbdParam_fluidSmoothingRadius, 1e9), ParamF(pbdParam_fluidSpacing, 0), ParamF(pbdParam_fluidVorticity, 10);
	ParamF(pbdParam_fluidViscosity, 1), Steps(4);
	Write(dir, n++, "fluid-hose-drain");

	/* Threads: a 64 x 64 cloth (4096 particles: loops of several blocks) on the
	   harness's team with 4, 2 and 3 threads, whole steps and slices, an attachment dragged; counts
	   refused (0 and 5 on the team, 2 on none); back to one thread alone. */
	CreateWorld(0, 4200, 30000), Hanging(64), ParamF(pbdParam_substeps, 1), ParamF(pbdParam_iterations, 2);
	Op(FUZZ_OP_SET_THREADS), W(), B(0), Op(FUZZ_OP_SET_THREADS), W(), B(5 + 1), Op(FUZZ_OP_SET_THREADS), W(), B(0x80 | (2 + 1));
	Op(FUZZ_OP_SET_THREADS), W(), B(4 + 1), Steps(1);
	for (int k = 0; k < 4; ++k) Op(FUZZ_OP_STEP_SLICE), W(), B(2 * k);
	Op(FUZZ_OP_SET_THREADS), W(), B(2 + 1), Attach(100, 0, 2, 1), Steps(1), MoveAttach(0, 0.5, 2, 1);
	Op(FUZZ_OP_STEP_SLICE), W(), B(6), Op(FUZZ_OP_SET_THREADS), W(), B(3 + 1), Op(FUZZ_OP_STEP_SLICE), W(), B(7);
	Op(FUZZ_OP_SET_THREADS), W(), B(0x80 | (1 + 1)), Steps(1);
	Write(dir, n++, "threads");

	/* Collision filters (services/materials.h): a cloth and a chain across it with collisions on; the chain filtered
	   out of the cloth's category (the contacts' activation table), steps, a bad object refused, back to meeting. */
	CreateWorld(0, 400, 2000), Hanging(12), Chain(-1, 2.4, 1, 2.4, 20), ParamF(pbdParam_collisions, 1), Steps(2);
	Filter(0, 2, 0xffffffffu), Filter(1, 1, ~2u), Steps(4);
	Op(FUZZ_OP_SET_FILTER), W(), Ih(I_COUNT), U32(1), U32(1); /* object count: refused */
	Filter(1, 4, 0xffffffffu), Steps(4);
	Write(dir, n++, "collision-filters");

	/* Reproducers of what the fuzzer found in the core (each fixed in the commit that added it). */
	CreateWorld(0, 247, 10); /* an odd particle count whose grid scratch outgrew the colouring's: scratch was NULL */
	Steps(1);
	WriteFile(dir, "repro-1-scratch-rounding");
	Op(FUZZ_OP_QUERY), W(), B(7), B(0xe1), Count(2); /* pbd_ChainCounts(INT_MAX) reported -2^31 particles */
	WriteFile(dir, "repro-2-chaincounts-overflow");
	Op(FUZZ_OP_ADD_CLOTH), W(), B(0), B(1 | 2), Fs(12), F(0), F(0), F(2), F(0), F(0); /* particles past the world bound */
	WriteFile(dir, "repro-3-cloth-outside-bound");
	Op(FUZZ_OP_QUERY), W(), B(6), B(0), B(0), B(0), B(0), Fs(4), Ih(I_INTMAX); /* pbd_PassStiffness(0.5, INT_MAX): minutes */
	WriteFile(dir, "repro-4-pass-stiffness-huge-ns");

	printf("make_corpus: %d seeds and 4 reproducers in %s\n", n, dir);
	return 0;
}
