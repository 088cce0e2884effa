// thread-worker.js — one extra thread of the threaded engine (threads.js). The same module runs as a Node
// `worker_threads` Worker and as a browser module Worker. It instantiates the engine's compiled module over the
// engine's shared memory, moves its own stack pointer to the stack the engine allocated for it (before any other
// call: every instance starts with the same __stack_pointer, the first thread's), then plays its role:
//
//   'helper' — participant `index` of the team: pbd_Team_Work(team, index) parks between steps, shares out the
//              step's loops and returns at pbd_Team_Stop (the team is fork-join over fixed blocks).
//   'runner' — participant 0 for the page: runs the calls the page posts ({ call, args }), most often
//              pbdjs_StepN, so the page's main thread never waits on a step. Completion is the
//              state word in shared memory (the page may poll or spin on it) and a message.

const nodePort = typeof process !== 'undefined' && process.versions?.node
  ? (await import('node:worker_threads')).parentPort : null;

const post = (message) => (nodePort ? nodePort.postMessage(message) : self.postMessage(message));
const listen = (fn) => (nodePort ? nodePort.on('message', fn) : self.addEventListener('message', (ev) => fn(ev.data)));

const STATE_DONE = 2; // threads.js: 0 idle, 1 running, 2 done

let exports = null;
let slots = null; // the runner's completion record: Int32 [state, result], Float64 [1] = ms

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

function start(msg) {
  const instance = new WebAssembly.Instance(msg.module, { env: { memory: msg.memory } });
  exports = instance.exports;
  exports.__stack_pointer.value = msg.stackTop;
  if (msg.role === 'helper') {
    post({ type: 'ready' });
    exports.pbd_Team_Work(msg.team, msg.index);
    post({ type: 'stopped' });
    return;
  }
  slots = { i32: new Int32Array(msg.memory.buffer, msg.slots, 2), f64: new Float64Array(msg.memory.buffer, msg.slots + 8, 1) };
  post({ type: 'ready' });
}

function run(msg) {
  const t0 = now();
  let result;
  try {
    result = exports[msg.call](...msg.args);
  } catch (err) {
    // A trap (out of bounds, unreachable) leaves the engine unusable: report it rather than hang the page.
    result = -1000;
    post({ type: 'trap', message: String(err?.message ?? err) });
  }
  slots.f64[0] = now() - t0;
  Atomics.store(slots.i32, 1, result | 0);
  Atomics.store(slots.i32, 0, STATE_DONE);
  Atomics.notify(slots.i32, 0);
  post({ type: 'done', result });
}

listen((msg) => {
  if (msg.type === 'start') start(msg);
  else if (msg.type === 'call') run(msg);
});
