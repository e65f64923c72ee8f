import { type Api, clear, el } from '../../../core/assets/client';

interface Drop {
  time: number;
  reason: string;
  page_url: string;
  count: number;
}

interface Onboarding {
  first_hit: { time: number; page_url: string } | null;
  snippet: string | null;
  track_url: string;
  drops: Drop[];
}

/** Why a hit was not counted, in the words of the settings page. */
const REASONS: Readonly<Record<string, string>> = {
  bot: 'the browser says it is a bot or crawler',
  'ip blocked': 'the visitor’s address is on your blocked IP list (Settings)',
  'blocked by custom rule': 'one of your custom block rules matched (Settings)',
  'do not track': 'the browser sends Do Not Track, and your settings honour it',
  'excluded role': 'the visitor was signed in to svc with a role you exclude from tracking — probably you',
  'referrer is spam': 'the referring site is on the referrer-spam list',
  'unknown site': 'the page is on a host no site claims (set the domains on the Sites page, or send the site of the snippet)',
};

/** How often the panel asks whether the first pageview arrived. */
const POLL_MS = 4000;

const clock = (unix: number) => new Date(unix * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function copyButton(text: string, code: HTMLElement): HTMLButtonElement {
  const button = el('button', { type: 'button', class: 'secondary' }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      getSelection()?.selectAllChildren(code);
      button.textContent = 'Press Ctrl+C to copy';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  return button;
}

function dropList(drops: Drop[]): HTMLElement[] {
  if (drops.length === 0) return [];
  return [
    el('h3', {}, 'Hits that arrived but were not counted'),
    el(
      'ul',
      { class: 'drops' },
      ...drops.map((d) =>
        el(
          'li',
          { 'data-reason': d.reason },
          el('strong', {}, `${clock(d.time)}${d.count > 1 ? ` (${d.count} hits)` : ''}: `),
          `not counted because ${REASONS[d.reason] ?? d.reason}`,
          d.page_url ? el('span', { class: 'muted truncate', title: d.page_url }, d.page_url) : null,
        ),
      ),
    ),
  ];
}

/**
 * The panel a site without a single pageview sees above its statistics: the
 * line to copy into the site, a waiting state that turns live when the first
 * pageview arrives (then `onFirstHit` reloads the page's panels), and the
 * hits that arrived but were dropped, with the reason.
 */
export function startOnboarding(box: HTMLElement, api: Api, onFirstHit: () => void): void {
  const status = el('p', { class: 'waiting', role: 'status' });
  const drops = el('div', { 'data-drops': '' });
  let shown = false;

  const show = (data: Onboarding) => {
    const code = el('code', { 'data-snippet': '' }, data.snippet ?? '');
    const install = data.snippet
      ? [el('p', {}, 'Copy this line into the <head> of every page you want to count:'), el('div', { class: 'snippet' }, el('pre', {}, code), copyButton(data.snippet, code))]
      : [el('p', {}, `Headless mode is on: your site sends its hits to ${data.track_url} itself.`)];
    clear(box, el('h2', {}, 'Add the tracking script to your site'), ...install, status, drops);
    box.hidden = false;
    shown = true;
  };

  const poll = async () => {
    let data: Onboarding;
    try {
      data = await api.get<Onboarding>('/tracking/onboarding');
    } catch {
      setTimeout(() => void poll(), POLL_MS * 4);
      return;
    }
    if (data.first_hit) {
      if (!shown) return;
      box.classList.add('is-live');
      status.textContent = `Live: the first pageview arrived at ${clock(data.first_hit.time)} (${data.first_hit.page_url}). Your statistics fill in as visitors come.`;
      clear(box, el('h2', {}, 'Your site is counted'), status);
      onFirstHit();
      return;
    }
    if (!shown) show(data);
    status.textContent = 'Waiting for the first pageview… Open a page of your site that has the line above; it shows here within seconds.';
    clear(drops, ...dropList(data.drops));
    setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
}
