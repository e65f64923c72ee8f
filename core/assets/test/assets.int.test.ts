import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createMemoryLogger } from '../../logger';
import { AssetService } from '../assets';
import { assetName, bundleAll, discoverEntries } from '../bundler';

async function serve(service: AssetService): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use('/base', service.router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('browser assets', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-assets-'));
    fs.mkdirSync(path.join(root, 'plugins', 'demo', 'client'), { recursive: true });
    fs.writeFileSync(path.join(root, 'plugins', 'demo', 'client', 'greet.ts'), 'export const greet = (name: string): string => `hello ${name}`;\n');
    fs.writeFileSync(path.join(root, 'plugins', 'demo', 'client', 'hello.entry.ts'), "import { greet } from './greet';\ndocument.title = greet('world');\n");
    fs.writeFileSync(path.join(root, 'plugins', 'demo', 'client', 'look.entry.css'), 'body {  color : red ; }\n');
    fs.mkdirSync(path.join(root, 'plugins', 'demo', 'client', 'deep'));
    fs.writeFileSync(path.join(root, 'plugins', 'demo', 'client', 'deep', 'inner.entry.ts'), "document.title = 'inner';\n");
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('names entries after their plugin and file', () => {
    expect(assetName('plugins/tracking/client/dashboard.entry.ts')).toEqual({ name: 'tracking-dashboard', ext: 'js' });
    expect(assetName('core/assets/client/dashboard.entry.css')).toEqual({ name: 'dashboard', ext: 'css' });
    expect(() => assetName('plugins/x/client/helper.ts')).toThrow(/entry/);
    expect(discoverEntries(root)).toEqual([
      path.join('plugins', 'demo', 'client', 'deep', 'inner.entry.ts'),
      path.join('plugins', 'demo', 'client', 'hello.entry.ts'),
      path.join('plugins', 'demo', 'client', 'look.entry.css'),
    ]);
  });

  it('bundles from source on the first request, with content-hash ETags and long caching for versioned URLs', async () => {
    const service = new AssetService('/base', createMemoryLogger().logger, root);
    expect(service.register({ entry: 'plugins/demo/client/hello.entry.ts' })).toBe('/base/svc/assets/demo-hello.js');
    expect(service.register({ entry: 'plugins/demo/client/hello.entry.ts' })).toBe('/base/svc/assets/demo-hello.js');
    expect(() => service.register({ entry: 'plugins/demo/client/hello.entry.ts', path: '/other.js' })).toThrow(/twice/);
    service.register({ entry: 'plugins/demo/client/look.entry.css' });
    const http = await serve(service);
    try {
      const versioned = await service.versionedUrl('plugins/demo/client/hello.entry.ts');
      const hash = versioned.split('?v=')[1]!;
      expect(hash).toMatch(/^[a-f0-9]{16}$/);
      const res = await fetch(`${http.url}${versioned}`);
      const code = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toBe(`"${hash}"`);
      expect(code).toContain('hello ');
      expect(code).not.toContain(': string');
      const bundled = await service.bundle('plugins/demo/client/hello.entry.ts');
      expect(bundled.hash).toBe(hash);
      expect(bundled.code.toString('utf8')).toBe(code);
      await expect(service.bundle('plugins/demo/client/nope.entry.ts')).rejects.toThrow(/not registered/);
      const zipped = await fetch(`${http.url}${versioned}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(await zipped.text()).toBe(code);
      expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
      const plain = await fetch(`${http.url}/base/svc/assets/demo-hello.js`);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      const again = await fetch(`${http.url}/base/svc/assets/demo-hello.js`, { headers: { 'if-none-match': `"${hash}"` } });
      expect(again.status).toBe(304);
      const css = await fetch(`${http.url}/base/svc/assets/demo-look.css`);
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(await css.text()).toBe('body{color:red}\n');
      expect((await fetch(`${http.url}/base/svc/assets/nope.js`)).status).toBe(404);
    } finally {
      await http.close();
    }
  });

  it('serves what the build pre-bundled without bundling again', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dist-'));
    try {
      const manifest = await bundleAll(root, path.join(dist, 'assets'));
      const built = manifest['demo-hello.js']!;
      fs.writeFileSync(path.join(dist, 'assets', built.file), 'window.prebuilt = true;');
      const service = new AssetService('', createMemoryLogger().logger, dist);
      service.register({ entry: 'plugins/demo/client/hello.entry.ts' });
      expect(await service.versionedUrl('plugins/demo/client/hello.entry.ts')).toBe(`/svc/assets/demo-hello.js?v=${built.hash}`);
      const app = express();
      app.use(service.router);
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/svc/assets/demo-hello.js`);
      expect(await res.text()).toBe('window.prebuilt = true;');
      await new Promise((resolve) => server.close(resolve));
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
