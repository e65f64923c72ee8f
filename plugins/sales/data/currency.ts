import { badRequest, type Database, type PluginSettings, type SettingField } from '../../../core';
import { tbl } from '../db';

export const CURRENCY_SETTING = 'svc_sales_currency';
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
const FALLBACK = 'USD';

function isoCurrency(raw: unknown, field: string): string {
  const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!CURRENCIES.has(code)) throw badRequest(`${field} must be an ISO 4217 currency code such as EUR.`, 'svc_invalid_param', { field });
  return code;
}

export const currencySetting: SettingField<string> = {
  key: CURRENCY_SETTING,
  label: 'Dashboard currency',
  help: 'ISO 4217 code the sales figures are shown in by default. Empty: the currency most orders (or subscriptions) use.',
  section: 'Ecommerce',
  type: 'text',
  default: '',
  tier: 'business',
  parse: (raw) => (raw === undefined || raw === null || String(raw).trim() === '' ? '' : isoCurrency(raw, CURRENCY_SETTING)),
};

/**
 * Money is never summed across currencies: each figure is computed in one
 * currency, the request's `currency` argument, else the setting, else the
 * currency most orders (shop figures) or subscriptions use.
 */
export class Currencies {
  constructor(
    private readonly db: Database,
    private readonly settings: PluginSettings,
  ) {}

  async pick(raw: unknown, kind: 'shop' | 'subscriptions'): Promise<string> {
    if (raw !== undefined && raw !== null && raw !== '') return isoCurrency(raw, 'currency');
    const configured = await this.settings.get<string>(CURRENCY_SETTING);
    if (configured) return configured;
    const table = tbl(this.db, kind === 'shop' ? 'ecommerce_orders' : 'subscriptions');
    const [row] = await this.db.select<{ currency: string }>(`SELECT currency, COUNT(*) AS n FROM ${table} GROUP BY currency ORDER BY n DESC, currency LIMIT 1`);
    return row?.currency ?? FALLBACK;
  }

  /** Every currency orders or subscriptions were recorded in, alphabetically. */
  async known(): Promise<string[]> {
    const rows = await this.db.select<{ currency: string }>(
      `SELECT currency FROM ${tbl(this.db, 'ecommerce_orders')} UNION SELECT currency FROM ${tbl(this.db, 'subscriptions')}`,
    );
    return rows.map((r) => r.currency).sort();
  }
}
