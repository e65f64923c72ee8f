import { type Clock, type Database, notFound, type Options } from '../../../core';
import { GOAL_DEFAULTS, type Goal, type GoalInput, parseGoalInput, toGoal } from './goal';

/** Autoloaded counter bumped on every goal change, so each node reloads its active goals within seconds. */
export const GOALS_VERSION_OPTION = 'svc_goals_version';

const isMissingTable = (err: unknown) => /no such table|doesn't exist|ER_NO_SUCH_TABLE/i.test(String((err as Error)?.message ?? err));

const NONE: readonly Goal[] = Object.freeze([]);

/** Goal definitions of each site: CRUD and the cached lists of active goals the pipeline matches against. */
export class GoalStore {
  private active: { version: number; bySite: Map<number, Goal[]> } | null = null;
  private loading: Promise<Map<number, Goal[]>> | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: Options,
    private readonly clock: Clock,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('goals'));
  }

  async init(): Promise<void> {
    await this.options.add(GOALS_VERSION_OPTION, 1, { autoload: true });
  }

  /** The site's active goals from memory without waiting; null when they must be loaded first (`activeGoals()`). */
  activeNow(siteId: number): readonly Goal[] | null {
    const snapshot = this.options.snapshot();
    if (!snapshot || !this.active) return null;
    return this.active.version === (snapshot.values.get(GOALS_VERSION_OPTION) ?? 0) ? (this.active.bySite.get(siteId) ?? NONE) : null;
  }

  /** The site's active goals from memory; an empty list when the goals table does not exist (§4.1). */
  async activeGoals(siteId: number): Promise<readonly Goal[]> {
    const version = await this.options.get<number>(GOALS_VERSION_OPTION, 0);
    if (this.active && this.active.version === version) return this.active.bySite.get(siteId) ?? NONE;
    this.loading ??= this.loadActive(version).finally(() => (this.loading = null));
    return (await this.loading).get(siteId) ?? NONE;
  }

  async list(siteId: number): Promise<Goal[]> {
    const rows = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t} WHERE site_id = ? ORDER BY ID`, [siteId]);
    return rows.map(toGoal);
  }

  /** A goal of the site; a goal of another site does not exist here. */
  async get(siteId: number, id: number): Promise<Goal> {
    const [row] = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t} WHERE ID = ? AND site_id = ?`, [id, siteId]);
    if (!row) throw notFound(`Goal ${id} does not exist.`, 'svc_goal_not_found');
    return toGoal(row);
  }

  async create(siteId: number, body: unknown): Promise<Goal> {
    const input = parseGoalInput(body, GOAL_DEFAULTS, { creating: true });
    const row = { ...input, date_created: this.clock.unix() };
    const cols = Object.keys(row);
    const { id } = await this.db.insert(
      `INSERT INTO ${this.t} (site_id, ${cols.map(this.db.quote).join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`,
      [siteId, ...Object.values(row)],
    );
    await this.changed();
    return { ID: id, ...row };
  }

  async update(siteId: number, id: number, body: unknown): Promise<Goal> {
    const current = await this.get(siteId, id);
    const next = parseGoalInput(body, current);
    await this.write(id, next);
    return { ...current, ...next };
  }

  /** Writes fields of an existing goal (no validation: callers pass parsed values). */
  async write(id: number, fields: Partial<GoalInput>): Promise<void> {
    const cols = Object.keys(fields);
    if (cols.length === 0) return;
    await this.db.execute(`UPDATE ${this.t} SET ${cols.map((c) => `${this.db.quote(c)} = ?`).join(', ')} WHERE ID = ?`, [
      ...Object.values(fields),
      id,
    ]);
    await this.changed();
  }

  async delete(siteId: number, id: number): Promise<void> {
    await this.get(siteId, id);
    await this.db.transaction(async (t) => {
      await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('goal_statistics'))} WHERE goal_id = ?`, [id], t);
      await this.db.execute(`DELETE FROM ${this.t} WHERE ID = ?`, [id], t);
    });
    await this.changed();
  }

  /** Tells every node to reload its active goals. */
  async changed(): Promise<void> {
    const version = await this.options.get<number>(GOALS_VERSION_OPTION, 0);
    await this.options.set(GOALS_VERSION_OPTION, version + 1, { autoload: true });
  }

  private async loadActive(version: number): Promise<Map<number, Goal[]>> {
    const bySite = new Map<number, Goal[]>();
    try {
      const rows = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t} WHERE status = ? ORDER BY ID`, ['active']);
      for (const row of rows) {
        const siteId = Number(row.site_id);
        const list = bySite.get(siteId);
        if (list) list.push(toGoal(row));
        else bySite.set(siteId, [toGoal(row)]);
      }
    } catch (err) {
      if (!isMissingTable(err)) throw err;
    }
    this.active = { version, bySite };
    return bySite;
  }
}
