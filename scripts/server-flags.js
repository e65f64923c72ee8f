// Node flags of the server `npm start` runs, shared with the tracking bench so it measures
// the same process. V8 sizes its heap from the machine's memory and lets garbage pile up to
// it: the old space is held to SVC_MAX_HEAP_MB (256), and the young generation to 8 MB
// semi-spaces (V8's default is 16 MB on 64-bit machines), which keeps the resident size
// near what is really in use for a few more, shorter scavenges.
'use strict';

/** The flags `env` asks for, leaving out those already in force in `given` (execArgv and NODE_OPTIONS). */
function serverNodeFlags(env, given = '') {
  const flags = [];
  if (!given.includes('--max-old-space-size')) flags.push(`--max-old-space-size=${Number(env.SVC_MAX_HEAP_MB || 256)}`);
  if (!given.includes('--max-semi-space-size')) flags.push('--max-semi-space-size=8');
  return flags;
}

module.exports = { serverNodeFlags };
