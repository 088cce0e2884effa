// Types shared by the soft and rigid object types (body-common.js): a body's scene description.
import type { CollisionFilter } from './filter.js';

export type BodyShape = 'box' | 'ball' | 'mesh' | 'tets';

/** A surface for shape "mesh": vertices [x, y, z] and triangles [a, b, c] (0-based, counter-clockwise from outside). */
export interface SurfaceMesh { vertices: [number, number, number][]; triangles: [number, number, number][]; }
/** Given tets for shape "tets": vertices and tets [a, b, c, d] (0-based; oriented by the engine). */
export interface TetMesh { vertices: [number, number, number][]; tets: [number, number, number, number][]; }

/** Plasticity (seed 001 5.3): past `yield` strain the rest state creeps toward the deformed one at `creep` per
 *  second, up to `max` in all; creep 0 = elastic (the default). */
export interface Plasticity { yield?: number; creep?: number; max?: number; }

export interface BodyObjectBase extends CollisionFilter {
  name?: string; shape: BodyShape;
  /** box, ball: the centre (required); mesh, tets: added to the vertices (default [0, 0, 0]) */
  position?: [number, number, number];
  /** unit quaternion [x, y, z, w] about `position` */ rotation?: [number, number, number, number];
  velocity?: [number, number, number];
  /** box */ halfExtents?: [number, number, number];
  /** ball */ radius?: number;
  /** lattice cells along the longest side, 1..48 (box, ball, mesh); default 4 */ resolution?: number;
  /** the whole body's mass (kg), spread evenly; default 1 */ mass?: number;
  /** contact radius (m); 0 = half the lattice spacing */ particleRadius?: number;
  plasticity?: Plasticity;
  /** local particle indices */ pins?: number[];
  /** pin every particle whose rest position lies in one of these boxes of the body's own frame */
  pinBoxes?: { min: [number, number, number]; max: [number, number, number] }[];
  /** Its surface's colour, sRGB "#rrggbb" (how it is drawn only; left out: its type's). */
  colour?: string;
  /** shape "mesh": a surface; shape "tets": vertices and tets */ mesh?: SurfaceMesh | TetMesh;
  /** shape "mesh": the text of an OBJ file instead of `mesh` (read into `mesh`) */ obj?: string;
  /** shape "mesh": the longest side of the model's box (m); its vertices are scaled to it (left out: a model far
   *  outside the world's scale is fitted to 0.5 m, and the normalised scene says so) */ size?: number;
}

/** A body's per-object material field (the panel's; ObjectType.material). */
export interface BodyMaterialField { name: string; min: number; max: number; step: number; }
