/**
 * How the story dashboard shows each report block: its heading and the data
 * route it reads. Which routes a report session may call is decided on the
 * server by the reports plugin's internal block map; a block missing here is
 * shown with its texts only.
 */
export interface StoryColumn {
  key: string;
  label: string;
  format?: 'number' | 'percent' | 'duration';
}

export type StoryBlock =
  | { title: string; kind: 'compare'; path: string; chart: string }
  | { title: string; kind: 'table'; path: string; dimension: string; dimensionLabel: string; columns: StoryColumn[]; params?: Record<string, string> }
  | { title: string; kind: 'sales' | 'top'; path: string };

const table = (
  title: string,
  path: string,
  dimension: string,
  dimensionLabel: string,
  columns: StoryColumn[],
  params?: Record<string, string>,
): StoryBlock => ({ title, kind: 'table', path, dimension, dimensionLabel, columns, params });

const views: StoryColumn = { key: 'pageviews', label: 'Pageviews' };
const sessions: StoryColumn = { key: 'sessions', label: 'Sessions' };

export const STORY_BLOCKS: Readonly<Record<string, StoryBlock>> = Object.freeze({
  compare: { title: 'Summary', kind: 'compare', path: '/data/compare', chart: '/data/insights' },
  pages: table('Most visited pages', '/data/datatable/pages', 'page_url', 'Page', [views, sessions]),
  referrers: table('Top referrers', '/data/datatable/referrers', 'referrer', 'Referrer', [sessions, views]),
  countries: table('Top countries', '/data/datatable/countries', 'country', 'Country', [sessions, views]),
  campaigns: table('Top campaigns', '/data/datatable/campaigns', 'campaign', 'Campaign', [sessions, views], { group_by: 'campaign', metrics: 'sessions,pageviews' }),
  devices: table('Devices', '/data/devices', 'device', 'Device', [sessions, { key: 'share', label: 'Share', format: 'percent' }]),
  goals: table('Goals', '/data/goals', 'title', 'Goal', [
    { key: 'conversions', label: 'Conversions' },
    { key: 'conversion_rate', label: 'Rate', format: 'percent' },
  ]),
  'not-found-pages': table('Pages not found', '/data/datatable/not-found-pages', 'page_url', 'Page', [{ key: 'pageviews', label: 'Visits' }]),
  sales: { title: 'Sales', kind: 'sales', path: '/data/ecommerce/sales' },
  'top-performers': { title: 'Top performers', kind: 'top', path: '/data/ecommerce/top-performers' },
});

export function storyBlock(id: string): StoryBlock | null {
  return Object.prototype.hasOwnProperty.call(STORY_BLOCKS, id) ? STORY_BLOCKS[id]! : null;
}
