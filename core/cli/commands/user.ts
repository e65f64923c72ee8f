import { ASSIGNABLE_ROLES } from '../../auth/roles';
import type { RoleName } from '../../auth/types';
import { UsageError, parseCommandArgs } from '../args';
import { type CoreCommand, withKernel } from '../runtime';

/** `svc user add <login> --email E --role R --password P`. */
export const userCommand: CoreCommand = {
  name: 'user',
  summary: 'create a user account',
  usage: `add <login> --email E --role ${ASSIGNABLE_ROLES.join('|')} --password P`,
  async run(args, rt) {
    const { values, positionals } = parseCommandArgs(args, ['email', 'role', 'password'], { min: 2, max: 2 });
    const [sub, login] = positionals as [string, string];
    if (sub !== 'add') throw new UsageError(`unknown subcommand ${sub}`);
    if (!values.role || !(ASSIGNABLE_ROLES as readonly string[]).includes(values.role)) {
      throw new UsageError(`--role must be one of ${ASSIGNABLE_ROLES.join(', ')}`);
    }
    if (!values.password) throw new UsageError('--password is required');
    const role = values.role as RoleName;
    const password = values.password;
    return withKernel(rt, async (kernel) => {
      const user = await kernel.users.create({ login, email: values.email ?? '', role, password });
      rt.io.out(`created ${user.role} ${user.login} (id ${user.id})`);
      return 0;
    });
  },
};
