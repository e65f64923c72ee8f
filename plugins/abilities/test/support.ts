import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ABILITIES_OPTION } from '../statistics';
import { definePlugin } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';

/** `{base_url}{prefix}/wp-abilities/v1`. */
export const abilitiesBase = (tk: { url: string; kernel: TestKernel['kernel'] }) => `${tk.url}${tk.kernel.config.restPrefix}/wp-abilities/v1`;

/** Rate-limit budgets the tests set per ability through the §6 filters; unset: 1000 runs a minute. */
export const budgets = { max: new Map<string, number>(), window: new Map<string, number>() };

export const budgetFilters = definePlugin({
  name: 'ability-budgets',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_abilities_rate_limit_max', (_max, ability) => budgets.max.get(ability) ?? 1000);
    ctx.hooks.addFilter('svc_abilities_rate_limit_window', (window, ability) => budgets.window.get(ability) ?? window);
  },
});

export async function setAbilitiesOption(tk: TestKernel, on: boolean): Promise<void> {
  const result = await tk.kernel.settings.save({ [ABILITIES_OPTION]: on });
  if (!result.saved) throw new Error(`could not save the option: ${JSON.stringify(result.errors)}`);
}

export { eventually } from '../../../test/helpers/wait';

/** Names of the abilities the REST listing offers to `client`. */
export async function listed(tk: { url: string; kernel: TestKernel['kernel'] }, client: HttpClient): Promise<string[]> {
  const res = await client.get<Array<{ name: string }>>(`${abilitiesBase(tk)}/abilities`);
  if (res.status !== 200) throw new Error(`listing answered ${res.status}`);
  return res.body.map((a) => a.name).sort();
}

/** A user of `role` and an HTTP Basic client with a fresh application password. */
export async function userWithPassword(tk: TestKernel, login: string, role: 'editor' | 'administrator'): Promise<{ client: HttpClient; password: string }> {
  const user = (await tk.kernel.users.findByLogin(login)) ?? (await tk.kernel.users.create({ login, role, password: `${login}-password-long` }));
  const { password } = await tk.kernel.appPasswords.create(user, `test-${Math.random().toString(36).slice(2)}`);
  return { client: tk.client().withBasic(login, password), password };
}

/** An MCP client (the SDK's) on `{base_url}/svc/mcp`, authenticated with an application password. */
export async function mcpClient(url: string, login: string, password: string): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'abilities-test', version: '1.0.0' });
  const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/svc/mcp`), { requestInit: { headers: { authorization } } }));
  return client;
}

/** The `{ code, message, status }` of an MCP error result. */
export function toolError(result: Awaited<ReturnType<Client['callTool']>>): { code: string; message: string; status: number } {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { code: string; message: string; status: number };
}
