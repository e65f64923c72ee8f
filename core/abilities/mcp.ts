import express, { Router } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ANONYMOUS, type Principal } from '../auth/types';
import { toSvcError } from '../http/errors';
import type { SvcLogger } from '../logger';
import type { AbilitiesRegistry, AbilityInfo } from './registry';

/** MCP tool names allow no slash: `svc/sales-data` is offered as `svc-sales-data`. */
export const toolName = (ability: string) => ability.replace('/', '-');

function tool(info: AbilityInfo) {
  const { readonly, destructive, idempotent } = info.meta.annotations;
  return {
    name: toolName(info.name),
    title: info.label,
    description: info.description,
    inputSchema: { type: 'object' as const, ...info.input_schema },
    outputSchema: info.output_schema.type === 'object' ? { type: 'object' as const, ...info.output_schema } : undefined,
    annotations: { title: info.label, readOnlyHint: readonly, destructiveHint: destructive, idempotentHint: idempotent },
  };
}

function serverFor(registry: AbilitiesRegistry, principal: Principal, version: string): Server {
  const server = new Server({ name: 'svc', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.list().map(tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const info = registry.list().find((a) => toolName(a.name) === request.params.name);
    if (!info) {
      return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code: 'ability_not_found', message: `No tool named ${request.params.name}.`, status: 404 }) }] };
    }
    try {
      const output = await registry.run(info.name, request.params.arguments ?? {}, principal);
      return {
        content: [{ type: 'text', text: JSON.stringify(output) }],
        ...(output !== null && typeof output === 'object' && !Array.isArray(output) ? { structuredContent: output as Record<string, unknown> } : {}),
      };
    } catch (err) {
      const e = toSvcError(err);
      return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code: e.code, message: e.message, status: e.status }) }] };
    }
  });
  return server;
}

/**
 * The abilities as MCP tools over Streamable HTTP at `{base_url}/svc/mcp`, in
 * stateless mode (any app node answers any request). Callers authenticate with
 * an application password; each ability still runs its own permission check.
 */
export function createMcpRouter(registry: AbilitiesRegistry, logger: SvcLogger, version: string): Router {
  const router = Router();
  router.use(express.json({ limit: '256kb' }));
  router.all('/', async (req, res, next) => {
    const principal = req.principal ?? ANONYMOUS;
    if (!principal.user) {
      res.setHeader('WWW-Authenticate', 'Basic realm="svc"');
      res.status(401).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Authenticate with an application password (HTTP Basic).' }, id: null });
      return;
    }
    if (req.method !== 'POST') {
      res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
      return;
    }
    const server = serverFor(registry, principal, version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      logger.error({ err }, 'MCP request failed');
      next(err);
    }
  });
  return router;
}
