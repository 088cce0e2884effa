// ui.js — the control panel: scene picker, solver/stiffness sliders, pause/step/reset, copy link,
// readout and message area. It only touches the DOM and reports user intent through handlers; the
// app decides what happens. Every text that may come from a link (scene names, error messages) is
// written with textContent, never as HTML.

/** The tunable parameters: engine name, slider range, and how to read the value from a scene description
 *  (the engine's World.setParam keeps its own description in step, so links carry changes). */
export const PARAMS = [
  {
    name: 'iterations', label: 'Passes', group: 'solver', min: 1, max: 50, step: 1,
    help: 'Constraint solver passes per substep',
    read: (s) => s.solver?.iterations ?? 10,
  },
  {
    name: 'substeps', label: 'Substeps', group: 'solver', min: 1, max: 16, step: 1,
    help: 'Substeps per time step',
    read: (s) => s.solver?.substeps ?? 1,
  },
  {
    name: 'damping', label: 'Damping', group: 'solver', min: 0, max: 5, step: 0.05, unit: '/s',
    help: 'Velocity damping per second',
    read: (s) => s.solver?.damping ?? 0,
  },
  clothStiffness('stretch', 'Stretch', 1),
  clothStiffness('shear', 'Shear', 1),
  clothStiffness('bend', 'Bend', 0.1),
  {
    name: 'stiffness.chain', label: 'Chain', group: 'stiffness', objectType: 'chain', min: 0, max: 1, step: 0.01,
    help: 'Chain link stiffness',
    read: (s) => s.objects.find((o) => o.type === 'chain')?.stiffness ?? 1,
  },
];

function clothStiffness(key, label, fallback) {
  return {
    name: `stiffness.${key}`, label, group: 'stiffness', objectType: 'cloth', min: 0, max: 1, step: 0.01,
    help: `Cloth ${key} stiffness`,
    read: (s) => s.objects.find((o) => o.type === 'cloth')?.stiffness?.[key] ?? fallback,
  };
}

/** 'Hanging cloth: 2 m x 2 m, …' -> 'Hanging cloth' for the picker; the full name is the page's subtitle. */
export function shortName(name = '') {
  const head = name.split(':')[0].trim();
  return head.length > 0 && head.length <= 40 ? head : name.slice(0, 40);
}

function decimals(step) {
  const s = String(step);
  return s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
}

const LINK_OPTION = '__link';

/**
 * Wire the panel in `doc`. handlers: onSceneChange(key), onParam(param, value), onTogglePause(), onStep(),
 * onReset(), onCopyLink(), onShowParticles(bool).
 */
export function createUI(doc, handlers) {
  const $ = (id) => {
    const el = doc.getElementById(id);
    if (!el) throw new Error(`page is missing #${id}`);
    return el;
  };
  const els = {
    select: $('scene-select'),
    title: $('scene-title'),
    pause: $('pause'),
    step: $('step'),
    reset: $('reset'),
    copy: $('copy-link'),
    link: $('link-field'),
    linkStatus: $('link-status'),
    particles: $('show-particles'),
    message: $('message'),
    messageText: $('message-text'),
    messageClose: $('message-close'),
    notice: $('notice'),
    readout: {
      particles: $('readout-particles'),
      constraints: $('readout-constraints'),
      stepMs: $('readout-step'),
    },
  };

  // Build one labelled slider row per parameter.
  const rows = new Map();
  for (const param of PARAMS) {
    const container = $(`${param.group}-controls`);
    const row = doc.createElement('div');
    row.className = 'control';
    const id = `param-${param.name.replace('.', '-')}`;
    const label = doc.createElement('label');
    label.htmlFor = id;
    label.textContent = param.label;
    const output = doc.createElement('output');
    output.htmlFor = id;
    const input = doc.createElement('input');
    Object.assign(input, { type: 'range', id, min: param.min, max: param.max, step: param.step });
    input.dataset.param = param.name;
    input.title = param.help;
    input.setAttribute('aria-describedby', `${id}-out`);
    output.id = `${id}-out`;
    input.addEventListener('input', () => {
      const v = Number(input.value);
      output.textContent = format(param, v);
      handlers.onParam(param, v);
    });
    row.append(label, output, input);
    container.append(row);
    rows.set(param.name, { row, input, output, param });
  }

  els.select.addEventListener('change', () => {
    if (els.select.value !== LINK_OPTION) handlers.onSceneChange(els.select.value);
  });
  els.pause.addEventListener('click', () => handlers.onTogglePause());
  els.step.addEventListener('click', () => handlers.onStep());
  els.reset.addEventListener('click', () => handlers.onReset());
  els.copy.addEventListener('click', () => handlers.onCopyLink());
  els.particles.addEventListener('change', () => handlers.onShowParticles(els.particles.checked));
  els.messageClose.addEventListener('click', () => ui.clearError());
  els.link.addEventListener('focus', () => els.link.select());

  let noticeTimer = 0;
  const ui = {
    els,

    /** entries: [{ key, label }] for the built-in scenes. */
    setScenes(entries) {
      els.select.replaceChildren(
        ...entries.map(({ key, label }) => {
          const o = doc.createElement('option');
          o.value = key;
          o.textContent = label;
          return o;
        }),
      );
    },

    /** Reflect a freshly loaded scene: picker, title, slider values, which stiffness rows apply. */
    showScene(scene, key) {
      els.select.querySelector(`option[value="${LINK_OPTION}"]`)?.remove();
      if (key) {
        els.select.value = key;
      } else {
        const o = doc.createElement('option');
        o.value = LINK_OPTION;
        o.textContent = `From link: ${shortName(scene.name) || 'untitled scene'}`;
        els.select.append(o);
        els.select.value = LINK_OPTION;
      }
      els.title.textContent = scene.name || 'Untitled scene';
      const types = new Set(scene.objects.map((o) => o.type));
      for (const { row, input, output, param } of rows.values()) {
        row.hidden = Boolean(param.objectType) && !types.has(param.objectType);
        const v = param.read(scene);
        input.value = String(v);
        output.textContent = format(param, v);
      }
      ui.clearLink();
    },

    setPaused(paused) {
      els.pause.textContent = paused ? 'Resume' : 'Pause';
      els.pause.setAttribute('aria-pressed', String(paused));
      els.step.disabled = !paused;
    },

    setReadout({ particles, constraints, stepMs }) {
      els.readout.particles.textContent = particles.toLocaleString('en-US');
      els.readout.constraints.textContent = constraints.toLocaleString('en-US');
      els.readout.stepMs.textContent = !Number.isFinite(stepMs) ? '–' : stepMs < 0.1 ? stepMs.toFixed(3) : stepMs.toFixed(2);
    },

    setLink(url, note = '') {
      els.link.value = url;
      els.linkStatus.textContent = note;
    },

    /** The shown link no longer matches the settings: clear it rather than offer a stale one. */
    clearLink() {
      els.link.value = '';
      els.linkStatus.textContent = '';
    },

    /** An error the user should read (role="alert"); text only. */
    showError(text) {
      els.messageText.textContent = text;
      els.message.hidden = false;
    },

    clearError() {
      els.messageText.textContent = '';
      els.message.hidden = true;
    },

    /** A passing note (role="status"), cleared after a while unless sticky. */
    showNotice(text, { sticky = false } = {}) {
      clearTimeout(noticeTimer);
      els.notice.textContent = text;
      if (!sticky) noticeTimer = setTimeout(() => { els.notice.textContent = ''; }, 4000);
    },

    clearNotice() {
      clearTimeout(noticeTimer);
      els.notice.textContent = '';
    },
  };
  return ui;
}

function format(param, v) {
  return v.toFixed(decimals(param.step)) + (param.unit ? ` ${param.unit}` : '');
}
