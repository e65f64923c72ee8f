import { connectDatabase } from '../../db/database';
import { runMigrations } from '../../db/migrator';
import { migratePlugins, selectPlugins } from '../../plugins/loader';
import { coreMigrations } from '../../migrations';
import { parseCommandArgs } from '../args';
import type { CoreCommand } from '../runtime';

/** `svc migrate`: the schema steps of the kernel and of every plugin the license and SVC_PLUGINS allow. */
export const migrateCommand: CoreCommand = {
  name: 'migrate',
  summary: 'apply pending core and plugin migrations (safe to repeat)',
  usage: '',
  async run(args, rt) {
    parseCommandArgs(args, [], { min: 0, max: 0 });
    const db = await connectDatabase(rt.config.databaseUrl, rt.config.tablePrefix, rt.logger);
    try {
      const selection = selectPlugins(rt.config, []);
      for (const s of selection.statuses.filter((x) => x.state === 'failed')) rt.io.err(`plugin ${s.name} not loaded: ${s.reason}`);
      const applied = [
        ...(await runMigrations(db, 'core', coreMigrations, rt.logger)),
        ...(await migratePlugins(selection, db, rt.logger)),
      ];
      for (const name of applied) rt.io.out(`applied ${name}`);
      rt.io.out(applied.length ? `${applied.length} migration(s) applied` : 'the database is up to date');
      return 0;
    } finally {
      await db.close();
    }
  },
};
