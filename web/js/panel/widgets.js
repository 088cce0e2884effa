// widgets.js — what every panel row is made with: number fields that are ARIA spinbuttons, help texts (a row's
// tooltip and its accessible description), and the small number helpers the rows share.

import { t } from '../i18n/i18n.js';

/** The label of a parameter in the current language. */
export function paramLabel(param) {
  return t(`param.${param.name}`);
}

/** 'Hanging cloth: 2 m x 2 m, …' -> 'Hanging cloth' for the picker; the full name is the page's subtitle. */
export function shortName(name = '') {
  const head = name.split(':')[0].trim();
  return head.length > 0 && head.length <= 40 ? head : name.slice(0, 40);
}

export function decimals(step) {
  const s = String(step);
  return s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
}

/** 1, 2 or 5 times a power of ten, the largest not above x (a slider step that reads well). */
export function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/** Round away float noise (0.1 + 0.2) without changing real values. */
export function clean(v) {
  return parseFloat(v.toPrecision(12));
}

/**
 * The row builders of a panel in `doc`: `els.helpTexts` holds the help texts, `tr(fn)` runs fn now and again on
 * every language change.
 */
export function rowBuilders(doc, els, tr) {
  // Every number field is also an ARIA spinbutton: arrows (lil-gui's own), Page Up/Down (10 steps) and
  // Home/End (the ends of the range); its accessible name comes from the row's label (aria-labelledby),
  // its description from the help text.
  function numberField(c, { id, min, max, step, places, describedBy }) {
    c.decimals(places);
    const input = c.$input;
    input.id = id;
    input.setAttribute('role', 'spinbutton');
    input.setAttribute('aria-valuemin', String(min));
    input.setAttribute('aria-valuemax', String(max));
    input.setAttribute('inputmode', 'decimal');
    input.setAttribute('autocomplete', 'off');
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    const update = c.updateDisplay.bind(c);
    c.updateDisplay = () => {
      update();
      const v = c.getValue();
      if (Number.isFinite(v)) {
        input.setAttribute('aria-valuenow', String(clean(v)));
        input.setAttribute('aria-valuetext', v.toFixed(places));
      }
      return c;
    };
    c.updateDisplay();
    input.addEventListener('keydown', (e) => {
      const v = c.getValue();
      const to = { Home: min, End: max, PageUp: v + 10 * step, PageDown: v - 10 * step }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const target = Math.min(max, Math.max(min, e.key === 'Home' || e.key === 'End' ? to : clean(min + Math.round((to - min) / step) * step)));
      c.setValue(target);
      input.value = String(target); // lil-gui leaves a focused field's text alone; show the new value
    });
    return c;
  }

  // Help texts: the row's tooltip (mouse) and its accessible description (screen readers).
  function help(c, key, id) {
    const span = doc.createElement('span');
    span.id = id;
    els.helpTexts.append(span);
    tr(() => {
      span.textContent = t(key);
      c.domElement.title = t(key);
    });
    return id;
  }

  return { numberField, help };
}
