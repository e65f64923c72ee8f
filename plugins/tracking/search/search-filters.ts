import { commaList, type Hooks } from '../../../core';
import { parseBlockRule } from '../settings/block-rules';

/** Built-in injection probes (`svc_search_injection_patterns` default), regexes with delimiters. */
export const DEFAULT_INJECTION_PATTERNS = [
  '/\\bunion\\b.{0,40}\\bselect\\b/i',
  '/\\bselect\\b.{1,80}\\bfrom\\b/i',
  "/\\b(or|and)\\s+['\"]?\\w+['\"]?\\s*=\\s*['\"]?\\w+/i",
  "/['\"`]\\s*(or|and)\\b/i",
  '/\\b(sleep|benchmark|pg_sleep|load_file|extractvalue|updatexml)\\s*\\(/i',
  '/\\bwaitfor\\s+delay\\b/i',
  '/\\binformation_schema\\b/i',
  '/;\\s*(drop|delete|insert|update|truncate|alter|create|exec)\\b/i',
  '/\\bxp_cmdshell\\b/i',
  '/<\\s*\\/?\\s*(script|iframe|svg|img)\\b/i',
  '/\\bjavascript\\s*:/i',
  '/\\bon(error|load|click|mouseover)\\s*=/i',
  '/\\$\\{\\s*jndi\\s*:/i',
  '/\\{\\{.*\\}\\}/',
  '/\\.\\.[\\/\\\\]/',
  '/\\b(etc\\/passwd|win\\.ini|boot\\.ini)\\b/i',
  '/\\b0x[0-9a-f]{8,}\\b/i',
];

/** ISO 15924 codes of locales to the Unicode script names regexes know. */
const SCRIPTS_OF: Record<string, string[]> = {
  Latn: ['Latin'],
  Cyrl: ['Cyrillic'],
  Grek: ['Greek'],
  Arab: ['Arabic'],
  Hebr: ['Hebrew'],
  Hans: ['Han'],
  Hant: ['Han'],
  Jpan: ['Han', 'Hiragana', 'Katakana'],
  Kore: ['Hangul', 'Han'],
  Thai: ['Thai'],
  Deva: ['Devanagari'],
  Beng: ['Bengali'],
  Geor: ['Georgian'],
  Armn: ['Armenian'],
  Ethi: ['Ethiopic'],
  Taml: ['Tamil'],
  Telu: ['Telugu'],
  Knda: ['Kannada'],
  Mlym: ['Malayalam'],
  Gujr: ['Gujarati'],
  Guru: ['Gurmukhi'],
  Sinh: ['Sinhala'],
  Khmr: ['Khmer'],
  Laoo: ['Lao'],
  Mymr: ['Myanmar'],
  Tibt: ['Tibetan'],
};

/** Scripts of the site locales, Latin always included. */
export function scriptsForLocales(locales: readonly string[]): string[] {
  const scripts = new Set(['Latin']);
  for (const locale of locales) {
    try {
      const code = new Intl.Locale(locale).maximize().script;
      for (const s of SCRIPTS_OF[code ?? ''] ?? []) scripts.add(s);
    } catch {
      // not a locale tag
    }
  }
  return [...scripts];
}

/** The site locales: the process locale and `SVC_LOCALES` (comma list), English as a fallback. */
export function siteLocales(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...new Set([Intl.DateTimeFormat().resolvedOptions().locale, ...commaList(env.SVC_LOCALES), 'en'])];
}

export type SearchRejection = 'empty' | 'too long' | 'spam' | 'injection';

export interface SearchRules {
  maxUnspaced: number;
  mergeWindow: number;
  /** Matches a letter outside the allowed scripts. */
  foreignLetter: RegExp | null;
  injections: Array<{ test(value: string): boolean }>;
}

function foreignLetterRegex(scripts: unknown): RegExp | null {
  const valid = (Array.isArray(scripts) ? scripts : []).filter((s): s is string => {
    if (typeof s !== 'string' || !/^[A-Za-z_]+$/.test(s)) return false;
    try {
      new RegExp(`\\p{Script=${s}}`, 'u');
      return true;
    } catch {
      return false;
    }
  });
  if (valid.length === 0) return null;
  return new RegExp(`(?=\\p{L})[^${valid.map((s) => `\\p{Script=${s}}`).join('')}]`, 'u');
}

/** The search filters of tracking.md §6, read through their hooks. */
export async function searchRules(hooks: Hooks, locales: string[]): Promise<SearchRules> {
  const maxUnspaced = Number(await hooks.applyFilters('svc_search_max_unspaced_length', 30));
  const mergeWindow = Number(await hooks.applyFilters('svc_search_merge_window', 120));
  const scripts = await hooks.applyFilters('svc_search_allowed_scripts', scriptsForLocales(locales), locales);
  const patterns = await hooks.applyFilters('svc_search_injection_patterns', [...DEFAULT_INJECTION_PATTERNS]);
  const injections: SearchRules['injections'] = [];
  for (const pattern of Array.isArray(patterns) ? patterns : []) {
    if (typeof pattern !== 'string') continue;
    const rule = parseBlockRule(pattern);
    if (!('error' in rule)) injections.push(rule);
  }
  return {
    maxUnspaced: Number.isFinite(maxUnspaced) && maxUnspaced > 0 ? maxUnspaced : 30,
    mergeWindow: Number.isFinite(mergeWindow) && mergeWindow >= 0 ? mergeWindow : 120,
    foreignLetter: foreignLetterRegex(scripts),
    injections,
  };
}

const SPAM = /(https?:\/\/|www\.|\S+@\S+\.\w{2,}|\b[a-z0-9-]+\.(com|net|org|ru|xyz|top|info|biz|io)\b)/i;

/** Why a (plain-text) search term is not stored, or null to keep it (§7). */
export function rejectSearch(term: string, rules: SearchRules): SearchRejection | null {
  if (term.trim() === '') return 'empty';
  if (term.split(/\s+/).some((token) => [...token].length > rules.maxUnspaced)) return 'too long';
  if (rules.injections.some((rule) => rule.test(term))) return 'injection';
  if (SPAM.test(term) || (rules.foreignLetter?.test(term) ?? false)) return 'spam';
  return null;
}
