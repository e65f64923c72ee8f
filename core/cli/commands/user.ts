import { ASSIGNABLE_ROLES, isRole } from '../../auth/roles';
import type { RoleName, SvcUser } from '../../auth/types';
import type { Kernel } from '../../kernel';
import { UsageError, parseCommandArgs } from '../args';
import { type CliRuntime, type CoreCommand, withKernel } from '../runtime';
import { confirmAtTerminal, readNewSecret } from '../secret-input';
import { table } from '../table';

const ROLES = ASSIGNABLE_ROLES.join('|');

function role(raw: string | undefined, option: string): RoleName {
  if (!raw || !isRole(raw) || !(ASSIGNABLE_ROLES as readonly string[]).includes(raw)) throw new UsageError(`${option} must be one of ${ASSIGNABLE_ROLES.join(', ')}`);
  return raw;
}

/** The person named `login`, or a one-line refusal (exit 1). */
async function person(kernel: Kernel, rt: CliRuntime, login: string): Promise<SvcUser | null> {
  const user = await kernel.users.findByLogin(login);
  if (!user || user.system) rt.io.err(`svc: no user named ${login}`);
  return user && !user.system ? user : null;
}

const SUBCOMMANDS: Record<string, { args: { min: number; max: number }; run(values: Record<string, string | undefined>, positionals: string[], rt: CliRuntime): Promise<number> }> = {
  add: {
    args: { min: 2, max: 2 },
    async run(values, [, login], rt) {
      const chosen = role(values.role, '--role');
      if (!values.password) throw new UsageError('--password is required');
      return withKernel(rt, async (kernel) => {
        const user = await kernel.users.create({ login: login!, email: values.email ?? '', role: chosen, password: values.password! });
        rt.io.out(`created ${user.role} ${user.login} (id ${user.id})`);
        return 0;
      });
    },
  },
  list: {
    args: { min: 1, max: 1 },
    run: (_values, _positionals, rt) =>
      withKernel(rt, async (kernel) => {
        const people = await kernel.users.list();
        for (const line of table([['LOGIN', 'ROLE', 'E-MAIL'], ...people.map((u) => [u.login, u.role, u.email || '-'])])) rt.io.out(line);
        return 0;
      }),
  },
  password: {
    args: { min: 2, max: 2 },
    async run(_values, [, login], rt) {
      return withKernel(rt, async (kernel) => {
        const user = await person(kernel, rt, login!);
        if (!user) return 1;
        await kernel.accounts.setPassword(user, await readNewSecret(rt, 'password'));
        rt.io.out(`changed the password of ${user.login}; their sign-ins were ended`);
        return 0;
      });
    },
  },
  role: {
    args: { min: 3, max: 3 },
    async run(_values, [, login, raw], rt) {
      const chosen = role(raw, 'the role');
      return withKernel(rt, async (kernel) => {
        const user = await person(kernel, rt, login!);
        if (!user) return 1;
        await kernel.users.setRole(user.id, chosen);
        rt.io.out(`${user.login} is now ${chosen}`);
        return 0;
      });
    },
  },
  remove: {
    args: { min: 2, max: 2 },
    async run(values, [, login], rt) {
      return withKernel(rt, async (kernel) => {
        const user = await person(kernel, rt, login!);
        if (!user) return 1;
        if (values.yes !== 'true' && !(await confirmAtTerminal(rt, `Remove ${user.login} with their sign-ins and application passwords?`))) {
          rt.io.err(`svc: ${user.login} was not removed (confirm at the prompt, or add --yes)`);
          return 1;
        }
        await kernel.accounts.remove(user.id);
        rt.io.out(`removed ${user.login}`);
        return 0;
      });
    },
  },
};

/** `svc user add|list|password|role|remove`: the people who can sign in. */
export const userCommand: CoreCommand = {
  name: 'user',
  summary: 'list, create, change and remove user accounts',
  usage: `add <login> --email E --role ${ROLES} --password P | list | password <login> | role <login> ${ROLES} | remove <login> [--yes]`,
  async run(args, rt) {
    const { values, positionals } = parseCommandArgs(args, ['email', 'role', 'password'], { min: 1, max: 3 }, ['yes']);
    const sub = SUBCOMMANDS[positionals[0]!];
    if (!sub || !Object.hasOwn(SUBCOMMANDS, positionals[0]!)) throw new UsageError(`unknown subcommand ${positionals[0]}`);
    if (positionals.length < sub.args.min) throw new UsageError('missing arguments');
    if (positionals.length > sub.args.max) throw new UsageError(`unexpected argument ${positionals[sub.args.max]}`);
    return sub.run(values, positionals, rt);
  },
};
