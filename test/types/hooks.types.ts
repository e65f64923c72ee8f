/**
 * Compile-time checks of the typed hook map (compiled by hooks-types.test.ts
 * and by `npm run lint`). Every `@ts-expect-error` line must fail to compile;
 * an expectation that stops failing is itself an error.
 */
import type { SvcMenuItem } from '../../hooks';
import type { Hooks } from '../../core/hooks/registry';

declare const hooks: Hooks;
declare const menuItem: SvcMenuItem;

// Right uses compile.
hooks.addFilter('svc_cookie_retention_days', (days) => days + 1);
hooks.addFilter('svc_country_code_for_ip', async (code, ip) => (ip === '127.0.0.1' ? 'DE' : code));
hooks.addFilter('svc_menu', (menu) => [...menu, menuItem], { priority: 5 });
hooks.addAction('svc_send_email_batch', (reportId, queueId, batchId) => {
  void [reportId.toFixed(), queueId.toUpperCase(), batchId ?? 0];
});
hooks.addAction('svc_daily', async () => undefined);
void hooks.applyFilters('svc_verify_nonce', false, null, 'svc_nonce');
void hooks.doAction('svc_track_external_link', 1, 'https://example.org/');

// A wrong hook name.
// @ts-expect-error svc_no_such_filter is not in SvcFilters
hooks.addFilter('svc_no_such_filter', (value: number) => value);
// @ts-expect-error svc_no_such_action is not in SvcActions
void hooks.doAction('svc_no_such_action');
// @ts-expect-error a filter name is not an action
hooks.addAction('svc_menu', () => undefined);

// A wrong argument type.
// @ts-expect-error days is a number
void hooks.applyFilters('svc_cookie_retention_days', '30');
// @ts-expect-error statistic_id is a number
void hooks.doAction('svc_track_external_link', '1', 'https://example.org/');
// @ts-expect-error the handler's first parameter is a number, not a string
hooks.addAction('svc_track_external_link', (statisticId: string) => void statisticId);

// A wrong arity.
// @ts-expect-error svc_country_code_for_ip takes country_code and ip
void hooks.applyFilters('svc_country_code_for_ip', 'DE');
// @ts-expect-error svc_daily takes no argument
void hooks.doAction('svc_daily', 1);
// @ts-expect-error svc_send_email_batch takes three arguments
void hooks.doAction('svc_send_email_batch', 1, '2024-01-01');

// A wrong filter return.
// @ts-expect-error a filter returns the type of its first argument
hooks.addFilter('svc_cookie_retention_days', () => 'thirty');
// @ts-expect-error svc_menu returns menu items, not a count
hooks.addFilter('svc_menu', async (menu) => menu.length);
