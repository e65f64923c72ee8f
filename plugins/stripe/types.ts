/** The parts of Stripe API objects the integration reads (they arrive as JSON in events and API answers). */
export interface StripeProduct {
  id: string;
  name?: string;
  metadata?: Record<string, string>;
}

export interface StripePrice {
  id: string;
  product: string | StripeProduct;
  unit_amount: number | null;
  currency: string;
  nickname?: string | null;
  recurring: { interval: string; interval_count: number } | null;
  metadata?: Record<string, string>;
}

export interface StripeSubscription {
  id: string;
  status: string;
  currency: string;
  start_date: number;
  trial_start: number | null;
  trial_end: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  cancel_at_period_end: boolean;
  items: { data: Array<{ price: StripePrice; quantity?: number }> };
  metadata?: Record<string, string> | null;
}

export interface StripeInvoice {
  id: string;
  status: string;
  billing_reason: string | null;
  amount_paid: number;
  currency: string;
  created: number;
  status_transitions?: { paid_at: number | null };
  /** Before API version 2025-03-31. */
  subscription?: string | null;
  parent?: { subscription_details?: { subscription: string } | null } | null;
}

/** A refund of a payment (`refund.*` events, or listed for a `charge.refunded`). */
export interface StripeRefund {
  id: string;
  amount: number;
  currency: string;
  status: string | null;
  created: number;
  charge?: string | null;
  payment_intent?: string | null;
}

/** The parts of a charge a `charge.refunded` event needs. */
export interface StripeCharge {
  id: string;
  payment_intent?: string | null;
}

export interface StripeCheckoutSession {
  id: string;
  mode: string;
  payment_status: string;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  metadata?: Record<string, string> | null;
}

export interface StripeLineItem {
  description: string | null;
  quantity: number | null;
  amount_total: number;
  price: StripePrice | null;
}
