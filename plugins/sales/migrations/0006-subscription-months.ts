import type { Migration } from '../../../core';
import { subscriptionFigures } from './0004-sites';

/**
 * The monthly sums of the daily subscription figures (`subscription_months`,
 * one row per site, month, product, currency, gateway and country), kept
 * with the days, so a window reads the months it holds whole from them. An
 * install that had days before adds its months up when the plugin starts.
 */
export const subscriptionMonths: Migration = {
  name: '0006-subscription-months',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.createTable(db.table('subscription_months'), subscriptionFigures(T, 'month'));
  },
};
