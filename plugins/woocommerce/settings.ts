import { badRequest, type SettingField } from '../../core';

export const STORE_URL = 'svc_woocommerce_store_url';
export const CONSUMER_KEY = 'svc_woocommerce_consumer_key';
export const CONSUMER_SECRET = 'svc_woocommerce_consumer_secret';
export const WEBHOOK_SECRET = 'svc_woocommerce_webhook_secret';

const text = (max: number) => (raw: unknown): string => {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw badRequest('Must be text.');
  const value = raw.trim();
  if (value.length > max) throw badRequest(`At most ${max} characters.`);
  return value;
};

const storeUrl = (raw: unknown): string => {
  const value = text(500)(raw).replace(/\/+$/, '');
  if (value === '') return '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('Must be the http or https address of the store.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('Must be the http or https address of the store.');
  return value;
};

const field = (key: string, label: string, help: string, parse: (raw: unknown) => string, secret = false): SettingField<string> => ({
  key,
  label,
  help,
  section: 'WooCommerce',
  type: 'text',
  default: '',
  tier: 'business',
  secret,
  parse,
});

/** The store connection; the three secrets are never shown back. */
export const WOOCOMMERCE_SETTINGS: readonly SettingField<string>[] = [
  field(STORE_URL, 'Store address', 'The WooCommerce site, e.g. https://shop.example (its REST API lists historical subscriptions).', storeUrl),
  field(CONSUMER_KEY, 'REST API consumer key', 'A read-only key from WooCommerce → Settings → Advanced → REST API.', text(200), true),
  field(CONSUMER_SECRET, 'REST API consumer secret', 'The secret of that key.', text(200), true),
  field(WEBHOOK_SECRET, 'Webhook secret', 'The secret of the store webhooks that deliver to /ecommerce/webhooks/woocommerce.', text(200), true),
];
