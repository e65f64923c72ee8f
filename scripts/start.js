#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than any source file, then serves.
// V8 sizes its heap from the machine's memory and lets garbage pile up to it; unless the
// operator chose a limit, the server runs with SVC_MAX_HEAP_MB (256) of old space, which
// keeps the resident size near what is really in use. SVC_MAX_HEAP_MB may come from the
// .env files the server reads, so they are read here first.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { isBuildStale } = require('./build-state');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist', 'core');

function buildWhenStale() {
  if (!isBuildStale(root)) return;
  process.stdout.write('svc: building...\n');
  require('./build.js');
}

const limited = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('--max-old-space-size'));
buildWhenStale();
if (!limited) {
  try {
    require(path.join(dist, 'env-file.js')).applyEnvFiles(process.env);
  } catch {
    // The server reads the same files and reports the problem in one line.
  }
  const heap = Number(process.env.SVC_MAX_HEAP_MB || 256);
  const child = spawn(process.execPath, [`--max-old-space-size=${heap}`, __filename], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  require(path.join(dist, 'server.js')).serve();
}
