// Types of the inflatable object type (inflatable.js): its scene description.
import type { CollisionFilter } from './filter.js';
import type { SurfaceMesh } from './body-common.js';

export interface InflatableObject extends CollisionFilter {
  type: 'inflatable'; name?: string;
  /** Centre of its sphere (m); with a mesh, added to its vertices. */
  center: [number, number, number];
  /** Radius (m) and resolution n of its geodesic sphere (10 n² + 2 particles); not with a mesh. */
  radius?: number; resolution?: number;
  /** A closed surface instead of the sphere (a particle a vertex): `mesh`, or `obj` (the text of an OBJ file, read
   *  into `mesh`), at most one; `size` the longest side of its bounding box (m), its vertices scaled to it. */
  mesh?: SurfaceMesh; obj?: string; size?: number;
  /** k_pressure: the volume it holds is pressure × its volume as built (Müller et al. 2007 §4.4). */
  pressure?: number;
  /** Mass of one particle (kg). */
  mass?: number;
  stiffness?: { stretch?: number; bend?: number };
  /** Its colour, sRGB "#rrggbb" (how it is drawn only). */
  colour?: string;
}

export type InflatableStiffnessKind = 'stretch' | 'bend';
