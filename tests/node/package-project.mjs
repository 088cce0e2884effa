// package-project.mjs — the npm package as a user gets it: `npm pack` of dist/minipbd@VERSION, installed offline into
// a fresh `npm init -y` project (CommonJS, npm's default), in a temporary folder with npm's own cache there, so
// nothing of the user's is read or written and no network is asked. (tests/node/package.test.mjs does the same
// steps inline and checks each; tests/node/docs.test.mjs uses this.)

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './doc-blocks.mjs';

export const META = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
export const PKG_DIR = path.join(ROOT, 'dist', `${META.name}@${META.version}`);

/** Pack, init and install. Returns { tmp, project, env, run(file, args), sh(line), cleanup() }. */
export function packedProject(prefix = 'minipbd-project-') {
  if (!fs.existsSync(path.join(PKG_DIR, 'package.json'))) throw new Error(`${PKG_DIR} is missing: run make dist`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const project = path.join(tmp, 'project');
  const env = { ...process.env, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false', NODE_PATH: '' };
  // What the reader sees in a plain project: no colours, though `node --test` in a terminal asks its children for them.
  delete env.FORCE_COLOR;
  const npm = (args, cwd) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [packed] = JSON.parse(npm(['pack', PKG_DIR, '--json', '--pack-destination', tmp], tmp));
  fs.mkdirSync(project);
  npm(['init', '-y'], project);
  npm(['install', path.join(tmp, packed.filename), '--offline', '--no-audit', '--no-fund'], project);
  return {
    tmp,
    project,
    env,
    run: (file, args = []) => spawnSync(process.execPath, [file, ...args], { cwd: project, env, encoding: 'utf8', timeout: 120000 }),
    sh: (line) => spawnSync('sh', ['-c', line], { cwd: project, env, encoding: 'utf8', timeout: 300000 }),
    cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }),
  };
}
