/** The parts of WooCommerce REST resources (v3) the integration reads. */
export interface WcMeta {
  key: string;
  value: unknown;
}

export interface WcLineItem {
  product_id: number;
  name: string;
  quantity: number;
  price?: number | string;
  total: string;
}

export interface WcOrder {
  id: number;
  status: string;
  currency: string;
  total: string;
  date_created_gmt: string | null;
  date_paid_gmt?: string | null;
  line_items: WcLineItem[];
  meta_data?: WcMeta[];
  /** The order's refunds in short (totals negative); the details come from `/orders/{id}/refunds`. */
  refunds?: Array<{ id: number; total: string }>;
}

/** A refund as `/orders/{id}/refunds` lists it: `amount` positive, line quantities and totals negative. */
export interface WcRefund {
  id: number;
  date_created_gmt: string | null;
  amount: string;
  line_items?: Array<{ product_id: number; quantity: number; total: string }>;
}

export interface WcSubscription {
  id: number;
  parent_id?: number;
  status: string;
  currency: string;
  total: string;
  billing_period: string;
  billing_interval: string | number;
  start_date_gmt: string | null;
  trial_end_date_gmt?: string | null;
  cancelled_date_gmt?: string | null;
  end_date_gmt?: string | null;
  date_modified_gmt?: string | null;
  payment_method?: string;
  billing?: { country?: string };
  line_items: WcLineItem[];
  meta_data?: WcMeta[];
}
