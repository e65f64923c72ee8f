import { el } from '../../../core/assets/client/dom';
import { DataPage } from '../../../core/assets/client/page';
import { shopSections } from './shop';
import { subscriptionSections } from './subscriptions';

const root = document.getElementById('svc-sales');
if (root) {
  const currencySelect = root.querySelector<HTMLSelectElement>('[data-currency-select]');
  const params = (page: DataPage, extra: Record<string, unknown> = {}) => page.params({ currency: currencySelect?.value ?? root.dataset.currency, ...extra });
  const page = new DataPage(root, [...shopSections(params), ...subscriptionSections(params)], { country: { label: 'Country' }, device: { label: 'Device' } });

  for (const selector of ['[data-currency-select]', '[data-chart-mode]', '[data-distribution-view]', '[data-retention-product]']) {
    root.querySelector(selector)?.addEventListener('change', () => void page.load());
  }
  for (const block of root.querySelectorAll<HTMLElement>('[data-sales-export]')) {
    const id = block.dataset.salesExport!;
    block.querySelector('button.export')?.addEventListener('click', async () => {
      const blob = await page.api.download(`/data/ecommerce/datatable/${id}`, params(page, { format: 'csv' }));
      const link = el('a', { href: URL.createObjectURL(blob), download: `${id}-${page.state.dateStart}-${page.state.dateEnd}.csv` });
      link.click();
      URL.revokeObjectURL(link.href);
    });
  }

  /** The backfill progress answers without the envelope, so it is read as a plain download. */
  const banner = root.querySelector<HTMLElement>('[data-backfill]');
  const watchBackfill = async () => {
    if (!banner) return;
    const progress = JSON.parse(await (await page.api.download('/get_action/ecommerce/get_subscriptions_backfill_progress')).text()) as {
      is_processing: boolean;
      progress: number;
      processed: number;
      total: number;
    };
    banner.hidden = !progress.is_processing;
    banner.textContent = `Importing subscription history: ${progress.progress} % (${progress.processed} of ${progress.total} days). Figures complete as it runs.`;
    if (progress.is_processing) setTimeout(() => void watchBackfill().catch(() => undefined), 15_000);
  };
  void page.load();
  void watchBackfill().catch(() => undefined);
}
