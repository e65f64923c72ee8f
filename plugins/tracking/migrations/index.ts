import type { Migration } from '../../../core/db/migrator';

/** Tables of the tracking plugin beyond the kernel's statistics schema, in order. */
export const trackingMigrations: readonly Migration[] = [];
