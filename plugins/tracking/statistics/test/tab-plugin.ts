import { definePlugin } from '../../../../core';
import { registerStatisticsTab } from '../register';

/** The statistics tab alone, so its tests do not depend on the collection pipeline. */
export const statisticsTab = definePlugin({ name: 'statistics-tab', tier: 'free', register: registerStatisticsTab });
