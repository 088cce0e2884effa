/* families/shapes_sdf.c -- each body particle's distance to its body's surface and the surface's
   normal there, in the body's rest frame, for the contacts (Macklin, Mueller, Chentanez and Kim
   2014, "Unified Particle Physics for Real-Time Applications", section 5.1: a signed distance
   and its gradient stored per particle of a rigid body). State: shapes_state.h.

   Why. A contact between two particles pushes along the line between their centres. Two boxes
   of particles resting face on face with their lattices set aside by a little (1 um is enough)
   meet along tilted centre lines, and each pass turns the small vertical overlap the load leaves
   into a sideways push that friction never sees (the pair's travel over the substep is zero:
   both fell alike), so the upper box slides into the hollows of the lower one and the stack
   comes down (tests/c/test_shapes_scenes.c). A flat face should push along its normal, whatever
   the bumps of its particles: that normal is what is stored here.

   How, from the rest positions alone (a box, a ball, a surface or tets, turned or not: Add knows
   no lattice). s = the mean distance from a particle to its nearest neighbour (the lattice
   spacing, the smallest of three if they differ). Each particle's neighbours within 1.5 s (a
   cubic lattice's 6 axis and 12 face-diagonal neighbours, not the body diagonals at 1.73 s) sum
   to m_i = sum_j (x_j - x_i), 0 inside a lattice (every offset has its opposite), and on the
   surface pointing inward: face particles straight in (the lattice is symmetric about the face
   normal), edge and corner particles along the bisector. A particle is on the boundary when
   |m_i| > s / 2 or its neighbours do not span three dimensions (a sheet's particles); its
   outward normal is g_i = -m_i / |m_i|, its layer 0. The others are numbered by a breadth-first
   walk from the boundary over the same neighbours (layer 1 beneath the surface, 2, ...), and
   their normal is the gradient of the layer field by the neighbours' differences,
   g_i = -sum_j (L_j - L_i)(x_j - x_i), normalised: toward the nearest surface. Layers play the
   SDF's |phi| (Macklin: the particle of smaller |phi| gives the contact its normal), in lattice
   steps. A particle without neighbours, or whose normal sums to 0 (the centre of a symmetric
   body), has none, and its contacts push along the centre line as before.

   Faces. On a box's face of 4 x 4 particles 12 lie on edges and corners, where g is a diagonal
   and no good normal for a face resting on a face (contacts_bodies.c). So when the body is
   a lattice (some particle has three orthogonal neighbours one spacing away: its axes a_k),
   each surface particle also keeps the faces of the lattice it lies on: +a_k when it has no
   neighbour along +a_k (within 18 degrees), likewise -a_k; one on a face, two on an edge, three
   on a corner (a ball's cells give a staircase of such faces). Costs a hash of the body's
   particles, twice, in the world's scratch (Shapes_ScratchBytes reserves it).

   When. Not at Add: a body of 48^3 cells took 0.25 s of wasm for it, one call the page could not
   answer a click during. Add only clears the body's normals and fixes the first reach
   (pbd_Shapes_BeginNormals); the start of the next step builds them (pbd_Shapes_NormalsUnit, from
   shapes.c's startUnit) part by part, particle by particle, a slice unit of about
   PBD_SLICE_WORK candidates at a time, the hash and the walk held in the scratch between units. The
   parts run in the same order on the same data as in one go: the same bits, sliced or not. */
#include "families/shapes_state.h"
#include "services/materials.h"

#include <math.h>
#include <string.h>

typedef pbdSdfHash Hash; /* shapes_state.h */

static uint32_t TableSize(int32_t count)
{
	uint32_t t = 2;
	while (t < 2u * (uint32_t)count) t <<= 1;
	return t;
}

size_t pbd_Shapes_SdfScratchBytes(int32_t maxParticles)
{
	const size_t t = TableSize(maxParticles > 1 ? maxParticles : 1);
	return (t + 2) * sizeof(int32_t) + 6 * (size_t)maxParticles * sizeof(int32_t);
}

static void CellOf(const Hash* h, const float* p, int32_t c[3])
{
	for (int k = 0; k < 3; ++k) c[k] = (int32_t)floorf((p[k] - h->origin[k]) / h->cell);
}

/* A cell's bucket; UINT32_MAX for a cell outside the dense box (no particle there). */
static uint32_t Key(const Hash* h, const int32_t c[3])
{
	if (h->dense) {
		if ((uint32_t)c[0] >= (uint32_t)h->dims[0] || (uint32_t)c[1] >= (uint32_t)h->dims[1] || (uint32_t)c[2] >= (uint32_t)h->dims[2]) {
			return UINT32_MAX;
		}
		return (uint32_t)c[0] + (uint32_t)h->dims[0] * ((uint32_t)c[1] + (uint32_t)h->dims[1] * (uint32_t)c[2]);
	}
	return (((uint32_t)c[0] * 73856093u) ^ ((uint32_t)c[1] * 19349663u) ^ ((uint32_t)c[2] * 83492791u)) & h->mask;
}

/* Buckets by counting sort; order within a bucket is by particle index (deterministic). Each
   particle's cell is computed here once, into h->cells, and read by every visit (FOR_NEIGHBOURS'
   collision check ran CellOf on each candidate, a division and a floorf per visit: most of the
   time of building a world of large rigid bodies). The same cells as CellOf's, so the same bits.

   When the box of cells around the body has at most the table's size of cells (a lattice body at
   the reaches used here: a cell holds a few particles), a cell's bucket is its index in that box
   (dense): the 27 cells around a particle are then 9 runs of 3 neighbouring buckets, and their
   particles near in memory too (a lattice's particles are numbered row by row), where the hash
   scattered them over the table (a cache miss a bucket: 71% of building a rigid box of 48^3 cells).
   Each cell is visited in the same order and its particles by index either way: the same sums, the
   same bits. */
static void Build(Hash* h, float cell)
{
	h->cell = cell;
	h->visits += h->count; /* and a clear of the table: a memset */
	const uint32_t T = h->mask + 1;
	int32_t top[3] = { 0, 0, 0 };
	int low = 0;
	for (int32_t i = h->first; i < h->first + h->count; ++i) {
		int32_t* c = h->cells + 3 * (i - h->first);
		CellOf(h, h->x + 4 * i, c);
		for (int k = 0; k < 3; ++k) top[k] = c[k] > top[k] ? c[k] : top[k], low |= c[k] < 0;
	}
	const uint64_t box = ((uint64_t)top[0] + 1) * ((uint64_t)top[1] + 1) * ((uint64_t)top[2] + 1);
	h->dense = !low && box <= T;
	for (int k = 0; k < 3; ++k) h->dims[k] = top[k] + 1;
	memset(h->start, 0, (T + 1) * sizeof(int32_t));
	for (int32_t i = h->first; i < h->first + h->count; ++i) h->start[Key(h, h->cells + 3 * (i - h->first)) + 1] += 1;
	for (uint32_t b = 0; b < T; ++b) h->start[b + 1] += h->start[b];
	int32_t* fill = h->order; /* reuse order's slots: start[b] advanced, then moved back */
	for (int32_t i = h->first; i < h->first + h->count; ++i) fill[h->start[Key(h, h->cells + 3 * (i - h->first))]++] = i;
	for (uint32_t b = T; b > 0; --b) h->start[b] = h->start[b - 1];
	h->start[0] = 0;
}

/* Calls visit(j) for every particle j != i within `radius` (<= cell) of particle i, each once; counts the
   candidates in h->visits (the work a slice unit is cut by). */
#define FOR_NEIGHBOURS(h, i, radius, ...)                                                                   \
	do {                                                                                                    \
		const float* xi_ = (h)->x + 4 * (i);                                                               \
		const int32_t* ci_ = (h)->cells + 3 * ((i) - (h)->first);                                          \
		const float r2_ = (radius) * (radius);                                                              \
		for (int32_t dz_ = -1; dz_ <= 1; ++dz_)                                                            \
			for (int32_t dy_ = -1; dy_ <= 1; ++dy_)                                                        \
				for (int32_t dx_ = -1; dx_ <= 1; ++dx_) {                                                  \
					const int32_t cc_[3] = { ci_[0] + dx_, ci_[1] + dy_, ci_[2] + dz_ };                    \
					const uint32_t b_ = Key((h), cc_);                                                     \
					if (b_ == UINT32_MAX) continue;                                                        \
					for (int32_t e_ = (h)->start[b_]; e_ < (h)->start[b_ + 1]; ++e_) {                     \
						const int32_t j = (h)->order[e_];                                                  \
						(h)->visits += 1;                                                                  \
						if (j == (i)) continue;                                                            \
						const int32_t* cj_ = (h)->cells + 3 * (j - (h)->first);                            \
						if (!(h)->dense && (cj_[0] != cc_[0] || cj_[1] != cc_[1] || cj_[2] != cc_[2])) continue; /* collision */ \
						const float ox = (h)->x[4 * j] - xi_[0], oy = (h)->x[4 * j + 1] - xi_[1],          \
									oz = (h)->x[4 * j + 2] - xi_[2];                                        \
						if (!(ox * ox + oy * oy + oz * oz < r2_)) continue;                                \
						__VA_ARGS__                                                                          \
					}                                                                                       \
				}                                                                                           \
	} while (0)

/* Particle i's squared distance to its nearest neighbour within the hash's cell, INFINITY when none: a
   term of the mean spacing (the minimum, whatever order the candidates come in). */
static float Nearest2(Hash* h, int32_t i)
{
	float best2 = INFINITY;
	FOR_NEIGHBOURS(h, i, h->cell, {
		const float d2 = ox * ox + oy * oy + oz * oz;
		if (d2 > 0.0f && d2 < best2) best2 = d2;
	});
	return best2;
}

/* A lattice's axes: three orthogonal neighbours of particle i one spacing away (within 5%),
   orthonormalised into axes (row k = a_k); 0 when i has none (not a lattice, or i on a corner
   where fewer than three directions are present). */
static int LatticeAxes(Hash* h, int32_t i, float spacing, float rho, float axes[9])
{
	float found[3][3];
	int n = 0;
	const float lo = 0.95f * spacing, hi = 1.05f * spacing;
	FOR_NEIGHBOURS(h, i, rho, {
		const float o2 = ox * ox + oy * oy + oz * oz;
		if (n < 3 && o2 > lo * lo && o2 < hi * hi) {
			int ok = 1;
			for (int k = 0; k < n; ++k) {
				const float t = ox * found[k][0] + oy * found[k][1] + oz * found[k][2];
				ok &= t * t < 0.0025f * o2 * (found[k][0] * found[k][0] + found[k][1] * found[k][1] + found[k][2] * found[k][2]);
			}
			if (ok) found[n][0] = ox, found[n][1] = oy, found[n][2] = oz, n += 1;
		}
	});
	if (n < 3) return 0;
	/* Gram-Schmidt, a_3 = a_1 x a_2 (right-handed; the sign does not matter: faces are +-a_k) */
	float* a1 = axes;
	float* a2 = axes + 3;
	float* a3 = axes + 6;
	float l = sqrtf(found[0][0] * found[0][0] + found[0][1] * found[0][1] + found[0][2] * found[0][2]);
	for (int k = 0; k < 3; ++k) a1[k] = found[0][k] / l;
	const float t = found[1][0] * a1[0] + found[1][1] * a1[1] + found[1][2] * a1[2];
	for (int k = 0; k < 3; ++k) a2[k] = found[1][k] - t * a1[k];
	l = sqrtf(a2[0] * a2[0] + a2[1] * a2[1] + a2[2] * a2[2]);
	for (int k = 0; k < 3; ++k) a2[k] /= l;
	a3[0] = a1[1] * a2[2] - a1[2] * a2[1], a3[1] = a1[2] * a2[0] - a1[0] * a2[2], a3[2] = a1[0] * a2[1] - a1[1] * a2[0];
	return 1;
}

/* g.xyz normalised, 1; or 0 when it has no direction. */
static int Normalise(float* g)
{
	const float n2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
	if (!(n2 > 0.0f && n2 < INFINITY)) return 0;
	const float inv = 1.0f / sqrtf(n2);
	g[0] *= inv, g[1] *= inv, g[2] *= inv;
	return 1;
}

/* At Add: no normal yet (they are built at the start of the body's first step, in slice units:
   pbd_Shapes_NormalsUnit), and the first reach of the spacing's search, fixed now from the contact
   radius the body has at its Add, so a radius set before that step changes nothing of them.

   The spacing is searched from twice the contact radius (the builders' default spacing is 2 r)
   outward, doubling, so a body of any spacing finds its own. A contact radius far above the spacing
   (up to 1 m on a lattice of 2 cm) made that first reach take in the whole body, every particle a
   neighbour of every other: a quadratic search (two boxes of 25^3 particles at r = 1 m took 44 s to
   build natively). So the first reach is halved while it stays at least 2 s, s = (volume / count)^(1/3)
   the spacing the box around the particles gives (compared as cubes: no cube root, whose last bit
   libms disagree on). s is at least nearly the lattice's (a box of n^3 corners: (n - 1) / n of it),
   so on a lattice every particle still finds its nearest neighbour, one spacing away, within the
   first reach. */
void pbd_Shapes_BeginNormals(pbdWorld* w, pbdShapes* s, pbdBody* b)
{
	float* nrm = s->normal;
	const int32_t end = b->first + b->count;
	for (int32_t i = b->first; i < end; ++i) {
		nrm[4 * i] = nrm[4 * i + 1] = nrm[4 * i + 2] = 0.0f, nrm[4 * i + 3] = -1.0f;
		s->faces[i] = 0;
	}
	pbdSurfaceFrame* f = pbd_Shapes_Frame(s, b);
	f->lattice = 0;
	double volume = 1.0;
	for (int k = 0; k < 3; ++k) {
		float lo = s->rest[4 * b->first + k], hi = lo;
		for (int32_t i = b->first; i < end; ++i) {
			lo = s->rest[4 * i + k] < lo ? s->rest[4 * i + k] : lo;
			hi = s->rest[4 * i + k] > hi ? s->rest[4 * i + k] : hi;
		}
		volume *= (double)hi - (double)lo;
	}
	const float r = pbd_Material_ContactRadius(w, b->object);
	float reach = r > 0.0f ? 4.0f * r : 1.0f;
	const double cube = 8.0 * volume / (double)b->count; /* (2 s)^3 */
	while (cube > 0.0 && (double)(0.5f * reach) * (double)(0.5f * reach) * (double)(0.5f * reach) >= cube) reach *= 0.5f;
	b->sdfReach = reach;
}

/* The parts of one body's build, in order (the top of this file says what each finds). */
enum { PartBegin, PartSpacing, PartLayer0, PartLayers, PartAxes, PartFaces, PartGradient };

/* The search of the mean spacing within the job's reach, from the body's first particle. */
static void StartSpacing(pbdNormalsJob* job, int32_t first)
{
	Build(&job->h, job->reach);
	job->sum = 0.0;
	job->found = 0;
	job->cursor = first;
	job->part = PartSpacing;
}

/* Body b's hash over the world's scratch (held until its last part), its origin the low corner of
   its rest positions' box; 0 when it gets no normals (a lone particle, or a body past the scratch). */
static int BeginBody(pbdWorld* w, pbdShapes* s, pbdBody* b)
{
	if (b->count < 2 || pbd_Shapes_SdfScratchBytes(b->count) > w->scratchBytes) return 0;
	pbdNormalsJob* job = &s->job;
	Hash* h = &job->h;
	const int64_t visits = h->visits;
	memset(h, 0, sizeof *h);
	h->visits = visits;
	h->x = s->rest;
	h->first = b->first;
	h->count = b->count;
	h->mask = TableSize(b->count) - 1;
	h->start = (int32_t*)pbd_Scratch_Take(w, pbdScratch_shapes);
	h->order = h->start + h->mask + 2;
	job->queue = h->order + b->count;
	job->level = job->queue + b->count; /* indexed by i - first; -1: not reached */
	h->cells = job->level + b->count;
	for (int k = 0; k < 3; ++k) {
		float lo = h->x[4 * b->first + k];
		for (int32_t i = b->first; i < b->first + b->count; ++i) lo = h->x[4 * i + k] < lo ? h->x[4 * i + k] : lo;
		h->origin[k] = lo;
	}
	pbd_Scratch_Hold(w, pbdScratch_shapes);
	job->reach = b->sdfReach;
	job->tries = 0;
	StartSpacing(job, b->first);
	return 1;
}

static void NextBody(pbdWorld* w, pbdNormalsJob* job)
{
	pbd_Scratch_Release(w, pbdScratch_shapes);
	job->body += 1;
	job->part = PartBegin;
}

int pbd_Shapes_NormalsUnit(pbdWorld* w, pbdShapes* s, int64_t budget, int64_t* work)
{
	pbdNormalsJob* job = &s->job;
	Hash* h = &job->h;
	h->visits = 0;
	float* nrm = s->normal;
	while (job->body < s->count) {
		pbdBody* b = &s->bodies[job->body];
		pbdSurfaceFrame* f = pbd_Shapes_Frame(s, b);
		const int32_t first = b->first, end = first + b->count;
		if (job->part == PartBegin && !BeginBody(w, s, b)) {
			NextBody(w, job);
			continue;
		}
		int32_t* level = job->level;
		int32_t* queue = job->queue;
		switch (job->part) {
		case PartSpacing: {
			for (; job->cursor < end; ++job->cursor) {
				if (h->visits >= budget) goto pause;
				const float best2 = Nearest2(h, job->cursor);
				if (best2 < INFINITY) job->sum += sqrtf(best2), job->found += 1;
			}
			const float spacing = 2 * job->found >= b->count && job->found > 0 ? (float)(job->sum / job->found) : 0.0f;
			if (!(spacing > 0.0f) && ++job->tries < 12) {
				job->reach *= 2.0f;
				StartSpacing(job, first);
				continue;
			}
			if (!(spacing > 0.0f && spacing < INFINITY)) {
				NextBody(w, job);
				continue;
			}
			job->spacing = spacing;
			job->rho = 1.5f * spacing;
			Build(h, job->rho);
			job->cursor = first;
			job->tail = 0;
			job->part = PartLayer0;
			continue;
		}
		case PartLayer0:
			/* layer 0: an inward imbalance, or a neighbourhood that is not three-dimensional (a sheet) */
			for (; job->cursor < end; ++job->cursor) {
				if (h->visits >= budget) goto pause;
				const int32_t i = job->cursor;
				level[i - first] = -1;
				float m[3] = { 0.0f, 0.0f, 0.0f }, C[6] = { 0.0f };
				int32_t n = 0;
				FOR_NEIGHBOURS(h, i, job->rho, {
					m[0] += ox, m[1] += oy, m[2] += oz;
					C[0] += ox * ox, C[1] += ox * oy, C[2] += ox * oz, C[3] += oy * oy, C[4] += oy * oz, C[5] += oz * oz;
					n += 1;
				});
				if (n == 0) continue; /* alone: no normal, never reached */
				const float det = C[0] * (C[3] * C[5] - C[4] * C[4]) - C[1] * (C[1] * C[5] - C[4] * C[2]) + C[2] * (C[1] * C[4] - C[3] * C[2]);
				const float tr = (C[0] + C[3] + C[5]) / 3.0f;
				const int solid = det > 0.01f * tr * tr * tr;
				const float m2 = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
				if (solid && !(m2 > 0.25f * job->spacing * job->spacing)) continue; /* inside */
				level[i - first] = 0;
				queue[job->tail++] = i;
				float* g = nrm + 4 * i;
				g[0] = -m[0], g[1] = -m[1], g[2] = -m[2];
				if (Normalise(g)) g[3] = 0.0f;
				else g[0] = g[1] = g[2] = 0.0f;
			}
			job->cursor = 0;
			job->part = PartLayers;
			continue;
		case PartLayers:
			/* the layers beneath, breadth first (the cursor is the queue's head) */
			for (; job->cursor < job->tail; ++job->cursor) {
				if (h->visits >= budget) goto pause;
				const int32_t i = queue[job->cursor];
				const int32_t next = level[i - first] + 1;
				FOR_NEIGHBOURS(h, i, job->rho, {
					if (level[j - first] < 0) level[j - first] = next, queue[job->tail++] = j;
				});
			}
			f->lattice = 0;
			job->cursor = first;
			job->part = PartAxes;
			continue;
		case PartAxes:
			/* the lattice's faces at each surface particle (see the top) */
			for (; job->cursor < end && !f->lattice; ++job->cursor) {
				if (h->visits >= budget) goto pause;
				f->lattice = LatticeAxes(h, job->cursor, job->spacing, job->rho, f->axes);
			}
			job->cursor = first;
			job->part = f->lattice ? PartFaces : PartGradient;
			continue;
		case PartFaces:
			for (; job->cursor < end; ++job->cursor) {
				if (h->visits >= budget) goto pause;
				const int32_t i = job->cursor;
				if (level[i - first] != 0) continue;
				int32_t mask = 0x3f; /* bit 2k: +a_k missing, 2k + 1: -a_k */
				FOR_NEIGHBOURS(h, i, job->rho, {
					const float o2 = ox * ox + oy * oy + oz * oz;
					for (int k = 0; k < 3; ++k) {
						const float* a = f->axes + 3 * k;
						const float t = ox * a[0] + oy * a[1] + oz * a[2];
						if (t * t > 0.9f * o2) mask &= ~(1 << (2 * k + (t < 0.0f)));
					}
				});
				s->faces[i] = (uint8_t)mask;
			}
			job->cursor = first;
			job->part = PartGradient;
			continue;
		case PartGradient:
			/* their normals: down the layer field's gradient, toward the nearest surface */
			for (; job->cursor < end; ++job->cursor) {
				if (h->visits >= budget) goto pause;
				const int32_t i = job->cursor;
				const int32_t L = level[i - first];
				if (L < 1) continue;
				float* g = nrm + 4 * i;
				g[0] = g[1] = g[2] = 0.0f;
				FOR_NEIGHBOURS(h, i, job->rho, {
					const int32_t Lj = level[j - first];
					if (Lj >= 0) {
						const float dl = (float)(Lj - L);
						g[0] -= dl * ox, g[1] -= dl * oy, g[2] -= dl * oz;
					}
				});
				if (Normalise(g)) g[3] = (float)L;
				else g[0] = g[1] = g[2] = 0.0f;
			}
			NextBody(w, job);
			continue;
		default: PBD_ASSERT(0);
		}
	}
	*work = h->visits;
	return 1;
pause:
	*work = h->visits;
	return 0;
}

void pbd_Shapes_FinishNormals(pbdWorld* w)
{
	int64_t work;
	pbd_Shapes_NormalsUnit(w, pbd_ShapesState(w), INT64_MAX, &work);
}

/* ---------------------------------------------------------------- shapes.h */

/* The contact normals are the floor's reading of the data above (services/surfaces.h), the one the contacts make. */
int pbd_Shapes_HasNormals(const pbdWorld* w, int32_t object) { return pbd_Surface_HasNormals(w, object); }

int pbd_Shapes_ContactFaces(const pbdWorld* w, int32_t particle, float faces[6][3])
{
	return pbd_Surface_ContactFaces(w->normals, w->phase, particle, faces);
}

int pbd_Shapes_ContactNormal(const pbdWorld* w, int32_t particle, float n[3])
{
	return pbd_Surface_ContactNormal(w->normals, w->phase, particle, n);
}
