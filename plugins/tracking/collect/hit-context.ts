import { AsyncLocalStorage } from 'node:async_hooks';
import type { HitRequest } from './tracker';

/**
 * The request of the hit being processed, for taps whose documented
 * arguments do not carry it (location enrichment reads edge country headers).
 * Set by the pipeline on both transports and for demo traffic alike.
 */
export const hitContext = new AsyncLocalStorage<HitRequest>();
