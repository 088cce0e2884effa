// prepare.js — what a scene's build can do ahead (engine.prepareScene: a mesh body's inside test, seconds for an open
// model at resolution 48) run a few milliseconds at a time between tasks, so the page keeps drawing the running world
// and answering clicks while a link's or a file's models are filled; the build after is short.

/** Budget of one piece, ms: a click waits at most about this (plus a row of cells) for the page's answer. */
const PIECE_MS = 8;

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Runs `engine`'s preparation of `scene` in pieces; resolves to false when `cancelled()` turned true on the way (a
 * newer link, another scene), true when done. Never throws: a scene that is refused is refused by the build after.
 */
export async function prepareAhead(engine, scene, cancelled = () => false) {
  const job = engine.prepareScene(scene);
  try {
    while (!job.run(PIECE_MS)) {
      await nextTask();
      if (cancelled()) return false;
    }
    return true;
  } finally {
    job.cancel();
  }
}
