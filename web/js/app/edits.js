// edits.js — the panel's edits of one object or collider of the running world (main.js's handlers): a hose on or
// off, an object's mass, stiffness or material, a collider's material. Each goes through the World API, which
// refuses a bad value and changes nothing, and then our description follows the world's, so Reset and links carry
// the edit; a refusal is shown as text.

import { t } from '../i18n/i18n.js';
import { errorText } from './errors.js';

/**
 * The handlers, over main.js's `state` and `exposed`, its `followWorld()` (our description from the world's, our
 * colliders kept) and `ui()` (the panel, made after the handlers).
 */
export function editHandlers({ state, exposed, followWorld, ui }) {
  return {
    /** A hose on or off (recorded: a replay carries it). */
    onEmitter(index, on) {
      if (!state.world) return;
      try {
        state.world.setEmitter(index, { enabled: on });
      } catch (err) {
        ui().showError(errorText(err));
        return;
      }
      followWorld();
      ui().clearLink();
    },

    /** Every particle of object `index` weighs `kg`, except its pins and the scene's own mass ranges. */
    onMass(index, kg) {
      const world = state.world;
      const object = state.scene?.objects[index];
      if (!world || !object) return;
      try {
        world.setObjectMass(index, kg); // the world's description follows; our colliders stay ours (onParam)
        followWorld();
      } catch (err) {
        ui().showError(t('error.mass', { name: object.name, error: errorText(err) }));
      }
      ui().clearLink();
    },

    /**
     * Collider `index` gets `material` ({ staticFriction, kineticFriction, restitution }). It goes into our
     * description's collider (the colliders onParam keeps), so Reset and links carry it; while recording, the
     * recorder records it (a "f" event), and a replay that is playing ends first.
     */
    onColliderMaterial(index, material) {
      const world = state.world;
      const collider = state.scene?.colliders[index];
      if (!world || !collider) return;
      try {
        world.setColliderMaterial(index, material);
        const scene = structuredClone(state.scene);
        const { staticFriction, kineticFriction, restitution } = material;
        Object.assign(scene.colliders[index], { staticFriction, kineticFriction, restitution });
        state.scene = scene;
        exposed.scene = scene;
      } catch (err) {
        ui().showError(t('error.collider', { name: collider.name, error: errorText(err) }));
      }
      ui().clearLink();
    },

    /** Body `index`'s stiffness of one of its kinds (a soft body's edge or volume, a rigid body's shape). */
    onObjectStiffness(index, kind, value) {
      const object = state.scene?.objects[index];
      if (!state.world || !object) return;
      try {
        state.world.setObjectStiffness(index, kind, value);
        followWorld();
      } catch (err) {
        ui().showError(t('error.body', { name: object.name, error: errorText(err) }));
      }
      ui().clearLink();
    },

    /** One of body `index`'s material values (objects/: its type's `material`: plasticity, contact radius). */
    onObjectMaterial(index, field, value) {
      const object = state.scene?.objects[index];
      if (!state.world || !object) return;
      try {
        field.write(state.world, index, value);
        followWorld();
      } catch (err) {
        ui().showError(t('error.body', { name: object.name, error: errorText(err) }));
      }
      ui().clearLink();
    },
  };
}
