/**
 * The plugin SDK for browser code (`plugins/<name>/client/`): the API client,
 * DOM helpers, the data page with its period and filters, tables, cards and
 * the traffic chart. Bundled with esbuild, which leaves out what an entry
 * does not use. Server code imports `core/index.ts` instead.
 */
export { type Api, ApiError, createApi } from './api';
export { type Overlay, type Series, TrafficChart } from './chart';
export { clear, el, formatDuration, formatNumber, labelCell, notice, tableBox } from './dom';
export { type ChipFilter, chipFilter, OPERATOR_LABELS, readFilters, viewFilter } from './filters';
export { type FilterLabels, type Section, DataPage, LAST_VIEW_KEY, countryName, doesNotApply } from './page';
export { type ViewState, PRESETS, presetRange, readState, siteToday, writeState } from './range';
export { type CardPick, type CardSpec, type Column, type Comparison, type Row, type TableSpec, formatValue, renderCards, renderTable } from './widgets';
