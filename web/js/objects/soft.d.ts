// Types of the soft body object type (soft.js): its scene description and its stiffness kinds.
import type { BodyObjectBase } from './body-common.js';

export interface SoftObject extends BodyObjectBase {
  type: 'soft';
  /** the parameters stiffness.edge and stiffness.volume, for this body */ stiffness?: { edge?: number; volume?: number };
}

export type SoftStiffnessKind = 'edge' | 'volume';
