import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { requestContext } from '../../core/http/request-context';

const request = (marker: string) => {
  const res = new EventEmitter() as unknown as ServerResponse;
  const req = { headers: { 'x-marker': marker }, res } as unknown as Request;
  return { req, res };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('request context', () => {
  it('follows each request across awaits, while requests overlap', async () => {
    const a = request('a');
    const b = request('b');
    const seen: string[] = [];
    await Promise.all([
      requestContext.run(a.req, async () => {
        await tick();
        seen.push(`a:${String(requestContext.headers()?.['x-marker'])}`);
      }),
      requestContext.runHot(b.req as unknown as IncomingMessage, b.res, async () => {
        await tick();
        seen.push(`b:${String(requestContext.headers()?.['x-marker'])}`);
        expect(requestContext.current()).toBeUndefined();
      }),
    ]);
    expect(seen.sort()).toEqual(['a:a', 'b:b']);
    a.res.emit('close');
    b.res.emit('close');
  });

  it('gives no request once every request in it has been answered', async () => {
    const a = request('a');
    let later: Promise<unknown> = Promise.resolve();
    requestContext.run(a.req, () => {
      later = (async () => {
        await tick();
        await tick();
        return requestContext.headers();
      })();
    });
    a.res.emit('close');
    expect(await later).toBeUndefined();
    expect(requestContext.headers()).toBeUndefined();
  });
});
