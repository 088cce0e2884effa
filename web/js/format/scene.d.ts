// Types of format/scene.js (the package's "minipbd/scene" entry point; docs/scene-format.md). The scene's own
// shape (Scene, its sections and object types) is declared in minipbd.d.ts and objects/*.d.ts.

import type { Scene, SceneObject } from '../minipbd.js';

export type { Scene, SceneObject };

/** A scene as validateScene returns it: every field present, defaults filled in, version 2. */
export type NormalisedScene = Scene & Required<Pick<Scene, 'name' | 'solver' | 'ground' | 'camera' | 'wind' | 'fluid' | 'colliders'>> & { version: 2 };

/** A refused scene: `path` locates the first bad value ("objects[1].resolution[0]"; "" = the scene itself). */
export class SceneError extends Error {
  constructor(path: string, message: string);
  readonly name: 'SceneError';
  path: string;
}

/** An inclusive range. */
export interface Range { readonly min: number; readonly max: number; }

/** The scene format's own limits (format/limits.js): every one that is not an engine parameter. */
export interface SceneLimits {
  readonly maxObjects: number; /** over all objects */ readonly maxParticles: number;
  /** UTF-16 code units */ readonly maxNameLength: number;
  /** a file's "$schema" (read, not kept) */ readonly maxSchemaLength: number; readonly maxCoord: number;
  /** exclusive: |pitch| < maxPitch */ readonly maxPitch: number;
  readonly distance: Range; readonly fov: Range; readonly segments: Range; readonly resolution: Range;
  readonly maxSize: number; readonly maxMass: number; readonly maxPins: number; readonly maxMassRanges: number;
  readonly maxColliders: number; readonly colliderSize: { readonly minExclusive: number; readonly max: number };
  readonly colliderFriction: Range; readonly colliderRestitution: Range;
  readonly bodyResolution: Range; readonly maxBodyRadius: number;
  readonly maxSurfaceVertices: number; readonly maxSurfaceTriangles: number; readonly maxTetVertices: number;
  readonly maxTets: number; readonly maxMeshCoord: number; readonly maxMeshVertices: number; readonly maxMeshElements: number;
  readonly maxObjBytes: number; readonly maxPinBoxes: number;
  readonly plasticity: { readonly yield: Range; readonly creep: Range; readonly max: Range };
  readonly maxFluidParticles: number; readonly maxFluidObjects: number; readonly maxEmitters: number; readonly maxDrains: number;
  readonly emitterSpeed: { readonly minExclusive: number; readonly max: number };
  readonly emitterRadius: { readonly max: number }; readonly maxFluidSpeed: number;
}

export const SCENE_LIMITS: SceneLimits;
/** The scene version this module writes (it reads 1 too). */
export const SCENE_VERSION: 2;

/**
 * Validates an untrusted scene (parsed JSON or a JS object) and returns a new, fully normalised scene; `input`
 * is never changed or returned.
 * @throws {SceneError} naming the path of the first bad value.
 */
export function validateScene(input: unknown): NormalisedScene;

/** A row of a table of keys (format/fields.js): its key, its kind and the kind's own (range, items, fields…),
 *  required, default, unit, description. */
export interface FieldRow { readonly key?: string; readonly kind: string; readonly required?: boolean | readonly string[]; readonly default?: unknown;
  readonly unit?: string; readonly description?: string; readonly [own: string]: unknown; }

/** The scene's keys as rows (what the JSON Schema, web/scene.schema.json, is generated from). */
export const SCENE_TABLES: {
  readonly format: 'minipbd-scene';
  readonly versions: readonly number[];
  /** the scene's rows, in the order of a normalised scene's keys */ readonly rows: readonly FieldRow[];
  readonly keys: readonly string[];
  /** the parameter sections: the first parts of the parameter table's places that no object type claims */
  readonly sections: readonly string[];
  /** the camera's row (a record) and a collider's (a record tagged by its type) */ readonly camera: FieldRow; readonly collider: FieldRow;
};
