import express, { Router } from 'express';
import { ANONYMOUS } from '../auth/types';
import type { SvcLogger } from '../logger';
import type { AbilitiesRegistry } from './registry';

/** MCP tool names allow no slash: `svc/sales-data` is offered as `svc-sales-data`. */
export const toolName = (ability: string) => ability.replace('/', '-');

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
    try {
      // The SDK (and zod) cost memory in every process; only one that serves MCP loads them.
      const { serveMcp } = await import('./mcp-server');
      await serveMcp(registry, principal, version, req, res);
    } catch (err) {
      logger.error({ err }, 'MCP request failed');
      next(err);
    }
  });
  return router;
}
