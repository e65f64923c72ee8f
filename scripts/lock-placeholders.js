#!/usr/bin/env node
// CI helper, run before `npm ci`. npm 11.16+ refuses a lockfile that lacks entries for
// optional platform packages the registry does not serve (npm/cli#9846), although npm
// itself leaves them out when it writes the lockfile. This adds an inert entry (pinned
// version, matching no os/cpu, so it is never fetched or installed) for each optional
// dependency with an exact version that the lockfile does not list. Idempotent.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages ?? {};
const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** Where npm would resolve `name` from the package at `from`: nearest node_modules upwards. */
function resolved(from, name) {
  for (let dir = from; ; ) {
    const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[key]) return true;
    if (!dir) return false;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up === -1 ? '' : dir.slice(0, up);
  }
}

const added = [];
for (const [at, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (!EXACT.test(spec) || resolved(at, name)) continue;
    const key = `${at ? `${at}/` : ''}node_modules/${name}`;
    packages[key] = { version: spec, ...(entry.dev ? { dev: true } : {}), optional: true, os: ['none'], cpu: ['none'] };
    added.push(`${name}@${spec}`);
  }
}
if (added.length > 0) {
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(`lockfile: ${added.length} inert placeholder(s) for unserved optional packages\n`);
}
