// Whether dist/ is missing or older than any source file: `npm start` and the
// tests that run compiled code (spawned CLI, forked app nodes) build only then.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const SOURCES = ['core', 'plugins', 'examples', 'hooks.d.ts', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isBuildStale(root) {
  const stamp = path.join(root, 'dist', '.build-stamp');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  return built === 0 || SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

module.exports = { isBuildStale };
