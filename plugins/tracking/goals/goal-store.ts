import { type Clock, type Database, notFound, type Options } from '../../../core';
import { GOAL_DEFAULTS, type Goal, type GoalInput, parseGoalInput, toGoal } from './goal';

/** Autoloaded counter bumped on every goal change, so each node reloads its active goals within seconds. */
export const GOALS_VERSION_OPTION = 'svc_goals_version';

const isMissingTable = (err: unknown) => /no such table|doesn't exist|ER_NO_SUCH_TABLE/i.test(String((err as Error)?.message ?? err));

/** Goal definitions: CRUD and the cached list of active goals the pipeline matches against. */
export class GoalStore {
  private active: { version: number; goals: Goal[] } | null = null;
  private loading: Promise<Goal[]> | null = null;

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

  /** Active goals from memory without waiting; null when they must be loaded first (`activeGoals()`). */
  activeNow(): Goal[] | null {
    const snapshot = this.options.snapshot();
    if (!snapshot || !this.active) return null;
    return this.active.version === (snapshot.values.get(GOALS_VERSION_OPTION) ?? 0) ? this.active.goals : null;
  }

  /** Active goals from memory; an empty list when the goals table does not exist (§4.1). */
  async activeGoals(): Promise<Goal[]> {
    const version = await this.options.get<number>(GOALS_VERSION_OPTION, 0);
    if (this.active && this.active.version === version) return this.active.goals;
    this.loading ??= this.loadActive(version).finally(() => (this.loading = null));
    return this.loading;
  }

  async list(): Promise<Goal[]> {
    const rows = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t} ORDER BY ID`);
    return rows.map(toGoal);
  }

  async get(id: number): Promise<Goal> {
    const [row] = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t} WHERE ID = ?`, [id]);
    if (!row) throw notFound(`Goal ${id} does not exist.`, 'svc_goal_not_found');
    return toGoal(row);
  }

  async create(body: unknown): Promise<Goal> {
    const input = parseGoalInput(body, GOAL_DEFAULTS, { creating: true });
    const row = { ...input, date_created: this.clock.unix() };
    const cols = Object.keys(row);
    const { id } = await this.db.insert(
      `INSERT INTO ${this.t} (${cols.map(this.db.quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      Object.values(row),
    );
    await this.changed();
    return { ID: id, ...row };
  }

  async update(id: number, body: unknown): Promise<Goal> {
    const current = await this.get(id);
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

  async delete(id: number): Promise<void> {
    await this.get(id);
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

  private async loadActive(version: number): Promise<Goal[]> {
    let goals: Goal[];
    try {
      const rows = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t} WHERE status = ? ORDER BY ID`, ['active']);
      goals = rows.map(toGoal);
    } catch (err) {
      if (!isMissingTable(err)) throw err;
      goals = [];
    }
    this.active = { version, goals };
    return goals;
  }
}
