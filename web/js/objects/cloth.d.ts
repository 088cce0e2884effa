// Types of the cloth object type (cloth.js): its scene description and its stiffness kinds.

export interface ClothObject {
  type: 'cloth'; name?: string; origin: [number, number, number]; size: [number, number];
  resolution: [number, number]; plane?: 'xy' | 'xz'; mass?: number;
  stiffness?: { stretch?: number; shear?: number; bend?: number };
  pins?: [number, number][]; masses?: { from: [number, number]; to: [number, number]; mass: number }[];
}

export type ClothStiffnessKind = 'stretch' | 'shear' | 'bend';
