// build-strings.js — the words for which build runs and on how many threads (panel/threads.js), and for a step
// far beyond the machine (sim/driver.js, app/main.js), merged into i18n.js's tables.

export const buildStrings = {
  en: {
    'threads.control': 'Threads',
    'threads.disabled': 'One thread only: this page is not cross-origin isolated, so the threaded build cannot run here.',
    'build.threads': 'Threaded build: {n} of {max} threads (shared memory; the simulation runs beside the page).',
    'build.single': 'Single-thread build: {reason} The simulation runs in slices between frames, so the page stays responsive.',
    'build.reason.notIsolated': 'this page is not cross-origin isolated (the host sends no COOP/COEP headers), so there is no shared memory for threads.',
    'build.reason.failed': 'the threaded build could not start ({error}).',
    'build.reason.swFailed': 'the isolation service worker (coi-sw.js) did not make this page cross-origin isolated.',
    'notice.slowStep': 'This scene needs about {seconds} s per step on this machine, far more than a frame: the simulation is paused while the step in progress finishes (the page keeps answering). Resume to run it in slow motion, or Step for one step.',
  },
  zh: {
    'threads.control': '线程数',
    'threads.disabled': '只能用一个线程：此页面没有跨源隔离，无法运行多线程版本。',
    'build.threads': '多线程版本：{n} / {max} 个线程（共享内存；模拟在页面之外运行）。',
    'build.single': '单线程版本：{reason}模拟在帧与帧之间分片运行，页面保持响应。',
    'build.reason.notIsolated': '此页面没有跨源隔离（服务器未发送 COOP/COEP 头），没有可供线程使用的共享内存。',
    'build.reason.failed': '多线程版本无法启动（{error}）。',
    'build.reason.swFailed': '隔离用的 Service Worker（coi-sw.js）未能让此页面跨源隔离。',
    'notice.slowStep': '在这台机器上，此场景每步约需 {seconds} 秒，远超一帧：模拟已暂停，正在进行的一步在后台完成（页面仍可操作）。继续可慢动作运行，或按单步前进一步。',
  },
};
