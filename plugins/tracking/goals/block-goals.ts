import { type Clock, type Database, object, optionalFlag, optionalObject, refuse, text, wholeNumber } from '../../../core';
import { cleanText } from '../collect/text';
import { type Goal, GOAL_DEFAULTS } from './goal';
import type { GoalStore } from './goal-store';

/** Block goals never saved with a page are removed after this long. */
export const UNSAVED_BLOCK_GOAL_SECONDS = 24 * 60 * 60;

const UID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export interface BlockGoalAttributes {
  svcGoalActive?: unknown;
  svcGoalUid?: unknown;
}

/**
 * Adds `data-svc-goal="<uid>"` to the first opening tag of a block's HTML when
 * the block is an active goal and the attribute is not there yet (§8.1).
 */
export function renderBlockGoal(html: string, attributes: BlockGoalAttributes): string {
  const uid = attributes.svcGoalUid;
  if (attributes.svcGoalActive !== true || typeof uid !== 'string' || !UID_RE.test(uid)) return html;
  const open = /<([a-zA-Z][\w:-]*)(\s[^>]*)?(\/?)>/.exec(html);
  if (!open || /\sdata-svc-goal\s*=/.test(open[2] ?? '')) return html;
  const tag = `<${open[1]}${open[2] ?? ''} data-svc-goal="${uid}"${open[3]}>`;
  return html.slice(0, open.index) + tag + html.slice(open.index + open[0].length);
}

export interface PostBlocks {
  page_id: number;
  permalink: string;
  blocks: Array<{ uid: string; active: boolean; title: string }>;
}

const PERMALINK = { test: /^(\/\S*|https?:\/\/\S+)$/, problem: 'must be a path or URL' };
const UID = { test: UID_RE, problem: 'may hold letters, digits, _ and - only (at most 64)' };

/** Validates the body of a block-goal sync. */
export function parsePostBlocks(body: unknown): PostBlocks {
  const b = optionalObject(body, 'body');
  const pageId = wholeNumber(b.page_id, 'page_id', 1);
  const permalink = text(b.permalink, 'permalink', { max: 255, required: true, clean: (raw) => cleanText(raw, 256), pattern: PERMALINK });
  if (!Array.isArray(b.blocks) || b.blocks.length > 500) throw refuse('blocks', 'must be a list of at most 500 blocks');
  const blocks = b.blocks.map((raw, i) => {
    const block = object(raw, `blocks[${i}]`);
    const uid = text(block.uid, `blocks[${i}].uid`, { max: 64, trim: false, required: true, pattern: UID });
    return { uid, active: optionalFlag(block.active, `blocks[${i}].active`), title: cleanText(block.title, 255) };
  });
  return { page_id: pageId, permalink, blocks };
}

/**
 * Block goals (§8.1): stored with block_goal = 1 and the page id, their URL
 * kept equal to the page's permalink; goals of blocks gone from the page are
 * deactivated when they have conversions and deleted otherwise; goals never
 * saved with a page are cleaned up daily.
 */
export class BlockGoals {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly goals: GoalStore,
  ) {}

  private t(name: string): string {
    return this.db.quote(this.db.table(name));
  }

  /** Brings the site's block goals of one post in line with the blocks it was saved with. */
  async sync(siteId: number, post: PostBlocks): Promise<Goal[]> {
    const existing = (await this.goals.list(siteId)).filter((g) => g.block_goal === 1);
    const byUid = new Map(existing.map((g) => [g.block_uid, g]));
    const wanted = new Set(post.blocks.map((b) => b.uid));
    for (const block of post.blocks) {
      const fields = { status: block.active ? 'active' : 'inactive', page_id: post.page_id, url: post.permalink } as const;
      const goal = byUid.get(block.uid);
      if (goal) await this.goals.write(goal.ID, { ...fields, ...(block.title ? { title: block.title } : {}) });
      else await this.goals.create(siteId, { ...GOAL_DEFAULTS, ...fields, title: block.title || 'Block goal', type: 'clicks', selector: `[data-svc-goal="${block.uid}"]`, block_goal: 1, block_uid: block.uid });
    }
    for (const goal of existing) {
      if (goal.page_id !== post.page_id || wanted.has(goal.block_uid)) continue;
      if (await this.hasConversions(goal.ID)) await this.goals.write(goal.ID, { status: 'inactive', url: post.permalink });
      else await this.goals.delete(siteId, goal.ID);
    }
    return (await this.goals.list(siteId)).filter((g) => g.block_goal === 1 && g.page_id === post.page_id);
  }

  /** Removes block goals that were never saved with a page and have no conversions. */
  async cleanUp(): Promise<number> {
    const removed = await this.db.execute(
      `DELETE FROM ${this.t('goals')} WHERE block_goal = 1 AND page_id = 0 AND date_created < ?
        AND NOT EXISTS (SELECT 1 FROM ${this.t('goal_statistics')} gs WHERE gs.goal_id = ${this.t('goals')}.ID)`,
      [this.clock.unix() - UNSAVED_BLOCK_GOAL_SECONDS],
    );
    if (removed > 0) await this.goals.changed();
    return removed;
  }

  private async hasConversions(goalId: number): Promise<boolean> {
    const rows = await this.db.select(`SELECT 1 AS x FROM ${this.t('goal_statistics')} WHERE goal_id = ? LIMIT 1`, [goalId]);
    return rows.length > 0;
  }
}
