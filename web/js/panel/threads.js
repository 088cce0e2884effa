// threads.js — which build the page runs and on how many threads (a status line under the readout), and the
// thread-count control (a slider in [1, the engine's maximum]; disabled, with the reason, on the single-thread
// build). The app decides what the build is (app/build.js) and applies a change (handlers.onThreads).

import { t } from '../i18n/i18n.js';

/** Adds the status line and the control after `after` (the readout); returns { setBuild(info), setThreads(n) }. */
export function addThreadsControl(doc, gui, after, tr, handlers) {
  const status = doc.createElement('p');
  status.id = 'build-status';
  status.className = 'panel-note';
  status.setAttribute('role', 'status');
  after.after(status);
  const value = { threads: 1 };
  const ctrl = gui.add(value, 'threads', 1, 16, 1);
  ctrl.domElement.id = 'threads-control';
  ctrl.$input.id = 'threads-input';
  ctrl.$input.setAttribute('aria-describedby', 'build-status');
  status.after(ctrl.domElement);
  ctrl.onFinishChange((n) => handlers.onThreads?.(n));
  let info = null;
  const render = () => {
    ctrl.name(t('threads.control'));
    if (!info) return;
    const text = info.build === 'threads'
      ? t('build.threads', { n: info.threads, max: info.maxThreads })
      : t('build.single', { reason: t(`build.reason.${info.reason}`, { error: info.error ?? '' }) });
    status.textContent = text;
    ctrl.domElement.title = info.build === 'threads' ? '' : t('threads.disabled');
  };
  tr(render);
  return {
    /** info: { build: 'threads' | 'single', threads, maxThreads, reason?: 'notIsolated' | 'failed' | 'asked', error? } */
    setBuild(next) {
      info = next;
      status.dataset.build = next.build;
      status.dataset.threads = String(next.threads);
      ctrl.max(Math.max(1, next.maxThreads ?? 1));
      value.threads = next.threads;
      ctrl.updateDisplay();
      ctrl.disable(next.build !== 'threads');
      render();
    },
  };
}
