// Types of the chain object type (chain.js): its scene description and its stiffness kinds.
import type { CollisionFilter } from './filter.js';

export interface ChainObject extends CollisionFilter {
  type: 'chain'; name?: string; start: [number, number, number]; end: [number, number, number];
  segments: number; mass?: number; stiffness?: number; pins?: number[];
  masses?: { from: number; to: number; mass: number }[];
}

export type ChainStiffnessKind = 'chain';
