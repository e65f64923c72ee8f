/** Column labels of the ability output (§2.11), after ecommerce.md §2.9. */
const LABELS: Readonly<Record<string, string>> = {
  product: 'Product',
  adds_to_cart: 'Adds to cart',
  sales: 'Units sold',
  revenue: 'Revenue',
  plan: 'Plan',
  active_subscribers: 'Active subscriptions',
  canceled_subscribers: 'Canceled subscriptions',
  trialling_subscribers: 'Trialling subscriptions',
  monthly_recurring_revenue: 'Monthly recurring revenue',
  product_churn_value: 'Product churn (%)',
  source: 'Source',
};

/** `{ id, label }` columns; an id without a label of its own reads as words (`utm_medium` → `Utm medium`). */
export function columns(ids: readonly string[]): Array<{ id: string; label: string }> {
  return ids.map((id) => ({ id, label: LABELS[id] ?? `${id.charAt(0).toUpperCase()}${id.slice(1).replaceAll('_', ' ')}` }));
}
