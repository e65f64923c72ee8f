#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than any source file, then serves.
'use strict';
const path = require('node:path');
const { isBuildStale } = require('./build-state');

const root = path.resolve(__dirname, '..');
if (isBuildStale(root)) {
  process.stdout.write('svc: building...\n');
  require('./build.js');
}
require(path.join(root, 'dist', 'core', 'server.js')).serve();
