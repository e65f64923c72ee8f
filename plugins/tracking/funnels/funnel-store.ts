import { type Clock, type Database, FieldProblems, notFound } from '../../../core';
import { type Funnel, type FunnelInput, goalIds, parseFunnelInput, toFunnel } from './funnel';

/** Funnel definitions of each site; a funnel of another site does not exist for the caller. */
export class FunnelStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private t(name: string): string {
    return this.db.quote(this.db.table(name));
  }

  async list(siteId: number): Promise<Funnel[]> {
    const rows = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t('funnels')} WHERE site_id = ? ORDER BY ID`, [siteId]);
    return rows.map(toFunnel);
  }

  async get(siteId: number, id: number): Promise<Funnel> {
    const [row] = await this.db.select<Record<string, unknown>>(`SELECT * FROM ${this.t('funnels')} WHERE ID = ? AND site_id = ?`, [id, siteId]);
    if (!row) throw notFound(`Funnel ${id} does not exist.`, 'svc_funnel_not_found');
    return toFunnel(row);
  }

  async create(siteId: number, body: unknown): Promise<Funnel> {
    const input = await this.parse(siteId, body);
    const now = this.clock.unix();
    const { id } = await this.db.insert(
      `INSERT INTO ${this.t('funnels')} (site_id, name, steps, date_created, date_updated) VALUES (?, ?, ?, ?, ?)`,
      [siteId, input.name, JSON.stringify(input.steps), now, now],
    );
    return { ID: id, ...input, date_created: now, date_updated: now };
  }

  async update(siteId: number, id: number, body: unknown): Promise<Funnel> {
    const current = await this.get(siteId, id);
    const input = await this.parse(siteId, body);
    const now = this.clock.unix();
    await this.db.execute(`UPDATE ${this.t('funnels')} SET name = ?, steps = ?, date_updated = ? WHERE ID = ?`, [input.name, JSON.stringify(input.steps), now, id]);
    return { ...current, ...input, date_updated: now };
  }

  async delete(siteId: number, id: number): Promise<void> {
    await this.get(siteId, id);
    await this.db.execute(`DELETE FROM ${this.t('funnels')} WHERE ID = ?`, [id]);
  }

  /** The input, each goal step naming a goal of this site. */
  private async parse(siteId: number, body: unknown): Promise<FunnelInput> {
    const input = parseFunnelInput(body);
    const ids = goalIds(input.steps);
    if (ids.length === 0) return input;
    const rows = await this.db.select<{ ID: number }>(`SELECT ID FROM ${this.t('goals')} WHERE site_id = ? AND ID IN (${ids.map(() => '?').join(', ')})`, [siteId, ...ids]);
    const known = new Set(rows.map((r) => Number(r.ID)));
    const problems = new FieldProblems();
    input.steps.forEach((s, i) => {
      if ('goal' in s && !known.has(s.goal)) problems.add(`steps.${i}.goal`, 'must be a goal of this site');
    });
    problems.throwIfAny();
    return input;
  }
}
