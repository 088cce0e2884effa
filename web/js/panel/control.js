// control.js — one panel control from its description, its range and reading taken from the engine's parameter
// table (engine/params.js). No DOM and no lil-gui here (Node tests and objects/ import it): the panel makes a row
// from each. The core controls are in controls.js; each object type lists its own (objects/).
//
// A control is a slider (kind 'range', the default) or a checkbox (kind 'toggle'). `name` is its id: the DOM id
// `param-<name>`, the i18n keys `param.<name>` and `param.<name>.help`. A control of one engine parameter says
// which (`param`) and, when it shows it in other units, `scale` (dt in ms: 1000); its range, its reading from a
// scene and what it writes then come from the table. A slider may show less than the parameter's range (`min`,
// `max`, in shown units: 1..16 substeps of the engine's 1..64 are what a person tries by hand); it may never
// show more, so a link always carries what the panel set (checked below, and by tests/node/params.test.mjs).
// A control that sets several parameters, or maps its value first, has `write(value, ctx) -> [[param, value],
// ...]`; ctx.value(name) reads another control's exact value and ctx.remembered(param, fallback) the last
// non-zero value a parameter had (what a toggle turns back on). `enabledBy` names a toggle that must be on for
// the control to apply (it is disabled otherwise); `objectType` hides it when the scene has no object of that
// type. `decimals` is how many the number field shows (default: as many as `step` has).

import { PARAMS, sceneParamShown } from '../engine/params.js';

/** Resolves a control: range and step in shown units, read(scene) and write(value, ctx) from its parameter. */
export function control(spec) {
  const c = { kind: 'range', ...spec };
  const p = spec.param === undefined ? null : PARAMS[spec.param];
  if (spec.param !== undefined && !p) throw new Error(`panel control ${spec.name}: no engine parameter ${spec.param}`);
  if (p) {
    const scale = spec.scale ?? 1;
    c.scale = scale;
    if (c.kind === 'toggle') {
      c.read ??= (s) => Boolean(sceneParamShown(s, p));
      c.write ??= (on) => [[p.name, on ? 1 : 0]];
    } else {
      c.min ??= p.min * scale;
      c.max ??= p.max * scale;
      if (c.min < p.min * scale || c.max > p.max * scale) {
        throw new Error(`panel control ${spec.name} shows [${c.min}, ${c.max}], beyond ${p.name}'s [${p.min}, ${p.max}] x ${scale}`);
      }
      c.read ??= (s) => {
        const v = sceneParamShown(s, p);
        return v === undefined ? undefined : v * scale;
      };
      c.write ??= scale === 1 ? (v) => [[p.name, v]] : (v) => [[p.name, v / scale]];
    }
  }
  return c;
}
