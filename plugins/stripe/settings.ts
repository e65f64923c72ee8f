import { badRequest, type SettingField } from '../../core';

export const WEBHOOK_SECRET = 'svc_stripe_webhook_secret';
export const API_KEY = 'svc_stripe_api_key';
export const API_BASE = 'svc_stripe_api_base';

const text = (raw: unknown): string => {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw badRequest('Must be text.');
  const value = raw.trim();
  if (value.length > 300) throw badRequest('At most 300 characters.');
  return value;
};

const apiBase = (raw: unknown): string => {
  const value = text(raw).replace(/\/+$/, '');
  if (value === '') return '';
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // refused below
  }
  throw badRequest('Must be an http or https address, or empty for api.stripe.com.');
};

const field = (key: string, label: string, help: string, parse: (raw: unknown) => string, secret: boolean): SettingField<string> => ({
  key,
  label,
  help,
  section: 'Stripe',
  type: 'text',
  default: '',
  tier: 'business',
  secret,
  parse,
});

/** The Stripe account; the key and the signing secret are never shown back. */
export const STRIPE_SETTINGS: readonly SettingField<string>[] = [
  field(WEBHOOK_SECRET, 'Webhook signing secret', 'The whsec_… secret of the Stripe endpoint that delivers to /ecommerce/webhooks/stripe.', text, true),
  field(API_KEY, 'Restricted API key', 'A read-only rk_… (or sk_…) key: line items, subscriptions, invoices and products are read with it.', text, true),
  field(API_BASE, 'API address', 'Leave empty for https://api.stripe.com; set it only for a proxy that forwards to Stripe.', apiBase, false),
];
