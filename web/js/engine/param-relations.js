// param-relations.js — the rules between a parameter and the rest of a scene that its range in the table cannot say
// (World.setParam checks them before the engine is asked; the scene validator checks the same rules when it reads a
// scene): the fluid's spacing against its smoothing radius, and the thickness against the particle spacing of every
// chain and cloth (a contact radius reaches at most MAX_RADIUS_SPACINGS spacings: src/minipbd.h).
import { fluidRatioProblem, radiusSpacingProblem } from './params.js';
import { thicknessProblem } from '../objects/index.js';

/** Why `value` (already within parameter p's range) cannot be set on a world of `scene`, or null. */
export function sceneParamProblem(scene, p, value) {
  if (p.name === 'fluid.spacing' || p.name === 'fluid.smoothingRadius') {
    const f = scene.fluid;
    const problem = fluidRatioProblem(p.name === 'fluid.spacing' ? value : f.spacing, p.name === 'fluid.spacing' ? f.smoothingRadius : value);
    return problem ? `parameter ${p.name}: ${problem}` : null;
  }
  if (p.name === 'thickness') {
    const thick = thicknessProblem(scene, value);
    if (thick) {
      const { index, problem } = thick;
      return `parameter thickness must be at most ${problem.spacings} times the ${problem.spacing} m between `
        + `objects[${index}]'s particles (${problem.limit} m: ${problem.why}), got ${value}`;
    }
  }
  return null;
}

/** Why contact radius `r` (m) cannot be a body's whose lattice spacing (tets: shortest edge) is `spacing`, or null. */
export function bodyRadiusProblem(call, r, spacing) {
  const problem = r > 0 ? radiusSpacingProblem(r, spacing, false) : null;
  return problem ? `${call}: radius must be at most ${problem.spacings} times the body's spacing, ${problem.spacing} m `
    + `(${problem.limit} m: ${problem.why}), got ${r}` : null;
}
