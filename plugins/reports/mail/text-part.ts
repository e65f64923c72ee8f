import type { SvcMailReportBlock } from '../../../hooks';

export interface TextParts {
  title: string;
  message: string;
  blocks: readonly SvcMailReportBlock[];
  readMore: { title: string; message: string; url: string; text: string };
  sentBy: string;
  domain: string;
}

/** The plain-text alternative of a report mail, built from the same parts as the HTML. */
export function textPart(parts: TextParts): string {
  const lines: string[] = [parts.title, '='.repeat(Math.min(parts.title.length, 72)), '', parts.message, ''];
  for (const block of parts.blocks) {
    lines.push(block.title.toUpperCase(), block.subtitle);
    if (block.content) lines.push('', block.content);
    lines.push('');
    const table = [block.header, ...block.rows].map((row) => row.map(String));
    if (block.rows.length === 0) lines.push('  No data for this period.');
    else {
      const widths = block.header.map((_, i) => Math.min(40, Math.max(...table.map((r) => (r[i] ?? '').length))));
      for (const row of table) lines.push(`  ${row.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('   ')}`.trimEnd());
    }
    if (block.comment_title || block.comment_text) lines.push('', [block.comment_title, block.comment_text].filter(Boolean).join(': '));
    lines.push('', `  ${block.url}`, '');
  }
  lines.push(parts.readMore.title, parts.readMore.message, `${parts.readMore.text}: ${parts.readMore.url}`, '', '--', parts.sentBy, parts.domain);
  return `${lines.join('\n')}\n`;
}
