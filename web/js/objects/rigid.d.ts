// Types of the rigid body object type (rigid.js): its scene description and its stiffness kind.
import type { BodyObjectBase } from './body-common.js';

export interface RigidObject extends BodyObjectBase {
  type: 'rigid';
  /** the parameter stiffness.shape, for this body (1 = rigid) */ stiffness?: number;
}

export type RigidStiffnessKind = 'shape';
