// ui.js — the control panel: scene picker, solver/stiffness sliders, cloth options (tethers, tearing,
// self-collision, thickness), wind, pause/step/reset, copy link, readout and message area. It only touches
// the DOM and reports user intent through handlers; the app decides what happens. Every text that may
// come from a link (scene names, error messages) is written with textContent, never as HTML.

/**
 * The tunable parameters: engine name, slider range, and how to read the value from a scene description
 * (the engine's World.setParam keeps its own description in step, so links carry changes).
 *
 * A control is a slider (kind 'range', the default) or a checkbox (kind 'toggle'). `name` is the engine
 * parameter it sets, unless it has `write(value, ctx) -> [[param, value], ...]` (a control that sets
 * several parameters, or maps its value first); ctx.value(name) reads another control's exact value and
 * ctx.remembered(param, fallback) the last non-zero value a parameter had (what a toggle turns back on).
 * `enabledBy` names a toggle that must be on for the control to apply (it is disabled otherwise);
 * `objectType` hides the control when the scene has no object of that type.
 */
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

  // --- Cloth ---
  {
    name: 'tethers', label: 'Tethers', kind: 'toggle', group: 'cloth', objectType: 'cloth',
    help: 'Long-range attachments to the pins: a hanging cloth does not stretch under its own weight',
    read: (s) => (s.solver?.tethers ?? 1) > 0,
    // On restores the scene's tether stiffness (or full strength).
    write: (on, ctx) => [['tethers', on ? ctx.remembered('tethers', 1) : 0]],
  },
  {
    name: 'tearing', label: 'Tearing', kind: 'toggle', group: 'cloth', objectType: 'cloth',
    help: 'Cloth links break when stretched past the threshold below',
    read: (s) => (s.solver?.tearStretch ?? 0) > 0,
    write: (on, ctx) => [['tearStretch', on ? ctx.value('tearStretch') / 100 : 0]],
  },
  {
    name: 'tearStretch', label: 'Tear past', group: 'cloth', objectType: 'cloth', enabledBy: 'tearing',
    min: 5, max: 200, step: 5, unit: '% stretch', fallback: 35,
    help: 'A link breaks when stretched this far past its rest length',
    read: (s) => ((s.solver?.tearStretch ?? 0) > 0 ? s.solver.tearStretch * 100 : undefined),
    write: (v) => [['tearStretch', v / 100]],
  },
  {
    name: 'selfCollision', label: 'Self-collision', kind: 'toggle', group: 'cloth', objectType: 'cloth',
    help: 'Particles (cloth and ropes) keep the thickness apart from each other, so folds do not pass through',
    read: (s) => Boolean(s.solver?.selfCollision),
    write: (on) => [['selfCollision', on ? 1 : 0]],
  },
  {
    name: 'thickness', label: 'Thickness', group: 'cloth', objectType: 'cloth', min: 0.2, max: 10, step: 0.1, unit: 'cm',
    help: 'Particle thickness: the distance kept from colliders, the ground and (with self-collision) other particles',
    read: (s) => (s.solver?.thickness ?? 0.01) * 100,
    write: (v) => [['thickness', v / 100]],
  },

  // --- Wind ---
  {
    name: 'wind', label: 'Wind and air', kind: 'toggle', group: 'wind', objectType: 'cloth',
    help: 'Aerodynamic drag and lift on the cloth (air density 1.2 kg/m³); off = no air at all',
    read: (s) => (s.wind?.density ?? 0) > 0,
    write: (on, ctx) => [['airDensity', on ? ctx.remembered('airDensity', AIR_DENSITY) : 0]],
  },
  {
    name: 'windSpeed', label: 'Speed', group: 'wind', objectType: 'cloth', enabledBy: 'wind', min: 0, max: 20, step: 0.5, unit: 'm/s',
    help: 'Horizontal wind speed',
    read: (s) => Math.hypot(s.wind?.velocity?.[0] ?? 0, s.wind?.velocity?.[2] ?? 0),
    write: (v, ctx) => windVelocity(v, ctx.value('windDirection')),
  },
  {
    name: 'windDirection', label: 'Direction', group: 'wind', objectType: 'cloth', enabledBy: 'wind', min: 0, max: 355, step: 5, unit: '°',
    help: 'Where the wind blows toward, as an angle around the vertical axis (0° = +x, 90° = +z)',
    read: (s) => {
      const [x, , z] = s.wind?.velocity ?? [0, 0, 0];
      if (Math.hypot(x, z) === 0) return undefined; // no direction: keep what the slider shows
      return ((Math.atan2(z, x) * 180) / Math.PI + 360) % 360;
    },
    fallback: 0,
    write: (v, ctx) => windVelocity(ctx.value('windSpeed'), v),
  },
  {
    name: 'drag', label: 'Drag', group: 'wind', objectType: 'cloth', enabledBy: 'wind', min: 0, max: 3, step: 0.05,
    help: 'Drag coefficient: how hard the air pushes on the cloth face',
    read: (s) => s.wind?.drag ?? 1,
  },
  {
    name: 'lift', label: 'Lift', group: 'wind', objectType: 'cloth', enabledBy: 'wind', min: 0, max: 2, step: 0.05,
    help: 'Lift coefficient: the sideways push across the flow that makes a flag flutter',
    read: (s) => s.wind?.lift ?? 0.3,
  },
];

const AIR_DENSITY = 1.2; // kg/m^3, air at sea level

function windVelocity(speed, degrees) {
  const a = (degrees * Math.PI) / 180;
  const r = (v) => Math.round(v * 1e6) / 1e6; // keeps links short and exact 0s exact
  return [['windX', r(speed * Math.cos(a))], ['windZ', r(speed * Math.sin(a))]];
}

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
 * Wire the panel in `doc`. handlers: onSceneChange(key), onParam(param, [[engineParam, value], ...]),
 * onTogglePause(), onStep(), onReset(), onCopyLink(), onShowParticles(bool), onHeatMap(bool), onPlots(bool).
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
    heatMap: $('heat-map'),
    plots: $('plots'),
    plotArea: $('plot-area'),
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

  // Exact current value of every control (a slider snaps what it shows to its step; the engine keeps the
  // scene's own value until the user moves that slider), and the last "on" value of toggled parameters.
  const values = new Map();
  const remembered = new Map();
  const ctx = {
    value: (name) => values.get(name),
    remembered: (param, fallback) => remembered.get(param) ?? fallback,
  };

  // Build one labelled row per parameter: a slider with its value, or a checkbox.
  const rows = new Map();
  for (const param of PARAMS) {
    const container = $(`${param.group}-controls`);
    const row = doc.createElement('div');
    const id = `param-${param.name.replace('.', '-')}`;
    const label = doc.createElement('label');
    const input = doc.createElement('input');
    input.id = id;
    input.dataset.param = param.name;
    input.title = param.help;
    let output = null;
    if (param.kind === 'toggle') {
      row.className = 'control toggle';
      input.type = 'checkbox';
      label.className = 'check';
      label.append(input, ` ${param.label}`);
      row.append(label);
      input.addEventListener('change', () => changed(param, input.checked));
    } else {
      row.className = 'control';
      label.htmlFor = id;
      label.textContent = param.label;
      output = doc.createElement('output');
      output.htmlFor = id;
      output.id = `${id}-out`;
      Object.assign(input, { type: 'range', min: param.min, max: param.max, step: param.step });
      input.setAttribute('aria-describedby', `${id}-out`);
      input.addEventListener('input', () => {
        const v = Number(input.value);
        output.textContent = format(param, v);
        changed(param, v);
      });
      row.append(label, output, input);
    }
    container.append(row);
    rows.set(param.name, { row, input, output, param });
  }

  function changed(param, value) {
    values.set(param.name, value);
    const pairs = param.write ? param.write(value, ctx) : [[param.name, value]];
    for (const [name, v] of pairs) if (v !== 0) remembered.set(name, v);
    if (param.kind === 'toggle') updateEnabled();
    handlers.onParam(param, pairs);
  }

  function updateEnabled() {
    for (const { input, row, param } of rows.values()) {
      if (!param.enabledBy) continue;
      const on = Boolean(values.get(param.enabledBy));
      input.disabled = !on;
      row.classList.toggle('disabled', !on);
    }
  }

  els.select.addEventListener('change', () => {
    if (els.select.value !== LINK_OPTION) handlers.onSceneChange(els.select.value);
  });
  els.pause.addEventListener('click', () => handlers.onTogglePause());
  els.step.addEventListener('click', () => handlers.onStep());
  els.reset.addEventListener('click', () => handlers.onReset());
  els.copy.addEventListener('click', () => handlers.onCopyLink());
  els.particles.addEventListener('change', () => handlers.onShowParticles(els.particles.checked));
  els.heatMap.addEventListener('change', () => handlers.onHeatMap?.(els.heatMap.checked));
  els.plots.addEventListener('change', () => {
    els.plotArea.hidden = !els.plots.checked;
    handlers.onPlots?.(els.plots.checked);
  });
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
      remembered.clear();
      if (scene.solver?.tethers > 0) remembered.set('tethers', scene.solver.tethers);
      if (scene.wind?.density > 0) remembered.set('airDensity', scene.wind.density);
      for (const { row, input, output, param } of rows.values()) {
        row.hidden = Boolean(param.objectType) && !types.has(param.objectType);
        // undefined: the scene has no value for it (tearing off, no wind): keep the last one shown.
        const v = param.read(scene) ?? values.get(param.name) ?? param.fallback;
        values.set(param.name, v);
        if (param.kind === 'toggle') {
          input.checked = v;
        } else {
          input.value = String(v);
          output.textContent = format(param, v);
        }
      }
      // A group whose controls are all hidden (no cloth in the scene) is hidden with its heading.
      for (const group of new Set(PARAMS.map((p) => p.group))) {
        const section = $(`${group}-controls`).closest('section');
        if (section) section.hidden = [...rows.values()].every((r) => r.param.group !== group || r.row.hidden);
      }
      updateEnabled();
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
  const unit = !param.unit ? '' : param.unit === '°' ? '°' : ` ${param.unit}`;
  return v.toFixed(decimals(param.step)) + unit;
}
