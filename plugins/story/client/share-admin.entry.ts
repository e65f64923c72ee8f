import { LAST_VIEW_KEY, readState, siteToday } from '../../../core/assets/client';
import { isShareTab } from '../shared/constants';

/**
 * The share links page: copy buttons, and a new link that starts from the
 * dashboard view the admin looked at last (its page, period and filters).
 */
const root = document.getElementById('svc-share-admin');
if (root) {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-copy]')) {
    button.addEventListener('click', async () => {
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(button.dataset.copy ?? '');
        button.textContent = 'Copied';
      } catch {
        root.querySelector<HTMLInputElement>('[data-link-field]')?.select();
        button.textContent = 'Press Ctrl+C to copy';
      }
      setTimeout(() => (button.textContent = label), 2000);
    });
  }

  const form = root.querySelector<HTMLFormElement>('[data-share-form]');
  const viewUrl = form?.querySelector<HTMLInputElement>('[data-view-url]');
  let last: string | null = null;
  try {
    last = sessionStorage.getItem(LAST_VIEW_KEY);
  } catch {
    last = null;
  }
  if (form && viewUrl && viewUrl.value === '' && last && !form.querySelector('.notice.error')) {
    const url = new URL(last);
    const state = readState(url.search, siteToday(root.dataset.timezone ?? 'UTC'));
    viewUrl.value = last;
    form.querySelector<HTMLInputElement>('[data-date-start]')!.value = state.dateStart;
    form.querySelector<HTMLInputElement>('[data-date-end]')!.value = state.dateEnd;
    // The field takes `key: value` lines (is one value); a filter with another operator cannot be written there.
    form.querySelector<HTMLTextAreaElement>('[data-filters]')!.value = Object.entries(state.filters)
      .flatMap(([k, v]) => (typeof v === 'string' ? [`${k}: ${v}`] : []))
      .join('\n');
    const tab = url.pathname.split('/').filter(Boolean).pop() ?? '';
    if (isShareTab(tab)) {
      const box = form.querySelector<HTMLInputElement>(`input[name=tabs][value="${tab}"]`);
      if (box) box.checked = true;
    }
    const note = form.querySelector('[data-view-note]');
    if (note) note.textContent = `Starting from the dashboard view you looked at last: ${state.dateStart} – ${state.dateEnd}${Object.keys(state.filters).length ? ', with its filters' : ''}.`;
  }
}
