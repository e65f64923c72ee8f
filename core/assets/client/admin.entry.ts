/**
 * Loaded by the admin layout on every page: forms that destroy something
 * carry `data-confirm` with the question to ask before they are sent.
 */
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (!window.confirm(form.dataset.confirm)) event.preventDefault();
});
