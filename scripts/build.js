#!/usr/bin/env node
// Compiles the server (tsc) and copies what the compiled code reads at run time
// (the kernel's views, plugin and example views and data, hooks.d.ts) into dist/. Client bundles are
// built by scripts/bundle-clients.js when present.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
  cwd: root,
});

const copy = (from, to) => fs.cpSync(from, to, { recursive: true });
copy(path.join(root, 'core', 'views'), path.join(dist, 'core', 'views'));
fs.copyFileSync(path.join(root, 'hooks.d.ts'), path.join(dist, 'hooks.d.ts'));
for (const parent of ['plugins', 'examples']) {
  const dir = path.join(root, parent);
  for (const plugin of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    for (const folder of ['views', 'data']) {
      const src = path.join(dir, plugin, folder);
      if (fs.existsSync(src)) copy(src, path.join(dist, parent, plugin, folder));
    }
  }
}
const bundler = path.join(__dirname, 'bundle-clients.js');
if (fs.existsSync(bundler)) execFileSync(process.execPath, [bundler], { stdio: 'inherit', cwd: root });
fs.writeFileSync(path.join(dist, '.build-stamp'), new Date().toISOString());
