import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Bundle {
  name: string;
  /** `js` or `css`. */
  ext: string;
  code: Buffer;
  /** First 16 hex characters of the content's SHA-256. */
  hash: string;
}

export interface ManifestEntry {
  file: string;
  hash: string;
}

export const MANIFEST = 'manifest.json';
const ENTRY = /^(.+)\.entry\.(ts|css)$/;

/**
 * The public name of a browser entry point, from its path below the package
 * root: `plugins/<plugin>/client/<file>.entry.ts` is `<plugin>-<file>`, any
 * other `<dir>/<file>.entry.ts` is `<file>`.
 */
export function assetName(entry: string): { name: string; ext: string } {
  const parts = entry.split(/[\\/]/);
  const match = ENTRY.exec(parts[parts.length - 1] ?? '');
  if (!match) throw new Error(`browser entry points are named <name>.entry.ts or .entry.css: ${entry}`);
  const plugin = parts[0] === 'plugins' && parts.length > 2 ? `${parts[1]}-` : '';
  return { name: `${plugin}${match[1]}`, ext: match[2] === 'css' ? 'css' : 'js' };
}

/** Entry points of `core/assets/client/` and of every plugin's `client/` folder and its subfolders, relative to `root`. */
export function discoverEntries(root: string): string[] {
  const plugins = path.join(root, 'plugins');
  const dirs = [path.join('core', 'assets', 'client')];
  if (fs.existsSync(plugins)) for (const plugin of fs.readdirSync(plugins).sort()) dirs.push(path.join('plugins', plugin, 'client'));
  const entries: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(path.join(root, dir))) return;
    for (const item of fs.readdirSync(path.join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (item.isDirectory()) walk(path.join(dir, item.name));
      else if (ENTRY.test(item.name)) entries.push(path.join(dir, item.name));
    }
  };
  for (const dir of dirs) walk(dir);
  return entries;
}

/** Bundles and minifies one entry (TypeScript or CSS) for browsers with esbuild. */
export async function bundle(root: string, entry: string): Promise<Bundle> {
  // Loaded here: a server whose bundles were built ahead (npm run build) never needs esbuild.
  const { build } = await import('esbuild');
  const { name, ext } = assetName(entry);
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: ext === 'js' ? 'iife' : undefined,
    target: ['es2020'],
    legalComments: 'none',
    logLevel: 'silent',
    absWorkingDir: root,
  });
  const code = Buffer.from(result.outputFiles[0]!.contents);
  return { name, ext, code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

/** Pre-bundles every entry into `outDir` with a manifest (scripts/bundle-clients.js). */
export async function bundleAll(root: string, outDir: string): Promise<Record<string, ManifestEntry>> {
  fs.mkdirSync(outDir, { recursive: true });
  const manifest: Record<string, ManifestEntry> = {};
  for (const entry of discoverEntries(root)) {
    const b = await bundle(root, entry);
    const file = `${b.name}.${b.hash}.${b.ext}`;
    fs.writeFileSync(path.join(outDir, file), b.code);
    manifest[`${b.name}.${b.ext}`] = { file, hash: b.hash };
  }
  fs.writeFileSync(path.join(outDir, MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}
