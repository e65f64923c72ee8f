import { clear, countryName, DataPage, el, formatValue, renderTable, type Row, type Section, type TableSpec } from '../../../core/assets/client';
import { renderWorldMap } from './world-map';

const CHANNEL_LABELS: Record<string, string> = { search: 'Search', social: 'Social', email: 'E-mail', direct: 'Direct', other: 'Other sites' };

/** A datatable section; rows filter the page by `spec.dimension` unless `filterable` is false. */
function table(key: string, spec: TableSpec, filterable = true): Section<Row[]> {
  return {
    selector: `[data-table="${key}"]`,
    fetch: (page) => page.api.get<Row[]>(`/data/datatable/${key}`, page.params({ limit: 10 })),
    render: (target, rows, page) => renderTable(target, spec, rows, filterable ? (dimension, value) => page.setFilter(dimension, value) : null),
  };
}

const root = document.getElementById('svc-sources');
if (root) {
  const sections: Section[] = [
    {
      selector: '[data-channels]',
      fetch: (page) => page.api.get<Row[]>('/data/channels', page.params()),
      render: (target, data) =>
        clear(
          target,
          ...(data as Row[]).map((c) =>
            el('div', { class: 'metric-card', 'data-channel': String(c.channel) },
              el('span', { class: 'metric-label' }, CHANNEL_LABELS[String(c.channel)] ?? String(c.channel)),
              el('strong', { class: 'metric-value' }, formatValue(c.sessions)),
              el('span', { class: 'metric-previous' }, `${formatValue(c.share, 'percent')} of sessions`)),
          ),
        ),
    },
    {
      selector: '[data-map]',
      fetch: (page) => page.api.get<Row[]>('/data/world-map', page.params()),
      render: (target, rows, page) => renderWorldMap(target, rows as Row[], (country) => page.setFilter('country', country)),
    },
    table('referrer-domains', { title: 'Site', dimension: 'domain', empty: 'No visits came from other sites in this period.', label: (v) => v || 'Direct / none',
      columns: [{ key: 'channel', label: 'Channel' }, { key: 'sessions', label: 'Sessions' }, { key: 'bounce_rate', label: 'Bounce', format: 'percent' }] }, false),
    table('campaigns', { title: 'Campaign', dimension: 'campaign', label: (v) => v || '(no campaign name)',
      empty: 'No campaign visits in this period. Tag your links with utm_source, utm_medium and utm_campaign to see them here.',
      columns: [{ key: 'source', label: 'Source' }, { key: 'medium', label: 'Medium' }, { key: 'sessions', label: 'Sessions' }, { key: 'conversions', label: 'Conv.' }] }),
    table('regions', { title: 'Region', dimension: 'region', label: (v) => v || '(unknown)', empty: 'No regions recorded in this period; they need a city-level location database.',
      columns: [{ key: 'country', label: 'Country' }, { key: 'sessions', label: 'Sessions' }] }),
    table('cities', { title: 'City', dimension: 'city', label: (v) => v || '(unknown)', empty: 'No cities recorded in this period; they need a city-level location database.',
      columns: [{ key: 'country', label: 'Country' }, { key: 'sessions', label: 'Sessions' }] }),
  ];
  void new DataPage(root, sections, {
    country: { label: 'Country', value: countryName },
    campaign: { label: 'Campaign' },
    region: { label: 'Region' },
    city: { label: 'City' },
  }).load();
}
