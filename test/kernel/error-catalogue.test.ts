import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE_RE, type CodeUse, scanErrorCodes, sourceFiles } from '../helpers/error-codes';

const ROOT = path.resolve(__dirname, '..', '..');
const CATALOGUE = path.join(ROOT, 'docs', 'errors.md');

interface Row {
  code: string;
  status: string;
  line: number;
}

/** The rows of docs/errors.md whose first cell is one code in backticks. */
function catalogueRows(text: string): Row[] {
  const rows: Row[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /^\|\s*`([^`]+)`\s*\|([^|]*)\|/.exec(line);
    if (m && CODE_RE.test(m[1]!)) rows.push({ code: m[1]!, status: m[2]!.trim(), line: i + 1 });
  });
  return rows;
}

const firstUse = (uses: readonly CodeUse[]) => {
  const byCode = new Map<string, CodeUse[]>();
  for (const use of uses) byCode.set(use.code, [...(byCode.get(use.code) ?? []), use]);
  return byCode;
};

describe('the error catalogue (docs/errors.md)', () => {
  const scan = scanErrorCodes(ROOT, sourceFiles(ROOT, ['core', 'plugins', 'examples', 'hooks.d.ts']));
  const uses = firstUse(scan.uses);
  const rows = catalogueRows(fs.readFileSync(CATALOGUE, 'utf8'));
  const listed = new Map(rows.map((r) => [r.code, r]));

  it('can read the code of every error the sources create', () => {
    expect(scan.unreadable).toEqual([]);
    expect(uses.size).toBeGreaterThan(50);
  });

  it('lists every code the sources throw or answer', () => {
    const missing = [...uses].filter(([code]) => !listed.has(code)).map(([code, at]) => `${code} (${at[0]!.where})`);
    expect(missing).toEqual([]);
  });

  it('lists no code the sources no longer use', () => {
    const unused = rows.filter((r) => !uses.has(r.code)).map((r) => `${r.code} (docs/errors.md:${r.line})`);
    expect(unused).toEqual([]);
  });

  it('has one row per code', () => {
    const twice = rows.filter((r, i) => rows.findIndex((o) => o.code === r.code) !== i).map((r) => `${r.code} (docs/errors.md:${r.line})`);
    expect(twice).toEqual([]);
  });

  it('names every HTTP status the sources answer with each code', () => {
    const wrong: string[] = [];
    for (const [code, at] of uses) {
      const row = listed.get(code);
      if (!row) continue;
      const named = new Set(row.status.match(/\d{3}/g) ?? []);
      for (const use of at) {
        if (use.status !== null && !named.has(String(use.status))) wrong.push(`${code}: ${use.status} at ${use.where}, row says "${row.status}"`);
      }
    }
    expect([...new Set(wrong)]).toEqual([]);
  });
});

describe('the error code scan', () => {
  let dir: string;
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  const scanFixture = () => scanErrorCodes(dir, sourceFiles(dir, ['.']));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-codes-'));
    write(
      'errors.ts',
      [
        'export class SvcError extends Error {',
        '  constructor(readonly code: string, message: string, readonly status = 400) { super(message); }',
        '}',
        "export const notFound = (message: string, code = 'svc_no_route') => new SvcError(code, message, 404);",
      ].join('\n'),
    );
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads literals, helper defaults, constants, choices, wrappers and answered objects, with their statuses', () => {
    write(
      'use.ts',
      [
        "import { SvcError, notFound } from './errors';",
        "const GONE = 'svc_gone';",
        "const refuse = (message: string, code: string) => notFound(message, code);",
        'export function f(flag: boolean, err: { code: string }) {',
        "  if (flag) throw new SvcError('svc_direct', 'x', 409);",
        "  if (!flag) throw new SvcError('svc_plain', 'x');",
        "  if (err) throw notFound('x');",
        '  if (flag) throw notFound(\'x\', GONE);',
        "  if (flag) throw refuse('x', flag ? 'svc_left' : 'svc_right');",
        '  if (flag) throw new SvcError(err.code, \'handed on\', 500);',
        "  return { code: 'ability_answered', status: 418 };",
        '}',
        "export function countryName(code: string) { return code; }",
        "countryName('de');",
      ].join('\n'),
    );
    const found = scanFixture();
    expect(found.unreadable).toEqual([]);
    expect(found.uses.map((u) => `${u.code} ${u.status}`).sort()).toEqual([
      'ability_answered 418',
      'svc_direct 409',
      'svc_gone 404',
      'svc_left 404',
      'svc_no_route 404',
      'svc_plain 400',
      'svc_right 404',
    ]);
  });

  it('reports a code it cannot read, and a literal that is not written like a code', () => {
    write(
      'use.ts',
      [
        "import { SvcError } from './errors';",
        "export const a = (name: string) => new SvcError(`svc_${name}`, 'x');",
        "export const b = () => new SvcError('Not a code', 'x');",
      ].join('\n'),
    );
    const found = scanFixture();
    expect(found.unreadable).toEqual([
      'use.ts:2: `svc_${name}`',
      "use.ts:3: 'Not a code' is not written like an error code",
    ]);
  });
});
