// The page's modules in folders by role (docs/architecture.md "Layout"; the object types as a registry): every
// relative import resolves, in web/js and in the dist/ that `make` copies; no module is over ~500 lines; no module
// outside web/js/objects/ (and the built-in scene data) names an object type or tests one (the registered
// names, OBJECT_TYPES); every registered type has what
// the rest of the page asks of it, and its counts are the engine's.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { OBJECT_TYPES, OBJECT_CONTROLS, OBJECT_TYPE_STRINGS } from '../../web/js/objects/index.js';
import { BUILTIN_SCENE_IDS, loadBuiltinScene } from '../../web/js/format/builtin-scenes.js';
import { STRINGS } from '../../web/js/i18n/i18n.js';
import { SCENE_TABLES } from '../../web/js/format/scene.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(root, 'web', 'js');
const DIST = path.join(root, 'dist', 'js');

// dist/js/vendor (lil-gui) and dist/js/bundle (tools/bundle.mjs's minified bundles) are made by make, not copied
// from web/js: neither is walked.
function modules(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== 'vendor' && e.name !== 'bundle') out.push(...modules(p)); } else if (/\.(js|d\.ts)$/.test(e.name)) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^\s*import\s+'([^']+)'/gm;

test('every relative import of web/js resolves, in the source tree and in dist/js', () => {
  let n = 0;
  for (const base of [WEB, DIST]) {
    for (const file of modules(base)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? m[3];
        if (!spec.startsWith('.')) continue;
        let target = path.resolve(path.dirname(file), spec);
        if (file.endsWith('.d.ts') && !fs.existsSync(target)) target += '.d.ts';
        const vendored = target.includes(`${path.sep}vendor${path.sep}`);
        if (vendored && base === WEB) continue; // lil-gui is copied into dist/js/vendor by make
        assert.ok(fs.existsSync(target), `${path.relative(root, file)} imports ${spec}: no such file`);
        n++;
      }
    }
  }
  assert.ok(n > 150, `${n} imports checked`);
  for (const page of ['index.html', 'embed.html', 'example.html']) {
    const html = fs.readFileSync(path.join(root, 'dist', page), 'utf8');
    for (const [, src] of html.matchAll(/<script type="module" src="([^"]+)"/g)) {
      assert.ok(fs.existsSync(path.join(root, 'dist', src)), `${page} loads ${src}`);
    }
  }
});

test('dist/js is web/js as it is (plus the vendored panel library), nothing stale', () => {
  const rel = (base) => modules(base).map((f) => path.relative(base, f)).sort();
  assert.deepEqual(rel(DIST), rel(WEB));
});

test('no module is over 500 lines', () => {
  for (const file of modules(WEB)) {
    const lines = fs.readFileSync(file, 'utf8').split('\n').length;
    assert.ok(lines <= 500, `${path.relative(root, file)}: ${lines} lines`);
  }
});

test('only web/js/objects/ (and the built-in scenes\' data) names an object type; no module elsewhere tests one', () => {
  const names = OBJECT_TYPES.map((t) => t.type);
  assert.ok(names.includes('fluid') && names.length >= 5, names.join());
  const any = names.join('|');
  // A type's name as a string: only where the type is (a name that is also a scene section's, "fluid", names the
  // section and its panel folder as well, so only its tests are refused).
  const literal = new RegExp(names.filter((n) => !SCENE_TABLES.sections.includes(n)).map((n) => `['"]${n}['"]`).join('|'));
  // A test of an object's type: o.type === 'x', 'x' !== o.type, { type: 'x' }, ['x', …].includes(o.type),
  // findObjectType('x'), case 'x': (a switch over types). Ask the type instead (a member: render.primitive, water,
  // shapeMatched, emitters, …). Every registered name, fluid included.
  const typeTest = new RegExp([
    `\\btype\\s*[!=]==?\\s*['"](${any})['"]`,
    `['"](${any})['"]\\s*[!=]==?\\s*[\\w.?]*\\btype\\b`,
    `\\btype\\s*:\\s*['"](${any})['"]`,
    `['"](${any})['"][^\\]]*\\]\\.includes\\([\\w.?]*\\btype\\)`,
    `ObjectType\\(\\s*['"](${any})['"]`,
    `\\bcase\\s+['"](${any})['"]\\s*:`,
  ].join('|'));
  let files = 0;
  for (const file of modules(WEB)) {
    const rel = path.relative(WEB, file);
    if (rel.startsWith(`objects${path.sep}`) || rel === path.join('format', 'builtin-scenes.js')) continue;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((l, i) => {
      assert.ok(!literal.test(l), `${path.relative(root, file)}:${i + 1} names an object type: ${l.trim()}`);
      assert.ok(!typeTest.test(l), `${path.relative(root, file)}:${i + 1} tests an object's type: ${l.trim()}`);
    });
    files++;
  }
  assert.ok(files > 100, `${files} modules read`);
  // The patterns find what they are for.
  for (const l of ["if (o.type === 'fluid') {", "scene.objects.some((x) => 'fluid' !== x?.type)", "const o = { type: 'fluid' };",
    "['soft', 'rigid'].includes(o.type)", "findObjectType('fluid')", "    case 'fluid':", "case \"cloth\": return 1;"]) assert.ok(typeTest.test(l), l);
});

test('every registered object type has what the page asks of it, in both languages', () => {
  const members = ['type', 'fields', 'keys', 'read', 'counts', 'build', 'particlesWithOwnMass', 'stiffness', 'extent', 'render', 'controls'];
  for (const t of OBJECT_TYPES) {
    for (const m of members) assert.ok(t[m] !== undefined, `${t.type}.${m}`);
    assert.ok(t.keys.includes('type') && t.keys.includes('name'), t.type);
    assert.deepEqual(t.keys, t.fields.map((f) => f.key), `${t.type}: its keys are its rows'`);
    assert.ok(['lines', 'triangles', 'skin', 'fluid'].includes(t.render.primitive), t.type);
    for (const f of t.material ?? []) {
      assert.ok(Object.hasOwn(STRINGS.en, `material.${f.name}`) && Object.hasOwn(STRINGS.zh, `material.${f.name}.help`), `${t.type} material ${f.name} has its strings`);
      assert.ok(f.min <= f.max && f.step > 0 && typeof f.get === 'function' && typeof f.write === 'function', `${t.type} material ${f.name}`);
    }
    const words = OBJECT_TYPE_STRINGS[t.type];
    assert.deepEqual(Object.keys(words.zh).sort(), Object.keys(words.en).sort(), `${t.type}: the same keys in en and zh`);
    for (const c of t.controls) {
      assert.ok(Object.hasOwn(STRINGS.en, `param.${c.name}`) && Object.hasOwn(STRINGS.en, `param.${c.name}.help`), `${t.type} control ${c.name} has its strings`);
    }
    for (const [kind, s] of Object.entries(t.stiffness)) assert.ok(Number.isInteger(s.kind) && s.param === `stiffness.${kind}`, `${t.type}.${kind}`);
  }
  assert.equal(new Set(OBJECT_CONTROLS.map((c) => c.name)).size, OBJECT_CONTROLS.length, 'no control twice');
  assert.equal(new Set(OBJECT_TYPES.flatMap((t) => Object.values(t.stiffness).map((s) => s.kind))).size,
    OBJECT_TYPES.reduce((n, t) => n + Object.keys(t.stiffness).length, 0), 'each engine kind belongs to one type');
});

test('a type\'s counts and mass rule are the engine\'s, for every object of every built-in scene', async () => {
  const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  for (const id of BUILTIN_SCENE_IDS) {
    if (id === 'cloth-100k') continue; // the same code at 316 x 316; kept out for time
    const scene = await loadBuiltinScene(id);
    const world = pbd.createWorld(scene);
    scene.objects.forEach((o, k) => {
      const t = OBJECT_TYPES.find((x) => x.type === o.type);
      const info = world.objects[k];
      const c = t.counts(pbd, o, k, scene);
      assert.deepEqual([c.particles, c.constraints, 3 * c.triangles, 2 * c.lines, c.tets ?? 0, c.skinVertices ?? 0, c.skinTriangles ?? 0],
        [info.particleCount, info.constraintCount, 3 * info.triangleCount, 2 * info.lineCount, info.tetCount, info.skinVertexCount,
          info.skinTriangleCount], `${id}[${k}] counts`);
      // Pins and mass ranges keep their own mass: exactly those particles differ from the type's particle mass.
      const own = t.particlesWithOwnMass(o, world, k);
      const m = t.particleMass ? t.particleMass(o, info.particleCount, scene) : Math.fround(o.mass);
      for (let i = 0; i < info.particleCount; i++) {
        const w = world.positions[4 * (info.firstParticle + i) + 3];
        if (!own.has(i)) assert.equal(w, Math.fround(1 / m), `${id}[${k}] particle ${i}`);
      }
    });
    world.destroy();
  }
});

test('the object types\' sizes in closed form (a recording\'s quantum, the sprites)', () => {
  const chain = OBJECT_TYPES.find((t) => t.render.primitive === 'lines');
  const cloth = OBJECT_TYPES.find((t) => t.render.primitive === 'triangles');
  assert.equal(chain.extent({ start: [0, 0, 0], end: [3, 4, 0] }), 5);
  assert.equal(cloth.extent({ size: [2, 1.5] }), 2);
  const s = cloth.render.sprite({ resolution: [11, 21], size: [1, 1] });
  assert.deepEqual([s.columns, s.rows], [11, 21]);
  assert.ok(Math.abs(s.radius - 0.005) < 1e-12, 'a tenth of the smaller spacing (1/20)');
  // Bodies: the largest side (a mesh's bounding box), particles drawn at half the lattice spacing.
  const [soft, rigid] = ['soft', 'rigid'].map((name) => OBJECT_TYPES.find((t) => t.type === name));
  assert.equal(soft.extent({ shape: 'box', halfExtents: [0.5, 0.2, 0.1] }), 1);
  assert.equal(rigid.extent({ shape: 'ball', radius: 0.3 }), 0.6);
  assert.equal(soft.extent({ shape: 'mesh', mesh: { vertices: [[0, 0, 0], [1, 2, 0], [0, -1, 0.5]] } }), 3);
  assert.equal(soft.render.sprite({ shape: 'box', halfExtents: [0.5, 0.25, 0.25], resolution: 4, particleRadius: 0 }).radius, 0.125);
  assert.equal(rigid.render.sprite({ shape: 'ball', radius: 0.5, resolution: 5, particleRadius: 0.02 }).radius, 0.02);
  assert.equal(rigid.render.sprite({ shape: 'tets', particleRadius: 0, mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0.5, 0], [0, 0, 2]],
    tets: [[0, 1, 2, 3]] } }).radius, 0.25, 'tets: half the shortest edge');
});

// ---------- no function over 80 lines in web/js ----------
// A function is read as a unit: the page's code is cut into small functions composed in few places (issue 21), not
// one long closure. A brace-matching scan (no parser): strings, template literals, comments and regular
// expressions are skipped; a `{` opens a function's body after `=>`, or after `)` whose `(` followed a word that is
// no statement keyword (function f(, a method f(, constructor(, get x(). A function's length counts its nested ones.
const FUNCTION_MAX_LINES = 80;
// Known to be over, each with its owner's note (none now). Remove an entry when its function is cut.
const FUNCTION_OVER = new Set([]);

function functionSpans(text) {
  const out = [];
  const braces = []; // { line, name } per open brace (name null unless a function's body)
  const parens = []; // the word before each open paren ('' for none)
  const NOT_CALLS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'await', 'in', 'of', 'new',
    'delete', 'void', 'case', 'do', 'else', 'yield']);
  const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'yield', 'await', 'void', 'delete', 'new']);
  let line = 1, i = 0, prev = '', word = '', closedBy = null;
  let classHead = -1; // the paren depth of a `class` heading whose body's { is still to come (extends f(B) {)
  const n = text.length;
  const skipTemplate = () => { // from inside a template literal to its end (`) or to a ${ (a brace of its own)
    for (; i < n; i++) {
      if (text[i] === '\\') { i++; continue; }
      if (text[i] === '\n') line++;
      else if (text[i] === '`') { i++; return; } else if (text[i] === '$' && text[i + 1] === '{') { i += 2; braces.push({ line, name: null, template: true }); return; }
    }
  };
  while (i < n) {
    const c = text[i];
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < n && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') {
      for (i += 2; i < n && !(text[i] === '*' && text[i + 1] === '/'); i++) if (text[i] === '\n') line++;
      i += 2;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < n && text[i] !== c; i++) if (text[i] === '\\') i++;
      i++; prev = 's'; word = '';
      continue;
    }
    if (c === '`') { i++; skipTemplate(); prev = 's'; word = ''; continue; }
    if (c === '/' && (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) || (prev === 'w' && BEFORE_REGEX.has(word)))) {
      let inClass = false;
      for (i++; i < n && (inClass || text[i] !== '/'); i++) {
        if (text[i] === '\\') i++; else if (text[i] === '[') inClass = true; else if (text[i] === ']') inClass = false;
      }
      for (i++; /[a-z]/.test(text[i] ?? ''); i++);
      prev = 's'; word = '';
      continue;
    }
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < n && /[\w$]/.test(text[j])) j++;
      word = text.slice(i, j); prev = 'w'; i = j;
      if (word === 'class') classHead = parens.length;
      continue;
    }
    if (c === '(') parens.push(prev === 'w' ? word : '');
    else if (c === ')') closedBy = parens.pop() ?? '';
    else if (c === '{') {
      let name = null;
      if (classHead === parens.length) classHead = -1; // a class's body
      else if (prev === '>' && text[i - 1] !== undefined && /=>\s*$/.test(text.slice(Math.max(0, i - 40), i))) name = '=>';
      else if (prev === ')' && !NOT_CALLS.has(closedBy)) name = closedBy || 'function';
      braces.push({ line, name });
    } else if (c === '}') {
      const open = braces.pop();
      if (open?.template) { i++; skipTemplate(); prev = 's'; word = ''; continue; }
      if (open?.name) out.push({ name: open.name, line: open.line, lines: line - open.line + 1 });
    }
    prev = c; word = '';
    i++;
  }
  return out;
}

test('the function scan finds functions, their lengths, and nothing in strings, comments or regular expressions', () => {
  const body = (k) => Array.from({ length: k }, (_, j) => `    x${j}++;`).join('\n');
  const src = [
    'const s = "function f() {", t = `a ${ { b: 1 }.b } }`, r = /[{(]\\}/g; // function g() {',
    `export function outer(a) {\n  const inner = (b) => {\n${body(3)}\n  };\n  if (a) {\n${body(2)}\n  }\n}`,
    `class K extends mix(Base) {\n  method(x) {\n${body(4)}\n  }\n  get y() { return 1; }\n}`,
  ].join('\n');
  const spans = functionSpans(src).map((s) => `${s.name}:${s.lines}`);
  assert.deepEqual(spans.sort(), ['=>:5', 'method:6', 'outer:11', 'y:1'].sort());
});

test(`no function in web/js is over ${FUNCTION_MAX_LINES} lines`, () => {
  const over = [];
  let count = 0;
  for (const file of modules(WEB).filter((f) => f.endsWith('.js') && !f.endsWith('.d.ts'))) {
    const rel = path.relative(WEB, file).split(path.sep).join('/');
    for (const s of functionSpans(fs.readFileSync(file, 'utf8'))) {
      count++;
      if (s.lines > FUNCTION_MAX_LINES && !FUNCTION_OVER.has(`${rel} ${s.name}`)) over.push(`${rel}:${s.line} ${s.name}: ${s.lines} lines`);
    }
  }
  assert.ok(count > 1000, `${count} functions scanned`);
  assert.deepEqual(over, []);
});

test('no module adds methods to a class\'s prototype (a class gets its methods from its own body or a class it extends)', () => {
  // Object.defineProperty(ies)(X.prototype, …), Object.assign(X.prototype, …), X.prototype.y = …
  const PATCH = /Object\.(?:defineProperties|defineProperty|assign)\(\s*[\w$.]+\.prototype\b|\.prototype\.[\w$]+\s*=[^=]/;
  assert.ok(PATCH.test('Object.defineProperties(World.prototype, d)') && PATCH.test('El.prototype.step = f;'), 'the check sees a patch');
  for (const file of modules(WEB).filter((f) => f.endsWith('.js'))) {
    const code = fs.readFileSync(file, 'utf8').split('\n').filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l)).join('\n');
    assert.ok(!PATCH.test(code), `${path.relative(root, file)} patches a prototype`);
  }
});
