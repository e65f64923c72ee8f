/**
 * Loaded by the admin layout on every page: forms that destroy something
 * carry `data-confirm` with the question to ask before they are sent.
 */
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (!window.confirm(form.dataset.confirm)) event.preventDefault();
});

/** The site switcher of the header: a choice opens the same page on that site, keeping the page's other URL arguments. */
document.addEventListener('change', (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || !('siteSwitch' in select.dataset)) return;
  const url = new URL(window.location.href);
  url.searchParams.set('site', select.value);
  window.location.assign(url.toString());
});
