import type { Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/types';
import { toSvcError } from '../http/errors';
import { toolName } from './mcp';
import type { AbilitiesRegistry, AbilityInfo } from './registry';

// The MCP SDK's part of `/svc/mcp`, loaded on the first request (see mcp.ts).

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

/** Answers one MCP request (stateless: a server and transport per request). */
export async function serveMcp(registry: AbilitiesRegistry, principal: Principal, version: string, req: Request, res: Response): Promise<void> {
  const server = serverFor(registry, principal, version);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
