import type { PluginContext } from '../../../core';
import { CAMPAIGN_FIELDS } from './utm';

const LABELS: Record<string, string> = { source: 'Source', medium: 'Medium', campaign: 'Campaign', term: 'Term', content: 'Content' };

/** The campaign fields as engine dimensions (`utm_source` and the like are accepted as aliases). */
export function registerCampaignDimensions(ctx: PluginContext): void {
  ctx.statistics.addJoin({ id: 'campaign', sql: (db) => `LEFT JOIN ${db.quote(db.table('campaigns'))} cmp ON cmp.statistic_id = s.ID` });
  for (const field of CAMPAIGN_FIELDS) {
    ctx.statistics.addDimension({ name: field, label: LABELS[field]!, expr: `COALESCE(cmp.${field}, '')`, joins: ['campaign'], aliases: [`utm_${field}`] });
  }
}
