import { Router } from 'express';
import { badRequest, notFound } from '../errors';
import { type RestDeps, RestRouter } from '../http/rest-router';
import type { RestRequest } from '../http/rest-types';
import type { AbilitiesRegistry } from './registry';

const abilityName = (req: RestRequest) => `${req.params.namespace}/${req.params.name}`;

/** `input` of a GET run: a JSON string or query-string fields. */
function queryInput(raw: unknown): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw badRequest('input: not valid JSON', 'ability_invalid_input');
  }
}

/**
 * The abilities REST namespace (`{base_url}{SVC_REST_PREFIX}/wp-abilities/v1`):
 * listing and describing need a signed-in person (`read`); running is decided
 * by each ability's permission check, so it can answer its own error codes.
 */
export function createAbilitiesRouter(registry: AbilitiesRegistry, deps: RestDeps): Router {
  const rest = new RestRouter(deps);
  const describe = (req: RestRequest) => {
    const info = registry.get(abilityName(req));
    if (!info) throw notFound(`No ability named ${abilityName(req)}.`, 'ability_not_found');
    return info;
  };
  rest.add('core', {
    method: 'GET',
    path: '/categories',
    capability: 'read',
    handler: () => registry.listCategories(),
  });
  rest.add('core', {
    method: 'GET',
    path: '/abilities',
    capability: 'read',
    handler: ({ query }) => registry.list(typeof query.category === 'string' ? query.category : undefined),
  });
  rest.add('core', { method: 'GET', path: '/abilities/:namespace/:name', capability: 'read', handler: describe });
  rest.add('core', {
    method: 'GET',
    path: '/abilities/:namespace/:name/run',
    capability: null,
    nonce: 'session',
    handler: (req) => {
      if (!describe(req).meta.annotations.readonly) {
        throw badRequest('This ability changes data: run it with POST.', 'ability_invalid_method');
      }
      return registry.run(abilityName(req), queryInput(req.query.input), req.principal, { coerce: true });
    },
  });
  rest.add('core', {
    method: 'POST',
    path: '/abilities/:namespace/:name/run',
    capability: null,
    nonce: 'session',
    handler: (req) => {
      describe(req);
      const body = (req.body ?? {}) as { input?: unknown };
      if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body must be { "input": ... }.', 'ability_invalid_input');
      return registry.run(abilityName(req), body.input, req.principal);
    },
  });
  return rest.router;
}
