// canvas-size.js — the page's canvas size follows its CSS size x devicePixelRatio, applied at the next frame.
// (contentRect x devicePixelRatio rather than device-pixel-content-box: the latter is not reported consistently
// under browser zoom/emulation, and a 1-pixel rounding difference does not matter here.)

/** Watches `canvas`; returns { apply(gl) }, which sets a pending size (within the GL's limit) before a draw and says
 *  whether it did (setting a canvas's size clears it, even to the size it had). */
export function canvasSize(canvas) {
  let pending = null;
  const ro = new ResizeObserver((entries) => {
    const r = entries[entries.length - 1].contentRect;
    const dpr = window.devicePixelRatio || 1;
    pending = [Math.round(r.width * dpr), Math.round(r.height * dpr)];
  });
  ro.observe(canvas);
  // devicePixelRatio changes (browser zoom, moving to another screen) without a CSS resize: re-measure.
  const watchDpr = () => {
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
      const r = canvas.getBoundingClientRect();
      pending = [Math.round(r.width * window.devicePixelRatio), Math.round(r.height * window.devicePixelRatio)];
      watchDpr();
    }, { once: true });
  };
  watchDpr();
  return {
    apply(gl) {
      if (!pending) return false;
      const max = gl.getParameter(gl.MAX_RENDERBUFFER_SIZE) || 4096;
      canvas.width = Math.max(1, Math.min(max, pending[0]));
      canvas.height = Math.max(1, Math.min(max, pending[1]));
      pending = null;
      return true;
    },
  };
}
