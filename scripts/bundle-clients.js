#!/usr/bin/env node
// Pre-bundles every browser entry point (plugins/*/client/*.entry.ts|css) into
// dist/assets with a manifest, so the server never bundles at run time. Runs
// after tsc in scripts/build.js and reuses the compiled bundler of core/assets.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const { bundleAll } = require(path.join(root, 'dist', 'core', 'assets', 'bundler.js'));

bundleAll(root, path.join(root, 'dist', 'assets')).then(
  (manifest) => process.stdout.write(`bundled ${Object.keys(manifest).length} browser entries into dist/assets\n`),
  (err) => {
    process.stderr.write(`bundling browser code failed: ${err && err.message ? err.message : err}\n`);
    process.exit(1);
  },
);
