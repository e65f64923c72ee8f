/** The single event that folds a site's pending days (arguments: the site id). */
export const FOLD_HOOK = 'svc_sales_fold';

/** Seconds between a write that made folded days stale and their fold. */
export const FOLD_DELAY = 60;
