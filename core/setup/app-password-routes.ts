import type { ApplicationPasswords } from '../auth/app-passwords';
import type { SvcUser } from '../auth/types';
import { badRequest, notFound } from '../errors';
import type { RestRouter } from '../http/rest-router';
import { RestResponse } from '../http/rest-types';

const BASE = '/users/me/application-passwords';

/**
 * The signed-in user's application passwords over REST (any signed-in person;
 * session callers send the `svc_nonce` like on every other route). The secret
 * appears once, in the answer to the POST.
 */
export function registerAppPasswordRoutes(rest: RestRouter, appPasswords: ApplicationPasswords): void {
  const me = (user: SvcUser | null) => user as SvcUser;

  rest.add('core', {
    method: 'GET',
    path: BASE,
    capability: 'read',
    handler: ({ principal }) => appPasswords.list(me(principal.user).id),
  });

  rest.add('core', {
    method: 'POST',
    path: BASE,
    capability: 'read',
    body: { limit: '4kb' },
    handler: async ({ principal, body }) => {
      const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { name?: unknown }).name : undefined;
      if (typeof name !== 'string') throw badRequest('name: a string of 1-191 characters is required', 'svc_invalid_app_password_name');
      return new RestResponse(201, await appPasswords.create(me(principal.user), name), { 'Cache-Control': 'no-store' });
    },
  });

  rest.add('core', {
    method: 'DELETE',
    path: `${BASE}/:uuid`,
    capability: 'read',
    handler: async ({ principal, params }) => {
      if (!(await appPasswords.revoke(me(principal.user).id, params.uuid ?? ''))) {
        throw notFound('No application password of yours has that uuid.', 'svc_app_password_not_found');
      }
      return { deleted: true, uuid: params.uuid };
    },
  });
}
