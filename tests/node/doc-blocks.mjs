// doc-blocks.mjs — the code blocks of the docs (README.md, docs/*.md), for tests/node/docs.test.mjs and
// tests/browser/docs.test.mjs. The convention (docs/tests.md "The docs' code blocks"): a block a reader would run
// says so in its info string, after the language:
//
//   ```js run=node id=NAME       an ES module, run as NAME.mjs in a fresh npm init -y project with the package
//   ```js run=node-cjs id=NAME   the same as a CommonJS file (NAME.js)
//   ```sh run=cli                each line a shell command in that project; `node tools/minipbd-run.mjs` and
//                                `npx minipbd-run` run the CLI
//   ```html run=browser id=NAME  (or js) put in a page served next to dist/ by the browser test
//   ```sh run=no: REASON         not run, and why (a placeholder, a server that runs until stopped, …)
//
// A block that looks runnable (sh with a line starting make, node, npx or npm; js with an import) must say one of
// these, so a new example cannot dodge the tests.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** README.md, every docs/*.md (docs/package-README.md too), relative to the root. */
export function docFiles() {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every fenced block of `text`: { file, line (1-based, the opening fence), lang, info, run, id, reason, code }. */
export function parseBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^( *)(`{3,})(.*)$/);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ *${fence}\\s*$`).test(lines[j])) body.push(lines[j++]);
    if (j === lines.length) throw new Error(`${file}:${i + 1}: a code block is never closed`);
    const words = info.trim();
    const run = words.match(/(?:^|\s)run=([a-z-]+)/)?.[1] ?? null;
    blocks.push({
      file,
      line: i + 1,
      lang: words.split(/\s+/)[0] || '',
      info: words,
      run,
      id: words.match(/(?:^|\s)id=([\w-]+)/)?.[1] ?? null,
      reason: run === 'no' ? (words.match(/run=no:\s*(.*)$/)?.[1].trim() ?? '') : null,
      code: body.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n') + '\n',
    });
    i = j;
  }
  return blocks;
}

/** Every block of every doc file. */
export function docBlocks() {
  return docFiles().flatMap((f) => parseBlocks(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
}

export const RUN_KINDS = ['node', 'node-cjs', 'cli', 'browser', 'no'];

/** Why `block` breaks the convention, or null. */
export function conventionProblem(block) {
  const where = `${block.file}:${block.line}`;
  const shellish = ['sh', 'bash', 'shell', 'console'].includes(block.lang)
    && block.code.split('\n').some((l) => /^\s*(\$\s*)?(make|node|npx|npm)\b/.test(l));
  const jsish = ['js', 'mjs', 'javascript'].includes(block.lang) && /\bimport\b/.test(block.code);
  if (block.run === null) return shellish || jsish ? `${where}: a ${block.lang} block a reader would run is not marked run=… (or run=no: reason)` : null;
  if (!RUN_KINDS.includes(block.run)) return `${where}: unknown run=${block.run} (one of ${RUN_KINDS.join(', ')})`;
  if (block.run === 'no' && !block.reason) return `${where}: run=no needs a reason (run=no: why)`;
  if (['node', 'node-cjs', 'browser'].includes(block.run) && !block.id) return `${where}: run=${block.run} needs an id=NAME`;
  return null;
}
