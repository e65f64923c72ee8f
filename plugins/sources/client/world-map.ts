import World from '@svg-maps/world';
import { clear, el, notice } from '../../../core/assets/client';

const SVG = 'http://www.w3.org/2000/svg';

/** A choropleth of sessions per country; clicking a country filters by it. */
export function renderWorldMap(target: Element, rows: Array<Record<string, string | number>>, onPick: (country: string) => void): void {
  if (rows.length === 0) {
    clear(target, notice('empty', 'No locations recorded in this period. Countries come from the visitor IP when tracking is on.'));
    return;
  }
  const sessions = new Map(rows.map((r) => [String(r.country).toLowerCase(), Number(r.sessions ?? 0)]));
  const max = Math.max(1, ...sessions.values());
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', World.viewBox);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Sessions by country');
  for (const location of World.locations) {
    const count = sessions.get(location.id) ?? 0;
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', location.path);
    path.setAttribute('class', count ? 'country has-data' : 'country');
    if (count) path.setAttribute('style', `fill-opacity:${(0.2 + 0.8 * Math.sqrt(count / max)).toFixed(2)}`);
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${location.name}: ${count.toLocaleString()} sessions`;
    path.append(title);
    if (count) path.addEventListener('click', () => onPick(location.id.toUpperCase()));
    svg.append(path);
  }
  clear(target, svg, el('p', { class: 'muted' }, `Darker means more sessions (most: ${max.toLocaleString()}).`));
}
