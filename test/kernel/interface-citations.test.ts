import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const INTERFACE = path.join(ROOT, 'docs', 'interface');
const DOCUMENTS = ['tracking', 'reports-and-share-links', 'ecommerce'] as const;
type Document = (typeof DOCUMENTS)[number];

/** The document a bare `§` means in a plugin's files when the file names none (docs/interface/README.md). */
const PLUGIN_DOCUMENT: Record<string, Document> = {
  tracking: 'tracking',
  sources: 'tracking',
  reports: 'reports-and-share-links',
  story: 'reports-and-share-links',
  sales: 'ecommerce',
  abilities: 'ecommerce',
  stripe: 'ecommerce',
  woocommerce: 'ecommerce',
};

/** How files name a document: `tracking.md`, the short `reports §` / `ecommerce §`, the README's T, R and E. */
const NAMES: ReadonlyArray<[RegExp, Document | 'outside']> = [
  [/tracking\.md|\bT(?= §)/y, 'tracking'],
  [/reports-and-share-links\.md|\breports(?= §)|\bR(?= §)/y, 'reports-and-share-links'],
  [/ecommerce\.md|\becommerce(?= §)|\bE(?= §)/y, 'ecommerce'],
  [/DESIGN\.md|STYLE\.md/y, 'outside'],
];
const SECTION = /§\s*(\d+(?:\.\d+)?)(?:\s*[-–]\s*§?(\d+(?:\.\d+)?))?/y;

function headings(document: Document): Set<string> {
  const text = fs.readFileSync(path.join(INTERFACE, `${document}.md`), 'utf8');
  return new Set([...text.matchAll(/^#+ §(\d+(?:\.\d+)?) /gm)].map((m) => m[1]!));
}

function filesToCheck(): string[] {
  const out: string[] = [path.join(ROOT, 'README.md'), path.join(ROOT, 'hooks.d.ts')];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && abs !== INTERFACE) walk(abs);
      } else if (/\.(ts|md|ejs)$/.test(entry.name)) out.push(abs);
    }
  };
  for (const dir of ['core', 'plugins', 'examples', 'docs', 'test']) walk(path.join(ROOT, dir));
  return out;
}

/** Every `§` citation of a file with the document it belongs to; null when the file does not say which. */
function citations(file: string): Array<{ line: number; document: Document | 'outside' | null; section: string }> {
  const text = fs.readFileSync(file, 'utf8');
  const plugin = /^plugins\/([^/]+)\//.exec(path.relative(ROOT, file))?.[1];
  let current: Document | 'outside' | null = null;
  const out: Array<{ line: number; document: Document | 'outside' | null; section: string }> = [];
  for (let at = 0; at < text.length; at++) {
    if (!'treDTRE§'.includes(text[at]!)) continue;
    const named = NAMES.find(([re]) => ((re.lastIndex = at), re.test(text)));
    if (named) {
      current = named[1];
      continue;
    }
    SECTION.lastIndex = at;
    const m = SECTION.exec(text);
    if (!m) continue;
    const line = text.slice(0, at).split('\n').length;
    const document = current ?? (plugin ? PLUGIN_DOCUMENT[plugin] ?? null : null);
    for (const section of [m[1]!, m[2]].filter((s): s is string => s !== undefined)) out.push({ line, document, section });
    at = SECTION.lastIndex - 1;
  }
  return out;
}

describe('§ citations', () => {
  it('resolve to a section of docs/interface', () => {
    const known = new Map(DOCUMENTS.map((d) => [d, headings(d)]));
    const broken: string[] = [];
    let checked = 0;
    for (const file of filesToCheck()) {
      for (const { line, document, section } of citations(file)) {
        const where = `${path.relative(ROOT, file)}:${line}`;
        if (document === 'outside') broken.push(`${where}: §${section} cites a document outside the repository`);
        else if (document === null) broken.push(`${where}: §${section} names no document`);
        else if (!known.get(document)!.has(section)) broken.push(`${where}: ${document}.md has no §${section}`);
        else checked++;
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });
});
