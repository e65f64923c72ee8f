import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverNodeFlags } = require(path.join(__dirname, '..', '..', 'scripts', 'server-flags.js')) as {
  serverNodeFlags(env: Record<string, string | undefined>, given?: string): string[];
};

describe('the node flags npm start runs the server with', () => {
  it('holds the old space to SVC_MAX_HEAP_MB (256) and the young generation to 8 MB semi-spaces', () => {
    expect(serverNodeFlags({})).toEqual(['--max-old-space-size=256', '--max-semi-space-size=8']);
    expect(serverNodeFlags({ SVC_MAX_HEAP_MB: '512' })).toEqual(['--max-old-space-size=512', '--max-semi-space-size=8']);
  });

  it('leaves out a flag the command line or NODE_OPTIONS already sets', () => {
    expect(serverNodeFlags({ SVC_MAX_HEAP_MB: '512' }, '--max-old-space-size=128')).toEqual(['--max-semi-space-size=8']);
    expect(serverNodeFlags({}, '--inspect --max-semi-space-size=4')).toEqual(['--max-old-space-size=256']);
    expect(serverNodeFlags({}, '--max-old-space-size=256 --max-semi-space-size=8')).toEqual([]);
  });
});
