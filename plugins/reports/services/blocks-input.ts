import { MAX_BLOCKS, MAX_TEXT } from '../constants';
import { dateRangeProblem, isDay } from '../schedule/date-ranges';
import type { BlockFilter, ContentBlock } from '../types';
import { MULTI_LINE, ONE_LINE, flag, refuse, text } from '../../../core';

export interface BlockRules {
  /** Ids of the blocks available now (`svc_email_blocks`). */
  blockIds: ReadonlySet<string>;
  /** Canonical filters (`report_sanitize_content_filters`), or a 400 naming `field`. */
  sanitizeFilters(raw: unknown, field: string): BlockFilter[];
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A stored block with every property present; stored blocks were validated on the way in. */
export function normalizeStoredBlock(raw: unknown): ContentBlock {
  const b = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const filters = Array.isArray(b.filters)
    ? b.filters.filter((f): f is BlockFilter => !!f && typeof f === 'object' && typeof (f as BlockFilter).key === 'string' && typeof (f as BlockFilter).value === 'string')
    : [];
  return {
    id: str(b.id),
    filters,
    content: str(b.content),
    date_range: str(b.date_range),
    date_range_enabled: b.date_range_enabled === true,
    fixed_end_date: str(b.fixed_end_date),
    comment_title: str(b.comment_title),
    comment_text: str(b.comment_text),
  };
}

function parseBlock(raw: unknown, field: string, rules: BlockRules): ContentBlock {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw refuse(field, 'must be a block object');
  const b = raw as Record<string, unknown>;
  if (typeof b.id !== 'string' || !rules.blockIds.has(b.id)) {
    throw refuse(`${field}.id`, `must be one of ${[...rules.blockIds].join(', ') || '(no blocks are available)'}`);
  }
  const optional = (key: string, max: number, singleLine = false) =>
    b[key] === undefined || b[key] === null ? '' : text(b[key], `${field}.${key}`, singleLine ? { max, pattern: ONE_LINE } : { max, trim: false, pattern: MULTI_LINE });
  const dateRangeEnabled = b.date_range_enabled === undefined ? false : flag(b.date_range_enabled, `${field}.date_range_enabled`);
  const dateRange = optional('date_range', 255, true);
  if (dateRange !== '' || dateRangeEnabled) {
    const problem = dateRangeProblem(dateRange);
    if (problem) throw refuse(`${field}.date_range`, problem);
  }
  const fixedEndDate = optional('fixed_end_date', 16, true);
  if (fixedEndDate !== '' && !isDay(fixedEndDate)) throw refuse(`${field}.fixed_end_date`, 'must be a date written YYYY-MM-DD');
  return {
    id: b.id,
    filters: b.filters === undefined || b.filters === null ? [] : rules.sanitizeFilters(b.filters, `${field}.filters`),
    content: optional('content', MAX_TEXT),
    date_range: dateRange,
    date_range_enabled: dateRangeEnabled,
    fixed_end_date: fixedEndDate,
    comment_title: optional('comment_title', 255, true),
    comment_text: optional('comment_text', MAX_TEXT),
  };
}

/** The `content` array (§2.2): known block ids, each at most once. */
export function parseBlocks(raw: unknown, rules: BlockRules): ContentBlock[] {
  if (!Array.isArray(raw)) throw refuse('content', 'must be an array of blocks');
  if (raw.length > MAX_BLOCKS) throw refuse('content', `may hold at most ${MAX_BLOCKS} blocks`);
  const seen = new Set<string>();
  return raw.map((item, i) => {
    const block = parseBlock(item, `content[${i}]`, rules);
    if (seen.has(block.id)) throw refuse(`content[${i}].id`, `block ${block.id} appears twice`);
    seen.add(block.id);
    return block;
  });
}
