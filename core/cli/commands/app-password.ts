import { UsageError, parseCommandArgs } from '../args';
import { type CoreCommand, withKernel } from '../runtime';

/** `svc app-password add <login> [name]`: the secret goes to stdout once, alone, so scripts can capture it. */
export const appPasswordCommand: CoreCommand = {
  name: 'app-password',
  summary: 'create an application password for HTTP Basic on the REST API (printed once)',
  usage: 'add <login> [name]',
  async run(args, rt) {
    const { positionals } = parseCommandArgs(args, [], { min: 2, max: 3 });
    const [sub, login, name = 'cli'] = positionals as [string, string, string?];
    if (sub !== 'add') throw new UsageError(`unknown subcommand ${sub}`);
    return withKernel(rt, async (kernel) => {
      const user = await kernel.users.findByLogin(login);
      if (!user) {
        rt.io.err(`svc: no user named ${login}`);
        return 1;
      }
      const created = await kernel.appPasswords.create(user, name);
      rt.io.err(`application password "${created.name}" for ${user.login} (uuid ${created.uuid}); it is shown once:`);
      rt.io.out(created.password);
      return 0;
    });
  },
};
