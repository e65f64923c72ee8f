import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { svcTracking } from '../middleware';

const SNIPPET = '<script src="https://stats.example/svc/embed.js" async></script>';

async function serve(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the express middleware for sites served through Node', () => {
  let site: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const app = express();
    app.use(svcTracking({ snippet: SNIPPET }));
    app.get('/', (_req, res) => {
      res.send('<html><head><title>Home</title></head><body>home</body></html>');
    });
    app.get('/post/:id', (req, res) => {
      res.locals.svcPage = { id: Number(req.params.id), type: 'post' };
      res.send('<html><head></head><body class="single">post</body></html>');
    });
    app.get('/bad', (_req, res) => {
      res.locals.svcPage = { id: -4, type: 'Not Valid' };
      res.send('<html><head></head><body>bad typing</body></html>');
    });
    app.get('/streamed', (_req, res) => {
      res.type('html');
      res.write('<html><head></head><bo');
      res.write(Buffer.from('dy>part one, '));
      res.end('part two</body></html>', 'utf8');
    });
    app.get('/has-snippet', (_req, res) => {
      res.send(`<html><head>${SNIPPET}</head><body>x</body></html>`);
    });
    app.get('/data.json', (_req, res) => {
      res.json({ body: '<body>' });
    });
    app.get('/search', (_req, res) => {
      res.send('<html><head></head><body>results</body></html>');
    });
    app.use((_req, res) => {
      res.status(404).send('<html><head></head><body>missing</body></html>');
    });
    site = await serve(app);
  });
  afterAll(() => site.close());

  const page = async (path: string) => {
    const res = await fetch(`${site.url}${path}`);
    const text = await res.text();
    expect(Number(res.headers.get('content-length') ?? Buffer.byteLength(text))).toBe(Buffer.byteLength(text));
    return { status: res.status, text };
  };

  it('types the page from res.locals.svcPage and adds the snippet before </head>', async () => {
    expect((await page('/post/12')).text).toBe(`<html><head>${SNIPPET}\n</head><body class="single" data-svc_id="12" data-svc_type="post">post</body></html>`);
  });

  it('types the front page, searches and 404 answers by default', async () => {
    expect((await page('/')).text).toContain('<body data-svc_id="0" data-svc_type="front-page">');
    expect((await page('/search?s=shoes')).text).toContain('<body data-svc_id="0" data-svc_type="search">');
    expect((await page('/search')).text).toContain('<body>results');
    const missing = await page('/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<body data-svc_id="0" data-svc_type="404">');
  });

  it('buffers pages written in pieces', async () => {
    expect((await page('/streamed')).text).toBe(`<html><head>${SNIPPET}\n</head><body>part one, part two</body></html>`);
  });

  it('leaves bad page typing, pages that have the snippet and other content alone', async () => {
    expect((await page('/bad')).text).toBe(`<html><head>${SNIPPET}\n</head><body>bad typing</body></html>`);
    expect((await page('/has-snippet')).text).toBe(`<html><head>${SNIPPET}</head><body>x</body></html>`);
    const json = await fetch(`${site.url}/data.json`);
    expect(await json.json()).toEqual({ body: '<body>' });
    const head = await fetch(`${site.url}/post/3`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('refuses a snippet that is not the settings page script line', () => {
    for (const snippet of ['<img src=x>', '<script>alert(1)</script>', '<script src="javascript:alert(1)"></script>', 'https://stats.example/svc/embed.js']) {
      expect(() => svcTracking({ snippet })).toThrow(/snippet/);
    }
    expect(() => svcTracking({ snippet: `  ${SNIPPET}\n` })).not.toThrow();
    expect(() => svcTracking()).not.toThrow();
  });
});
