import net from 'node:net';
import { definePlugin } from '../../core/plugins/manifest';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

/** How long a test waits for the server to close a connection before it calls that a failure. */
const BOUND = 8_000;

let releaseSlow: () => void = () => undefined;
const slow = definePlugin({
  name: 'slow',
  tier: 'free',
  register(ctx) {
    ctx.rest.route({ method: 'GET', path: '/slow', capability: null, handler: () => new Promise((resolve) => (releaseSlow = () => resolve({ done: true }))) });
  },
});

interface Conn {
  socket: net.Socket;
  /** Resolves to true when the server closes the connection, false when BOUND passes first. */
  closed: Promise<boolean>;
  received(): string;
}

function connect(port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    const closed = new Promise<boolean>((done) => {
      const bound = setTimeout(() => done(false), BOUND);
      socket.once('close', () => {
        clearTimeout(bound);
        done(true);
      });
    });
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed, received: () => data }));
    socket.once('error', reject);
  });
}

/** Resolves once `conn` has received an answer containing `text`. */
async function answered(conn: Conn, text: string): Promise<void> {
  for (const until = Date.now() + BOUND; !conn.received().includes(text); ) {
    if (Date.now() > until) throw new Error(`no answer with ${text}; got ${conn.received()}`);
    await new Promise((r) => conn.socket.once('data', r));
  }
}

/** README, "Limits": a connection must send complete headers within 10 s, a body within 60 s; idle kept-alive connections close after 65 s. Short values here. */
describe('idle and slow connections', () => {
  let tk: TestKernel;
  let port: number;
  const request = (path: string) => `GET ${tk.kernel.config.restPrefix}/svc/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [slow], httpTimeouts: { headers: 400, request: 800, keepAlive: 400 } });
    port = Number(new URL(tk.url).port);
  });
  afterAll(() => tk?.close());

  it('closes a connection that sends nothing, also while another is kept alive', async () => {
    const kept = await connect(port);
    kept.socket.write(request('/nonce'));
    await answered(kept, 'HTTP/1.1 ');
    const silent = await connect(port);
    expect(await silent.closed).toBe(true);
    expect(await kept.closed).toBe(true);
  });

  it('closes a connection whose headers dribble in', async () => {
    const conn = await connect(port);
    const text = request('/nonce');
    let i = 0;
    const drip = setInterval(() => i < text.length - 2 && !conn.socket.destroyed && conn.socket.write(text[i++]!), 50);
    try {
      expect(await conn.closed).toBe(true);
      expect(conn.received()).not.toContain('200 OK');
    } finally {
      clearInterval(drip);
    }
  });

  it('closes a connection whose body never completes', async () => {
    const conn = await connect(port);
    conn.socket.write(`POST ${tk.kernel.config.restPrefix}/svc/v1/nonce HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
    expect(await conn.closed).toBe(true);
  });

  it('serves several requests on a kept-alive connection, and closes it once idle', async () => {
    const conn = await connect(port);
    conn.socket.write(request('/nonce'));
    await answered(conn, 'HTTP/1.1 ');
    conn.socket.write(request('/no-such-route'));
    await answered(conn, 'HTTP/1.1 404');
    expect(await conn.closed).toBe(true);
  });

  it('never cuts an answer that takes longer than the timeouts', async () => {
    const working = await connect(port);
    working.socket.write(request('/slow'));
    // Connections opened one after another time out in turn; after three, the slow one has outlived every deadline.
    for (let i = 0; i < 3; i++) expect(await (await connect(port)).closed).toBe(true);
    expect(working.socket.destroyed).toBe(false);
    releaseSlow();
    await answered(working, '"done":true');
    expect(working.received()).toMatch(/^HTTP\/1.1 200/);
  });
});
