import type { Site } from '../../sites/types';
import { UsageError, parseCommandArgs } from '../args';
import { type CliRuntime, type CoreCommand, withKernel } from '../runtime';
import { confirmAtTerminal } from '../secret-input';
import { table } from '../table';

type Values = Record<string, string | undefined>;

const describe = (site: Site) => `${site.name} (id ${site.id}${site.domain ? `, ${site.domain}` : ''})`;

/** Removing deletes the site's data, so it asks twice (or `--yes` answers both). */
async function confirmRemoval(rt: CliRuntime, site: Site, yes: boolean): Promise<boolean> {
  if (yes) return true;
  return (
    (await confirmAtTerminal(rt, `Remove the site ${describe(site)}?`)) &&
    (await confirmAtTerminal(rt, `This deletes every hit, goal, report and share link of ${site.name} for good. Delete them?`))
  );
}

const SUBCOMMANDS: Record<string, { args: number; run(values: Values, positionals: string[], rt: CliRuntime): Promise<number> }> = {
  add: {
    args: 2,
    run: (values, [, domain], rt) =>
      withKernel(rt, async (kernel) => {
        const site = await kernel.sites.add({ name: values.name ?? domain!, domain: domain!, timezone: values.timezone });
        rt.io.out(`added the site ${describe(site)}, time zone ${site.timezone}`);
        return 0;
      }),
  },
  list: {
    args: 1,
    run: (_values, _positionals, rt) =>
      withKernel(rt, async (kernel) => {
        const sites = await kernel.sites.list();
        const rows = sites.map((s) => [String(s.id), s.name, s.domain ?? '-', s.aliases.join(',') || '-', s.timezone]);
        for (const line of table([['ID', 'NAME', 'DOMAIN', 'ALIASES', 'TIME ZONE'], ...rows])) rt.io.out(line);
        return 0;
      }),
  },
  remove: {
    args: 2,
    async run(values, [, raw], rt) {
      if (!/^\d+$/.test(raw!)) throw new UsageError('the site id must be a number');
      return withKernel(rt, async (kernel) => {
        const site = await kernel.sites.get(Number(raw));
        if (!site) {
          rt.io.err(`svc: no site with id ${raw}`);
          return 1;
        }
        if (site.id !== 1 && !(await confirmRemoval(rt, site, values.yes === 'true'))) {
          rt.io.err(`svc: the site ${site.name} was not removed (confirm both prompts, or add --yes)`);
          return 1;
        }
        await kernel.sites.remove(site.id);
        rt.io.out(`removed the site ${describe(site)} and its data`);
        return 0;
      });
    },
  },
};

/** `svc site add|list|remove`: the websites this install serves. */
export const siteCommand: CoreCommand = {
  name: 'site',
  summary: 'list, add and remove sites (removing deletes their data)',
  usage: 'add <domain> [--name N] [--timezone TZ] | list | remove <id> [--yes]',
  async run(args, rt) {
    const { values, positionals } = parseCommandArgs(args, ['name', 'timezone'], { min: 1, max: 2 }, ['yes']);
    const sub = SUBCOMMANDS[positionals[0]!];
    if (!sub || !Object.hasOwn(SUBCOMMANDS, positionals[0]!)) throw new UsageError(`unknown subcommand ${positionals[0]}`);
    if (positionals.length < sub.args) throw new UsageError('missing arguments');
    if (positionals.length > sub.args) throw new UsageError(`unexpected argument ${positionals[sub.args]}`);
    return sub.run(values, positionals, rt);
  },
};
