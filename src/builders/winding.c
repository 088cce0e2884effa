/* builders/winding.c -- the generalized winding number, exact and by a dipole tree (winding.h). */
#include "builders/winding.h"
#include "base/detmath.h"

#include <math.h>

/* Far-field criterion: a node counts by its expansion when q is farther than BETA times its
   ball's radius from its centre. Barill et al. 2018 use 2 with the order-2 expansion; to order 1
   the error is O((r / d)^3) of the node's share (measured on an open torus, the largest error of
   w over points in and around it: 0.015 at 2, 0.0058 at 3, 0.0020 at 4), so a wider margin; the
   lattices of tests/models/ and of WindingTreeMatchesExact equal the exact sum's. */
#define BETA 3.0
/* The second look near 0.5 (pbd_Winding_Inside). */
#define FINE_BETA 9.0

static size_t Align8(size_t b) { return (b + 7u) & ~(size_t)7u; }

/* Nodes at most: leaves hold 8..16 triangles (a node of more than 16 splits into halves of at
   least 8), so at most n / 8 leaves and 2 n / 8 - 1 nodes; one when n <= 16. */
static int32_t MaxNodes(int32_t n) { return n / 4 + 1; }

size_t pbd_Winding_Bytes(int32_t n)
{
	return Align8((size_t)n * sizeof(int32_t)) + (size_t)MaxNodes(n) * sizeof(pbdWindingNode);
}

double pbd_Winding_SolidAngle(const float* fa, const float* fb, const float* fc, const double q[3])
{
	const double a[3] = { fa[0] - q[0], fa[1] - q[1], fa[2] - q[2] };
	const double b[3] = { fb[0] - q[0], fb[1] - q[1], fb[2] - q[2] };
	const double c[3] = { fc[0] - q[0], fc[1] - q[1], fc[2] - q[2] };
	const double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
	const double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
	const double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
	const double det = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
	const double ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2], ac = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
	const double bc = b[0] * c[0] + b[1] * c[1] + b[2] * c[2];
	/* q in the triangle's plane: the solid angle jumps from -2 pi to 2 pi across the triangle and is
	   0 beside it; on it, the mean of the two sides, 0, so a point on a surface counts for neither
	   side and a flat (two-sided) model encloses nothing */
	if (det == 0.0) return 0.0;
	return 2.0 * pbd_Atan2(det, la * lb * lc + ab * lc + ac * lb + bc * la);
}

double pbd_Winding_Exact(const float* v, const uint32_t* idx, int32_t n, const double q[3])
{
	double sum = 0.0;
	for (int32_t t = 0; t < n; ++t) sum += pbd_Winding_SolidAngle(v + 3 * idx[3 * t], v + 3 * idx[3 * t + 1], v + 3 * idx[3 * t + 2], q);
	return sum / (4.0 * PBD_PI);
}

/* ---------------------------------------------------------------- the tree */

/* Three times triangle t's centroid along axis (a + b + c, exact enough and the same everywhere). */
static double CentroidKey(const pbdWindingTree* tr, int32_t t, int axis)
{
	const uint32_t* tri = tr->idx + 3 * t;
	return ((double)tr->v[3 * tri[0] + axis] + tr->v[3 * tri[1] + axis]) + tr->v[3 * tri[2] + axis];
}

/* A strict total order of triangles along an axis: centroid, then index. */
static int Less(const pbdWindingTree* tr, int32_t s, int32_t t, int axis)
{
	const double ks = CentroidKey(tr, s, axis), kt = CentroidKey(tr, t, axis);
	return ks < kt || (ks == kt && s < t);
}

/* Puts the k-th smallest of order[lo..hi) at k, smaller before, larger after (Hoare's selection
   with a median-of-three pivot: deterministic, expected linear). */
static void Select(const pbdWindingTree* tr, int32_t* o, int32_t lo, int32_t hi, int32_t k, int axis)
{
	while (hi - lo > 1) {
		const int32_t mid = lo + (hi - lo) / 2;
		int32_t a = o[lo], b = o[mid], c = o[hi - 1], pivot;
		if (Less(tr, a, b, axis)) pivot = Less(tr, b, c, axis) ? b : Less(tr, a, c, axis) ? c : a;
		else pivot = Less(tr, a, c, axis) ? a : Less(tr, b, c, axis) ? c : b;
		/* three-way partition: < pivot, == pivot (one triangle: the order is strict), > pivot */
		int32_t i = lo, j = lo, g = hi;
		while (j < g) {
			if (o[j] == pivot) ++j;
			else if (Less(tr, o[j], pivot, axis)) {
				const int32_t t = o[i];
				o[i++] = o[j], o[j++] = t;
			} else {
				const int32_t t = o[--g];
				o[g] = o[j], o[j] = t;
			}
		}
		if (k < i) hi = i;
		else if (k >= g) lo = g;
		else return;
	}
}

/* Node `at` over order[lo..hi): its dipole and ball, then its children. Returns the next free node. */
static int32_t BuildNode(pbdWindingTree* tr, int32_t at, int32_t lo, int32_t hi)
{
	pbdWindingNode* nd = &tr->node[at];
	double area = 0.0, p[3] = { 0, 0, 0 }, n[3] = { 0, 0, 0 }, clo[3], chi[3];
	for (int32_t s = lo; s < hi; ++s) {
		const uint32_t* tri = tr->idx + 3 * tr->order[s];
		const float *a = tr->v + 3 * tri[0], *b = tr->v + 3 * tri[1], *c = tr->v + 3 * tri[2];
		const double e1[3] = { (double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2] };
		const double e2[3] = { (double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2] };
		const double av[3] = { 0.5 * (e1[1] * e2[2] - e1[2] * e2[1]), 0.5 * (e1[2] * e2[0] - e1[0] * e2[2]),
							   0.5 * (e1[0] * e2[1] - e1[1] * e2[0]) };
		const double len = sqrt(av[0] * av[0] + av[1] * av[1] + av[2] * av[2]);
		area += len;
		for (int k = 0; k < 3; ++k) {
			const double ck = (((double)a[k] + b[k]) + c[k]) / 3.0;
			n[k] += av[k];
			p[k] += len * ck;
			if (s == lo || ck < clo[k]) clo[k] = ck;
			if (s == lo || ck > chi[k]) chi[k] = ck;
		}
	}
	for (int k = 0; k < 3; ++k) {
		/* no area at all (the caller skips such triangles, but stay finite): the centroids' box centre */
		nd->p[k] = area > 0.0 ? p[k] / area : 0.5 * (clo[k] + chi[k]);
		nd->n[k] = n[k];
	}
	double r2 = 0.0;
	for (int k = 0; k < 9; ++k) nd->m[k] = 0.0;
	for (int32_t s = lo; s < hi; ++s) {
		const uint32_t* tri = tr->idx + 3 * tr->order[s];
		const float *a = tr->v + 3 * tri[0], *b = tr->v + 3 * tri[1], *c = tr->v + 3 * tri[2];
		const double e1[3] = { (double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2] };
		const double e2[3] = { (double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2] };
		const double av[3] = { 0.5 * (e1[1] * e2[2] - e1[2] * e2[1]), 0.5 * (e1[2] * e2[0] - e1[0] * e2[2]),
							   0.5 * (e1[0] * e2[1] - e1[1] * e2[0]) };
		/* the integral of (x - p) over the triangle is its area times (centroid - p): exact */
		for (int i = 0; i < 3; ++i) {
			for (int j = 0; j < 3; ++j) nd->m[3 * i + j] += av[i] * ((((double)a[j] + b[j]) + c[j]) / 3.0 - nd->p[j]);
		}
		for (int e = 0; e < 3; ++e) {
			const float* x = tr->v + 3 * tri[e];
			const double d[3] = { x[0] - nd->p[0], x[1] - nd->p[1], x[2] - nd->p[2] };
			const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
			r2 = d2 > r2 ? d2 : r2;
		}
	}
	nd->r2 = r2;
	if (hi - lo <= PBD_WINDING_LEAF) {
		nd->first = lo;
		nd->count = hi - lo;
		return at + 1;
	}
	int axis = 0;
	for (int k = 1; k < 3; ++k) axis = chi[k] - clo[k] > chi[axis] - clo[axis] ? k : axis;
	const int32_t mid = lo + (hi - lo) / 2;
	Select(tr, tr->order, lo, hi, mid, axis);
	nd->count = 0;
	const int32_t right = BuildNode(tr, at + 1, lo, mid);
	tr->node[at].first = right;
	return BuildNode(tr, right, mid, hi);
}

void pbd_Winding_Build(pbdWindingTree* tr, void* mem, const float* v, const uint32_t* idx, int32_t n)
{
	tr->v = v;
	tr->idx = idx;
	tr->triangleCount = n;
	tr->order = mem;
	tr->node = (pbdWindingNode*)((uint8_t*)mem + Align8((size_t)n * sizeof(int32_t)));
	for (int32_t t = 0; t < n; ++t) tr->order[t] = t;
	tr->nodeCount = n > 0 ? BuildNode(tr, 0, 0, n) : 0;
}

static double At(const pbdWindingTree* tr, const double q[3], double beta2);

double pbd_Winding_At(const pbdWindingTree* tr, const double q[3]) { return At(tr, q, BETA * BETA); }

static double At(const pbdWindingTree* tr, const double q[3], double beta2)
{
	if (tr->nodeCount == 0) return 0.0;
	/* depth is at most log2(n / 8) + 1 < 20 for the largest surface: a stack of 64 is ample */
	int32_t stack[64], top = 0;
	double sum = 0.0;
	stack[top++] = 0;
	while (top > 0) {
		const pbdWindingNode* nd = &tr->node[stack[--top]];
		const double d[3] = { nd->p[0] - q[0], nd->p[1] - q[1], nd->p[2] - q[2] };
		const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
		if (d2 > beta2 * nd->r2) {
			/* A patch's solid angle is integral of n . K(x - q) dA, K(r) = r / |r|^3. About p, with
			   d = p - q: K(x - q) ~ K(d) + J(d) (x - p), J = I / |d|^3 - 3 d d^T / |d|^5, so the node
			   gives N . K(d) + sum_ij J_ij m_ij = N . d / |d|^3 + tr(m) / |d|^3 - 3 d^T m d / |d|^5. */
			const double* m = nd->m;
			const double dmd = d[0] * (m[0] * d[0] + m[1] * d[1] + m[2] * d[2]) + d[1] * (m[3] * d[0] + m[4] * d[1] + m[5] * d[2]) +
							   d[2] * (m[6] * d[0] + m[7] * d[1] + m[8] * d[2]);
			const double inv3 = 1.0 / (d2 * sqrt(d2));
			sum += inv3 * ((d[0] * nd->n[0] + d[1] * nd->n[1] + d[2] * nd->n[2]) + (m[0] + m[4] + m[8]) - 3.0 * dmd / d2);
		} else if (nd->count > 0) {
			for (int32_t s = nd->first; s < nd->first + nd->count; ++s) {
				const uint32_t* tri = tr->idx + 3 * tr->order[s];
				sum += pbd_Winding_SolidAngle(tr->v + 3 * tri[0], tr->v + 3 * tri[1], tr->v + 3 * tri[2], q);
			}
		} else {
			stack[top++] = nd->first;                        /* right, popped second */
			stack[top++] = (int32_t)(nd - tr->node) + 1;     /* left */
		}
	}
	return sum / (4.0 * PBD_PI);
}

int pbd_Winding_Inside(const pbdWindingTree* tr, const double q[3])
{
	double w = pbd_Winding_At(tr, q);
	if (w - 0.5 >= PBD_WINDING_MARGIN || 0.5 - w >= PBD_WINDING_MARGIN) return w >= 0.5;
	/* Near the threshold (a hole's rim, or the "lid" across an open rim, where w ~ 0.5 over a whole
	   slab of cells): the tree again with a far wider margin (error ~ (1/3)^3 of BETA 3's, measured
	   1e-4 on the open torus of WindingTreeMatchesExact), and only within a hair of 0.5 the exact sum, so an open mesh of 10^5 triangles
	   does not pay n solid angles for every cell of that slab. */
	w = At(tr, q, FINE_BETA * FINE_BETA);
	if (w - 0.5 >= PBD_WINDING_FINE_MARGIN || 0.5 - w >= PBD_WINDING_FINE_MARGIN) return w >= 0.5;
	return pbd_Winding_Exact(tr->v, tr->idx, tr->triangleCount, q) >= 0.5;
}
