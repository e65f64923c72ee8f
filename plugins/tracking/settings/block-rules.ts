/** A custom block rule (tracking.md §7): a case-insensitive substring or `/regex/flags`. */
export interface BlockRule {
  source: string;
  test(value: string): boolean;
}

const REGEX_FORM = /^\/(.*)\/([a-z]*)$/s;
const ALLOWED_FLAGS = new Set(['i', 'm', 's', 'x', 'u']);

/** PCRE's `x` flag: unescaped whitespace and `#` comments outside classes are ignored. */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/** Parses one rule line; an invalid regex gives an error message instead of a rule. */
export function parseBlockRule(line: string): BlockRule | { error: string } {
  const source = line.trim();
  const regex = REGEX_FORM.exec(source);
  if (!regex || source.length < 2) {
    const needle = source.toLowerCase();
    return { source, test: (value) => needle !== '' && value.toLowerCase().includes(needle) };
  }
  const [, body = '', flags = ''] = regex;
  const unknown = [...flags].filter((f) => !ALLOWED_FLAGS.has(f));
  if (unknown.length) return { error: `unsupported regex flag ${unknown.join('')} (allowed: i m s x u)` };
  if (body === '') return { error: 'empty regex' };
  try {
    const pattern = flags.includes('x') ? stripExtended(body) : body;
    const re = new RegExp(pattern, [...new Set(flags.replace('x', ''))].join(''));
    return { source, test: (value) => re.test(value) };
  } catch (err) {
    return { error: `invalid regex: ${(err as Error).message}` };
  }
}
