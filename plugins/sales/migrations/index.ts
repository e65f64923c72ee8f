import type { Migration } from '../../../core';
import { ecommerceTables } from './0001-ecommerce';
import { trafficSource } from './0002-traffic-source';
import { refunds } from './0003-refunds';
import { ecommerceSites } from './0004-sites';
import { rollups } from './0005-rollups';
import { subscriptionMonths } from './0006-subscription-months';

/** The sales plugin's schema, in order. */
export const salesMigrations: readonly Migration[] = [ecommerceTables, trafficSource, refunds, ecommerceSites, rollups, subscriptionMonths];
