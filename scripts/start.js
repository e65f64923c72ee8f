#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than any source file, then serves,
// in a child process with the node flags of server-flags.js unless they are in force
// already. SVC_MAX_HEAP_MB may come from the .env files the server reads, so they are
// read here first.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { isBuildStale } = require('./build-state');
const { serverNodeFlags } = require('./server-flags');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist', 'core');

function buildWhenStale() {
  if (!isBuildStale(root)) return;
  process.stdout.write('svc: building...\n');
  require('./build.js');
}

buildWhenStale();
const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
if (serverNodeFlags({}, given).length > 0) {
  try {
    require(path.join(dist, 'env-file.js')).applyEnvFiles(process.env);
  } catch {
    // The server reads the same files and reports the problem in one line.
  }
  const child = spawn(process.execPath, [...serverNodeFlags(process.env, given), __filename], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  require(path.join(dist, 'server.js')).serve();
}
