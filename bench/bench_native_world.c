/* bench_native_world.c -- bench_native's planned worlds: the solids (soft-20k, rigid-256) and the
   fluids (the dam breaks). bench.mjs writes a case's plan (bench/solid-cases.mjs planOps,
   bench/fluid-cases.mjs fluidPlanOps: the operations it also runs through the wasm exports) to a file, one
   operation per line, and this file makes the same C calls in the same order:

     create NAME VALUE ...                     pbd_CreateWorld, capacities by the names of its table
                                               (minipbd.h PBD_CAPACITIES: particles, constraints, ...; left out: 0,
                                               the default)
     param NAME VALUE                          pbd_World_SetParam(pbd_ParamFromName(NAME), (float)VALUE)
     body TYPE SHAPE PX PY PZ QX QY QZ QW VX VY VZ HX HY HZ RADIUS RESOLUTION MASS PRADIUS 0 0 0 0
                                               pbd_World_AddBody, the fields in pbdjs_AddBody's order
                                               (the last four, a mesh's arrays, must be 0: lattice bodies only)
     collider TYPE PX PY PZ QX QY QZ QW RADIUS HALFHEIGHT HX HY HZ SF KF E
                                               pbd_World_AddCollider, in pbdjs_AddCollider's order
     fluid LX LY LZ UX UY UZ VX VY VZ CAPACITY  pbd_World_AddFluid, in pbdjs_AddFluid's order

   Numbers are JS's shortest round-trip decimals: strtod gives back the very double, and (float) rounds it
   as the wasm call's f32 parameter does (an int parameter: the number is whole, (int) keeps it), so the
   world is built from the same floats in both. */
#include "bench_native_world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 32

static void Fail(const char* path, int line, const char* what)
{
	fprintf(stderr, "bench_native: %s line %d: %s\n", path, line, what);
	exit(2);
}

static int Words(char* text, char** words)
{
	int n = 0;
	for (char* w = strtok(text, " \t\r\n"); w != NULL; w = strtok(NULL, " \t\r\n")) {
		if (n == MAX_WORDS) return -1;
		words[n++] = w;
	}
	return n;
}

static double Number(const char* path, int line, const char* s)
{
	char* end;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !(v == v) || v - v != 0.0) Fail(path, line, "a word is not a finite number");
	return v;
}

static int Whole(const char* path, int line, const char* s)
{
	double v = Number(path, line, s);
	if (v != (double)(int)v) Fail(path, line, "a count or a code is not a whole number");
	return (int)v;
}

static void Check(pbdWorldId w, int result, const char* path, int line)
{
	if (result < 0) {
		fprintf(stderr, "bench_native: %s line %d refused: %s\n", path, line, w > 0 ? pbd_World_GetLastErrorMessage(w) : pbd_GetLastErrorMessage());
		exit(1);
	}
}

pbdWorldId BenchWorld_Load(const char* path)
{
	FILE* f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "bench_native: cannot open world file %s\n", path);
		exit(2);
	}
	pbdWorldId w = 0;
	char text[1024];
	for (int line = 1; fgets(text, sizeof text, f) != NULL; ++line) {
		if (strchr(text, '\n') == NULL && !feof(f)) Fail(path, line, "line too long");
		char* word[MAX_WORDS];
		const int n = Words(text, word);
		if (n < 0) Fail(path, line, "too many words");
		if (n == 0) continue;
		const char* op = word[0];
		if ((w == 0) != (strcmp(op, "create") == 0)) Fail(path, line, "the first operation, and only it, must be create");
#define F(k) ((float)Number(path, line, word[k]))
#define I(k) (Whole(path, line, word[k]))
		if (strcmp(op, "create") == 0) {
			if (n % 2 != 1) Fail(path, line, "create takes capacity names and values");
			pbdWorldDef def = pbd_DefaultWorldDef();
			for (int k = 1; k < n; k += 2) {
				pbdCapacityInfo info;
				int c = 0;
				while (pbd_GetCapacityInfo(c, &info) == PBD_OK && strcmp(info.name, word[k]) != 0) c += 1;
				if (c == pbd_CapacityCount()) Fail(path, line, "not a capacity of minipbd.h PBD_CAPACITIES");
				const int32_t value = I(k + 1);
				memcpy((char*)&def + info.offset, &value, sizeof value);
			}
			w = pbd_CreateWorld(&def);
			Check(0, w, path, line);
		} else if (strcmp(op, "param") == 0) {
			if (n != 3) Fail(path, line, "param takes a name and a value");
			const int p = pbd_ParamFromName(word[1]);
			if (p < 0) Fail(path, line, "not a world parameter");
			Check(w, pbd_World_SetParam(w, (pbdParam)p, F(2)), path, line);
		} else if (strcmp(op, "body") == 0) {
			if (n != 25) Fail(path, line, "body takes 24 numbers");
			if (I(20) != 0 || I(21) != 0 || I(22) != 0 || I(23) != 0 || I(24) != 0) {
				Fail(path, line, "a body with mesh arrays or cells (lattice bodies only)");
			}
			pbdBodyDef def = pbd_DefaultBodyDef();
			def.type = I(1), def.shape = I(2);
			for (int k = 0; k < 3; ++k) def.position[k] = F(3 + k);
			for (int k = 0; k < 4; ++k) def.rotation[k] = F(6 + k);
			for (int k = 0; k < 3; ++k) def.velocity[k] = F(10 + k);
			for (int k = 0; k < 3; ++k) def.halfExtents[k] = F(13 + k);
			def.radius = F(16), def.resolution = I(17), def.mass = F(18), def.particleRadius = F(19);
			Check(w, pbd_World_AddBody(w, &def), path, line);
		} else if (strcmp(op, "collider") == 0) {
			if (n != 17) Fail(path, line, "collider takes 16 numbers");
			pbdColliderDef def = pbd_DefaultColliderDef();
			def.type = I(1);
			for (int k = 0; k < 3; ++k) def.position[k] = F(2 + k);
			for (int k = 0; k < 4; ++k) def.rotation[k] = F(5 + k);
			def.radius = F(9), def.halfHeight = F(10);
			for (int k = 0; k < 3; ++k) def.halfExtents[k] = F(11 + k);
			def.staticFriction = F(14), def.kineticFriction = F(15), def.restitution = F(16);
			Check(w, pbd_World_AddCollider(w, &def), path, line);
		} else if (strcmp(op, "fluid") == 0) {
			if (n != 11) Fail(path, line, "fluid takes 10 numbers");
			pbdFluidDef def = pbd_DefaultFluidDef();
			for (int k = 0; k < 3; ++k) def.lower[k] = F(1 + k), def.upper[k] = F(4 + k), def.velocity[k] = F(7 + k);
			def.capacity = I(10);
			Check(w, pbd_World_AddFluid(w, &def), path, line);
		} else {
			Fail(path, line, "unknown operation (create, param, body, collider, fluid)");
		}
#undef F
#undef I
	}
	fclose(f);
	if (w == 0) Fail(path, 1, "no create operation");
	return w;
}

void BenchWorld_PrintCounts(pbdWorldId w)
{
	const int objects = pbd_World_GetObjectCount(w);
	int tets = 0;
	for (int o = 0; o < objects; ++o) {
		pbdObjectInfo info;
		if (pbd_World_GetObjectInfo(w, o, &info) == PBD_OK) tets += info.tetCount;
	}
	printf("\"bodies\":%d,\"tets\":%d,", objects, tets);
}

int BenchWorld_FluidParticles(pbdWorldId w)
{
	const int objects = pbd_World_GetObjectCount(w);
	int live = 0, any = 0;
	for (int o = 0; o < objects; ++o) {
		pbdObjectInfo info;
		if (pbd_World_GetObjectInfo(w, o, &info) == PBD_OK && info.type == PBD_OBJECT_FLUID) live += info.activeParticles, any = 1;
	}
	return any ? live : -1;
}

void BenchWorld_PrintFluidStats(pbdWorldId w, const pbdFluidStats* s, int ok, const char* suffix)
{
	if (!ok) {
		/* The engine's message as a JSON string: it is plain text, but keep quotes and backslashes out. */
		char msg[256];
		snprintf(msg, sizeof msg, "%s", pbd_World_GetLastErrorMessage(w));
		for (char* c = msg; *c; ++c) {
			if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) *c = '\'';
		}
		printf("\"density_error%s\":null,\"max_density%s\":null,", suffix, suffix);
		if (suffix[0] == '\0') printf("\"stats_error\":\"%s\",", msg);
		return;
	}
	printf("\"density_error%s\":%.9g,\"max_density%s\":%.9g,\"mean_density%s\":%.9g,\"mean_neighbours%s\":%.9g,"
		   "\"dropped_neighbours%s\":%d,",
		   suffix, (double)s->densityError, suffix, (double)s->maxDensity, suffix, (double)s->meanDensity, suffix,
		   (double)s->meanNeighbours, suffix, s->droppedNeighbours);
}
