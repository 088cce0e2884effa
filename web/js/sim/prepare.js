// prepare.js — a scene's world built ahead (engine.prepareScene: a mesh body's inside test, seconds for an open model
// at resolution 48, then the world an object at a time) a few milliseconds at a time between tasks, so the page keeps
// drawing the running world and answering clicks while a link's or a file's world is made; createWorld then hands
// it over.

/** Budget of one piece, ms: a click waits at most about this (plus a row of cells, or one object's build) for the
 *  page's answer. */
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
