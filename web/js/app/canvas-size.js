// canvas-size.js — the page's view size in device pixels (its CSS size x devicePixelRatio), which the frame loop
// hands to renderer.fit before a draw (the drawing buffer is that, or a part of it on a software renderer).
// (contentRect x devicePixelRatio rather than device-pixel-content-box: the latter is not reported consistently
// under browser zoom/emulation, and a 1-pixel rounding difference does not matter here.)

/** Watches `canvas`; returns { get device() }: [width, height] in device pixels, or null before it is measured. */
export function canvasSize(canvas) {
  let device = null;
  const measure = (width, height) => {
    const dpr = window.devicePixelRatio || 1;
    device = [Math.round(width * dpr), Math.round(height * dpr)];
  };
  const ro = new ResizeObserver((entries) => {
    const r = entries[entries.length - 1].contentRect;
    measure(r.width, r.height);
  });
  ro.observe(canvas);
  // devicePixelRatio changes (browser zoom, moving to another screen) without a CSS resize: re-measure.
  const watchDpr = () => {
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
      const r = canvas.getBoundingClientRect();
      measure(r.width, r.height);
      watchDpr();
    }, { once: true });
  };
  watchDpr();
  return { get device() { return device; } };
}
