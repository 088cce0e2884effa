/* families/contacts_bodies.c -- the contact normal of a pair with a particle of a shape-matched
   body, for the contacts family's solve (contacts.c SolvePairs). State: contacts.h; the bodies'
   surface data: families/shapes_sdf.c's, read as data through services/surfaces.h. */
#include "families/contacts.h"
#include "services/surfaces.h"

#include <math.h>

/* A pair with a particle of a shape-matched body: the contact normal n (i pushed along +n, j
   along -n) and depth from the body's surface (Macklin et al. 2014, section 5.1), or 0 to push
   along the centre line as for any other pair. u = d / |d| is the centre line, d = p_i - p_j.

   Why. Faces of particles are bumpy; two boxes resting face on face with their lattices set
   aside by a little meet along tilted centre lines, and each pass turns the small vertical
   overlap the load leaves into a sideways push that friction never sees (the pair's travel
   over the substep is zero: both fell alike): the upper box slides into the hollows of the
   lower one, the offset doubling every ~0.4 s, and a stack of ten comes down within 60 s from
   an offset of 1 um (tests/c/test_shapes_scenes.c). A flat face should push along its normal.

   What a body particle knows (families/shapes_sdf.c), turned by its body's rotation as last
   solved: its layer beneath the surface (Macklin's |phi|, in lattice steps), the outward normal
   g of the surface near it (Macklin's gradient: on a box's edge or corner the diagonal), and,
   for a lattice, the faces it lies on (one on a face, two on an edge, three on a corner).
   - The particle of the smaller layer gives the normal (Macklin). Beneath the surface (a deep
     overlap, a fast hit): along its -g_i or +g_j, to the depth D - d . n that clears it,
     whatever the centre line (the way out is through the near surface).
   - Two on their surfaces: a face of i's and a face of j's that are opposite (within ~25
     degrees) meet along the heavier side's face normal (see below), when the centre line is
     within 60 degrees of it. This is what makes a face rest on a face as a face: a box's face
     of 4 x 4 particles has 12 on edges and corners, whose g are diagonals; an edge on an edge
     or a corner on an edge still has a horizontal face meeting a horizontal face. Two boxes
     side by side meet by their upright faces, even at their top edges.
   - Otherwise a single face (or g, off a lattice) of either, the one closest to the centre
     line, when within ~40 degrees of it (cos 40 = PBD_CONTACT_SNAP): a corner on a face, a
     cloth particle on a face.
   - Otherwise the centre line, by the spheres' overlap D - |d| as for any pair, but with its
     part that would drive the other particle into the body reflected out (Macklin's rule for
     boundary particles: u - 2 (u . n) n when u . n < 0, n the particle's -g_i or +g_j).
   Two faces meet as planes. Pushed by the spheres' overlap D - |d|, a face resting on a face set
   aside sank into the hollows (by up to 0.29 r at half a spacing). With the lattices turned about
   the normal the hollows form a moire pattern under the upper box, so it sank more on one side
   and tilted, by ~1e-2 rad (issue 22: two boxes 10 degrees apart, 3 mm aside), and the faces'
   common normal tilted with it: a sideways push of half the tilt times the load, each pass, that
   the positional friction (which cancels travel across the normal, not along it) let through,
   about 5% of it; the upper box slid 0.41 m and fell off within 20 s (tests/c/test_shapes_stacks.c).
   So two opposite faces push by their separation along the normal, D - d . n, wherever their
   particles are within PBD_CONTACT_TILE r of each other sideways (a particle's square of the face
   is a disc of its radius: the face reaches its edge particles' spheres, not further): the face of
   particles is flat, a box rests at D above it whatever the two lattices' turn and offset, and
   only a pair that the search found can be such a pair (|d| < D sqrt(1 + TILE^2 / 4) = 1.118 D
   within the searched 1.2 D; a list kept across substeps may miss one whose particles moved
   toward each other by more than 0.08 D, which the others of the face then hold). Past the disc,
   or not opposite faces, the spheres' overlap as before, so a pair apart is never pushed but as
   two faces. The normal is the heavier side's face (the smaller weight in the split: mass
   scaling makes the lower of a stack the heavier), or both faces' bisector when the weights are
   equal: the lower box is the one the ground holds flat, and a box resting on another's face is
   pushed along that face's normal, as a box on a slope; the bisector tilted with every
   rocking of the upper box (measured, a 0.4 kg box set 6 cm aside on another, turned 30 degrees:
   13.8 mm of drift in 60 s with the bisector, 4.9 with the heavier's face). Coincident centres
   take the chosen normal at depth D. No 0 / 0: normals are unit or absent. */
int pbd_Contacts_BodyNormal(const pbdWorld* w, const pbdContacts* cs, int32_t i, int32_t j, float dx, float dy, float dz,
							 float d2, float D, float tiny2, float wi, float wj, float n[3], float* depth)
{
	const uint32_t* phase = w->phase;
	const pbdNormalSource* bodies = w->normals; /* not NULL when cs->body marks an object (contacts.c) */
	float gi[3], gj[3];
	const int li = cs->body[phase[i] & PBD_PHASE_OBJECT_MASK] ? pbd_Surface_ContactNormal(bodies, phase, i, gi) : 0;
	const int lj = cs->body[phase[j] & PBD_PHASE_OBJECT_MASK] ? pbd_Surface_ContactNormal(bodies, phase, j, gj) : 0;
	if (li == 0 && lj == 0) return 0;
	const float d = d2 > tiny2 ? sqrtf(d2) : 0.0f;
	const float inv = d > 0.0f ? 1.0f / d : 0.0f;
	const float ux = dx * inv, uy = dy * inv, uz = dz * inv;
	const int useI = li != 0 && (lj == 0 || li <= lj);
	const float sign = useI ? -1.0f : 1.0f;
	const float* g = useI ? gi : gj;
	const float gx = sign * g[0], gy = sign * g[1], gz = sign * g[2];
	const int overlap = d2 < D * D;
	if (!overlap && (li != 1 || lj != 1)) return *depth = 0.0f, 1; /* apart: only two faces meet as planes */
	if ((useI ? li : lj) > 1 || d == 0.0f) { /* beneath the surface, or no centre line */
		n[0] = gx, n[1] = gy, n[2] = gz;
		*depth = D - (dx * gx + dy * gy + dz * gz);
		return 1;
	}
	*depth = D - d;
	/* the faces of the two on their surfaces: f pushes i along -f (i's) or +f (j's) */
	float fi[6][3], fj[6][3];
	int ni = li == 1 ? pbd_Surface_ContactFaces(bodies, phase, i, fi) : 0;
	int nj = lj == 1 ? pbd_Surface_ContactFaces(bodies, phase, j, fj) : 0;
	if (li == 1 && ni == 0) fi[0][0] = gi[0], fi[0][1] = gi[1], fi[0][2] = gi[2], ni = 1;
	if (lj == 1 && nj == 0) fj[0][0] = gj[0], fj[0][1] = gj[1], fj[0][2] = gj[2], nj = 1;
	float best = -2.0f, bx = 0.0f, by = 0.0f, bz = 0.0f;
	/* the heavier side's face (the smaller weight in the split, mass scaling's included), or both alike */
	const float ki = wi < wj ? 2.0f : wi > wj ? 0.0f : 1.0f, kj = 2.0f - ki;
	for (int a = 0; a < ni; ++a)
		for (int c = 0; c < nj; ++c) {
			const float t = fi[a][0] * fj[c][0] + fi[a][1] * fj[c][1] + fi[a][2] * fj[c][2];
			if (!(t < -0.9f)) continue; /* not opposite faces */
			const float mx = kj * fj[c][0] - ki * fi[a][0], my = kj * fj[c][1] - ki * fi[a][1], mz = kj * fj[c][2] - ki * fi[a][2];
			const float minv = 1.0f / sqrtf(mx * mx + my * my + mz * mz); /* |m| = 2 or >= sqrt(3.8) */
			const float cm = (mx * ux + my * uy + mz * uz) * minv;
			if (cm > best) best = cm, bx = mx * minv, by = my * minv, bz = mz * minv;
		}
	if (best >= 0.5f) {
		n[0] = bx, n[1] = by, n[2] = bz;
		const float s = dx * bx + dy * by + dz * bz; /* the separation along the faces' normal */
		const float side2 = d2 - s * s;             /* sideways, squared */
		if (side2 < 0.25f * PBD_CONTACT_TILE * PBD_CONTACT_TILE * D * D) *depth = D - s;
		else if (!overlap) *depth = 0.0f;
		return 1;
	}
	if (!overlap) return *depth = 0.0f, 1;
	best = -2.0f;
	for (int a = 0; a < ni; ++a) {
		const float cm = -(fi[a][0] * ux + fi[a][1] * uy + fi[a][2] * uz);
		if (cm > best) best = cm, bx = -fi[a][0], by = -fi[a][1], bz = -fi[a][2];
	}
	for (int c = 0; c < nj; ++c) {
		const float cm = fj[c][0] * ux + fj[c][1] * uy + fj[c][2] * uz;
		if (cm > best) best = cm, bx = fj[c][0], by = fj[c][1], bz = fj[c][2];
	}
	if (best >= PBD_CONTACT_SNAP) {
		n[0] = bx, n[1] = by, n[2] = bz;
		return 1;
	}
	const float cg = gx * ux + gy * uy + gz * uz;
	if (cg < 0.0f) {
		n[0] = ux - 2.0f * cg * gx, n[1] = uy - 2.0f * cg * gy, n[2] = uz - 2.0f * cg * gz;
	} else {
		n[0] = ux, n[1] = uy, n[2] = uz;
	}
	return 1;
}

