#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than any source file, then serves.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const SOURCES = ['core', 'plugins', 'migrations', 'views', 'examples', 'hooks.d.ts', 'package.json'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (built === 0 || SOURCES.some((s) => newestMtime(path.join(root, s)) > built)) {
  process.stdout.write('svc: building...\n');
  require('./build.js');
}
require(path.join(root, 'dist', 'core', 'server.js')).serve();
