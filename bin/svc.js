#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const entry = path.join(__dirname, '..', 'dist', 'core', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('svc: not built yet; run `npm run build` first\n');
  process.exit(1);
}
require(entry).main(process.argv.slice(2)).then((code) => process.exit(code));
