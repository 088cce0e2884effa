// Types of the cloth object type (cloth.js): its scene description and its stiffness kinds.
import type { CollisionFilter } from './filter.js';

export interface ClothObject extends CollisionFilter {
  type: 'cloth'; name?: string; origin: [number, number, number]; size: [number, number];
  resolution: [number, number]; plane?: 'xy' | 'xz'; mass?: number;
  stiffness?: { stretch?: number; shear?: number; bend?: number };
  /** Grid cells held still: [i, j] where the grid puts it, or [i, j, x, y, z] held at (x, y, z) (the rest pose stays the grid). */
  pins?: ([number, number] | [number, number, number, number, number])[]; masses?: { from: [number, number]; to: [number, number]; mass: number }[];
  /** Its front face's colour, sRGB "#rrggbb" (how it is drawn only; left out: the palette's). */
  colour?: string;
}

export type ClothStiffnessKind = 'stretch' | 'shear' | 'bend';
