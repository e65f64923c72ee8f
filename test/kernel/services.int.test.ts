import { definePlugin } from '../../core/plugins/manifest';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

declare module '../../core/plugins/services' {
  interface SvcServices {
    greeter: { greet(name: string): string };
    absent: { never(): void };
  }
}

const provider = definePlugin({
  name: 'provider',
  tier: 'free',
  register(ctx) {
    ctx.services.provide('greeter', { greet: (name) => `hello ${name}` });
  },
});

const consumer = definePlugin({
  name: 'consumer',
  tier: 'free',
  requires: ['provider'],
  register(ctx) {
    ctx.rest.route({
      method: 'GET',
      path: '/greet',
      capability: null,
      handler: () => ({ text: ctx.services.get('greeter')?.greet('world') ?? null }),
    });
  },
});

const broken = definePlugin({
  name: 'broken-provider',
  tier: 'free',
  register(ctx) {
    ctx.services.provide('greeter', { greet: () => 'never' });
    throw new Error('register failed');
  },
});

const needy = definePlugin({
  name: 'needy',
  tier: 'free',
  register(ctx) {
    ctx.services.require('absent').never();
  },
});

describe('services between plugins', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [broken, provider, consumer, needy] });
  });
  afterAll(() => tk.close());

  it('hands a provided service to another plugin, and drops those of a plugin that failed', async () => {
    const res = await tk.client().get(`${tk.api}/greet`);
    expect(res.body).toEqual({ text: 'hello world' });
    expect(tk.kernel.plugins.find((p) => p.name === 'broken-provider')).toMatchObject({ state: 'failed', code: 'SVC_ERR_PLUGIN_REGISTER' });
  });

  it('fails a plugin that requires a service nobody provides, with a code naming why', () => {
    expect(tk.kernel.plugins.find((p) => p.name === 'needy')).toMatchObject({ state: 'failed', code: 'SVC_ERR_SERVICE_MISSING' });
  });
});
