// colliders.js — the panel's Colliders folder: one sub-folder per collider of the scene (its name from the scene, as
// text), with its static and kinetic friction and its bounce; rebuilt for each scene, hidden when the scene has none.
// A field is named "<collider> <field>" (the sub-folder's title and the row's label) and described by the field's
// help text.

import { COLLIDER_FIELDS } from './controls.js';
import { decimals } from './widgets.js';
import { t } from '../i18n/i18n.js';

/** A panel folder (panel.js FOLDERS) in panel.folders.colliders; show(scene) returns ['colliders'] when it has any. */
export function buildColliders({ doc, els, folders, rows: { numberField }, tr, texts, handlers }) {
  let subFolders = [];
  let ctrls = []; // [{ c, field }]
  const helpIds = Object.fromEntries(COLLIDER_FIELDS.map(({ key }) => {
    const span = doc.createElement('span');
    span.id = `collider-${key}-help`;
    els.helpTexts.append(span);
    tr(() => { span.textContent = t(`collider.${key}.help`); });
    return [key, span.id];
  }));
  const renderTexts = () => {
    for (const { c, field } of ctrls) {
      c.name(t(`collider.${field.key}`));
      c.domElement.title = t(`collider.${field.key}.help`);
    }
  };
  texts.push(renderTexts);

  function colliderFolder(collider, index) {
    const f = folders.colliders.addFolder(collider.name);
    f.domElement.id = `collider-${index}`;
    f.domElement.dataset.collider = String(index);
    f.$title.id = `collider-${index}-title`;
    const material = Object.fromEntries(COLLIDER_FIELDS.map(({ key }) => [key, collider[key]]));
    for (const field of COLLIDER_FIELDS) {
      const c = f.add(material, field.key, field.min, field.max, field.step);
      numberField(c, {
        id: `collider-${index}-${field.key}`, min: field.min, max: field.max, step: field.step,
        places: decimals(field.step), describedBy: helpIds[field.key],
      });
      c.$input.setAttribute('aria-labelledby', `${f.$title.id} ${c.$name.id}`);
      c.domElement.dataset.colliderField = field.key;
      c.onChange(() => handlers.onColliderMaterial?.(index, { ...material }));
      ctrls.push({ c, field });
    }
    return f;
  }

  return {
    show(scene) {
      for (const f of subFolders) f.destroy();
      ctrls = [];
      subFolders = scene.colliders.map(colliderFolder);
      renderTexts();
      return scene.colliders.length > 0 ? ['colliders'] : [];
    },
  };
}
