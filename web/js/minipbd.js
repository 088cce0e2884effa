/* minipbd.js -- the MiniPBD JS API in one import, for pages, tools and Node (docs/api.md "JS API"; the types are
   minipbd.d.ts). Runs unchanged in browsers and in Node 20.

     import { loadMiniPBD, builtinScenes } from './minipbd.js';
     const pbd = await loadMiniPBD('./minipbd.wasm');   // or bytes (Node: fs.readFileSync)
     const world = pbd.createWorld(builtinScenes.cloth); // validated; throws SceneError / MiniPBDError
     world.step(1);
     gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.positions);  // a view over wasm memory

   The modules behind it, by role: engine/ (the wasm loader, the World, heap views, argument checks, the
   parameter table), format/ (the scene format, replays, links, built-in scenes, OBJ files), objects/ (the object
   types' registry), record/ (recording and replaying a run). */
export { loadMiniPBD, Engine } from './engine/loader.js';
export { World } from './engine/world.js';
export { MiniPBDError } from './engine/args.js';
export { PARAM_TABLE, PARAMS, PARAM_NAMES } from './engine/params.js';
export { validateScene, SceneError, SCENE_LIMITS, SCENE_VERSION } from './format/scene.js';
export { parseSceneFile, checkSceneFileSize, sceneFileText, SceneFileError, MAX_SCENE_FILE_BYTES } from './format/scene-file.js';
export { builtinScenes, defaultScene, DEFAULT_SCENE_KEY, BUILTIN_SCENE_IDS, loadBuiltinScene } from './format/builtin-scenes.js';
export { parseObj, readObjFile, ObjError, OBJ_LIMITS } from './format/obj.js';
export { readReplay, validateReplay, replayParamValue, REPLAY_VERSION, REPLAY_LIMITS, REPLAY_PARAMS } from './format/replay.js';
export { encodeLink, decodeLink, decodeRun, parseFragment, LinkError, LINK_VERSION, LINK_WARN_LENGTH } from './format/link.js';
export { OBJECT_TYPES } from './objects/index.js';
export { Recorder, chooseQuantum } from './record/recorder.js';
export { Replayer } from './record/replayer.js';
