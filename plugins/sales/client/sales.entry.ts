import { DataPage } from '../../../core/assets/client';
import { shopSections } from './shop';
import { subscriptionSections } from './subscriptions';

interface BackfillProgress {
  is_processing: boolean;
  progress: number;
  processed: number;
  total: number;
  phase?: 'fetching' | 'adding_up';
  integrations?: string[];
}

/** How often the banner looks again while a backfill runs. */
const BACKFILL_POLL_MS = 5000;

function backfillText(p: BackfillProgress): string {
  const from = p.integrations?.length ? ` from ${p.integrations.join(' and ')}` : '';
  const step = p.phase === 'fetching' ? 'listing the store’s subscriptions' : `adding up ${p.processed} of ${p.total} days`;
  return `Importing the subscription history${from}: ${p.progress} % (${step}). The subscription figures below are complete once it ends.`;
}

const root = document.getElementById('svc-sales');
if (root) {
  const currencySelect = root.querySelector<HTMLSelectElement>('[data-currency-select]');
  const params = (page: DataPage, extra: Record<string, unknown> = {}) => page.params({ currency: currencySelect?.value ?? root.dataset.currency, ...extra });
  // Shop panels follow the visitor filters of the shop routes, subscription panels those of the subscription routes (the page lists both).
  const sections = [...shopSections(params).map((s) => ({ ...s, panel: 'shop' })), ...subscriptionSections(params).map((s) => ({ ...s, panel: 'subscriptions' }))];
  const page = new DataPage(root, sections, {}, () => ({ currency: currencySelect?.value ?? root.dataset.currency }));

  for (const selector of ['[data-currency-select]', '[data-chart-mode]', '[data-distribution-view]', '[data-retention-product]']) {
    root.querySelector(selector)?.addEventListener('change', () => void page.load());
  }

  /** The backfill progress answers without the envelope, so it is read as a plain download. */
  const banner = root.querySelector<HTMLElement>('[data-backfill]');
  let wasRunning = false;
  const watchBackfill = async () => {
    if (!banner) return;
    const progress = JSON.parse(await (await page.api.download('/get_action/ecommerce/get_subscriptions_backfill_progress')).text()) as BackfillProgress;
    banner.hidden = !progress.is_processing;
    banner.querySelector('[data-backfill-text]')!.textContent = backfillText(progress);
    banner.querySelector<HTMLProgressElement>('[data-backfill-bar]')!.value = progress.progress;
    if (progress.is_processing) {
      wasRunning = true;
      setTimeout(() => void watchBackfill().catch(() => undefined), BACKFILL_POLL_MS);
    } else if (wasRunning) void page.load();
  };
  void page.load();
  void watchBackfill().catch(() => undefined);
}
