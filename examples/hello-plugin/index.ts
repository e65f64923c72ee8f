import path from 'node:path';
import { definePlugin, UsageError } from '../../core';

declare module '../../hooks' {
  interface SvcFilters {
    /** The greeting `GET {api_base}/hello` and `svc hello` answer; other plugins may change it. Returns the greeting. */
    hello_greeting: [greeting: string, name: string];
  }
}

const VIEW = path.join(__dirname, 'views', 'hello.ejs');

/** Trims and shortens a name from a request or the command line; empty when none was given. */
const cleanName = (raw: unknown) => (typeof raw === 'string' ? raw.trim().slice(0, 60) : '');

/**
 * An example third-party plugin: it declares its own filter and adds a menu
 * item, a REST route, an admin page and a CLI command.
 * Load it with `SVC_PLUGIN_PATHS=dist/examples/hello-plugin`.
 */
export default definePlugin({
  name: 'hello',
  tier: 'free',
  register(ctx) {
    ctx.hooks.declareFilter('hello_greeting', ['greeting', 'name']);
    const greet = (name: string) => ctx.hooks.applyFilters('hello_greeting', `Hello, ${name}!`, name);

    ctx.admin.menuItem({ id: 'hello', title: 'Hello', shareable: false, path: '/svc-admin/hello', capability: 'view_svc_statistics', order: 70 });

    ctx.rest.route({
      method: 'GET',
      path: '/hello',
      capability: 'view_svc_statistics',
      handler: async ({ query, principal }) => ({
        greeting: await greet(cleanName(query.name) || principal.user?.displayName || 'there'),
      }),
    });

    ctx.admin.page({
      path: '/hello',
      capability: 'view_svc_statistics',
      get: async (req) => ({
        view: VIEW,
        title: 'Hello',
        data: { greeting: await greet(req.principal.user?.displayName ?? 'there') },
      }),
    });

    ctx.cli.command({
      name: 'hello',
      summary: 'print a greeting (example plugin)',
      usage: '[name]',
      async run(args, io) {
        if (args.length > 1) throw new UsageError('give at most one name');
        io.out(await greet(cleanName(args[0]) || 'world'));
        return 0;
      },
    });
  },
});
