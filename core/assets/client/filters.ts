import type { ViewFilter } from '../../admin/dashboard-url';
import { FILTER_OPERATORS, type FilterOperator } from '../../statistics/types';

/** A filter as the chips edit it: an operator and one or more values. */
export interface ChipFilter {
  operator: FilterOperator;
  values: string[];
}

export const OPERATOR_LABELS: Readonly<Record<FilterOperator, string>> = {
  is: 'is',
  is_not: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
};

const isOperator = (value: unknown): value is FilterOperator => typeof value === 'string' && (FILTER_OPERATORS as readonly string[]).includes(value);

export function chipFilter(filter: ViewFilter): ChipFilter {
  return typeof filter === 'string' ? { operator: 'is', values: [filter] } : { operator: filter.operator, values: [...filter.value] };
}

/** The URL form of a chip's filter: a plain value for `is` one value (as links have always written it); null without values. */
export function viewFilter(filter: ChipFilter): ViewFilter | null {
  const values = [...new Set(filter.values.filter((v) => v !== ''))];
  if (values.length === 0) return null;
  return filter.operator === 'is' && values.length === 1 ? values[0]! : { operator: filter.operator, value: values };
}

/** The filters of a `filters` URL parameter (the JSON object form); anything else in it is dropped. */
export function readFilters(raw: string | null): Record<string, ViewFilter> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '{}');
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const filters: Record<string, ViewFilter> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') filters[key] = value;
    else if (value && typeof value === 'object' && isOperator((value as { operator?: unknown }).operator)) {
      const given = (value as { value?: unknown }).value;
      const values = (Array.isArray(given) ? given : [given]).filter((v): v is string => typeof v === 'string');
      const filter = viewFilter({ operator: (value as { operator: FilterOperator }).operator, values });
      if (filter !== null) filters[key] = filter;
    }
  }
  return filters;
}
