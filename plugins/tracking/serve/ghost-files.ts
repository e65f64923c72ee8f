import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BuiltScript } from './script-response';
import type { ScriptKind } from './scripts';

/** The fixed short prefix of every obfuscated file name. */
export const GHOST_PREFIX = 's';
/** The folder below `{base_url}` (and below the data folder) ghost files live in. */
export const GHOST_PATH = '/js';

export type GhostKind = 'embed' | ScriptKind;
const KINDS: readonly GhostKind[] = ['embed', 'tracker', 'cookieless', 'goals'];

/**
 * Ghost mode (tracking.md §2.5): the scripts under obfuscated names (the fixed
 * prefix and 8 hex characters derived from the site's base URL, stable
 * across restarts and nodes), written to `<data dir>/js/` and served from
 * there. A file is rewritten only when its content changed.
 */
export class GhostFiles {
  private readonly dir: string;
  private readonly names: ReadonlyMap<string, GhostKind>;
  /** ETag of what is on disk, per file name, as this node wrote it. */
  private readonly written = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    dataDir: string,
  ) {
    this.dir = path.join(dataDir, 'js');
    this.names = new Map(KINDS.map((kind) => [this.name(kind), kind]));
  }

  name(kind: GhostKind): string {
    return `${GHOST_PREFIX}${createHash('sha256').update(`${this.baseUrl}|${kind}`).digest('hex').slice(0, 8)}.js`;
  }

  url(kind: GhostKind): string {
    return `${this.baseUrl}${GHOST_PATH}/${this.name(kind)}`;
  }

  kindOf(file: string): GhostKind | undefined {
    return this.names.get(file);
  }

  /** Writes `script` (and its gzipped copy) as the file of `kind` when it changed; returns the paths to serve. */
  async publish(kind: GhostKind, script: BuiltScript): Promise<{ plain: string; gzipped: string }> {
    const file = path.join(this.dir, this.name(kind));
    const paths = { plain: file, gzipped: `${file}.gz` };
    if (this.written.get(file) === script.etag && (await exists(file)) && (await exists(paths.gzipped))) return paths;
    await fs.mkdir(this.dir, { recursive: true });
    await replace(paths.plain, script.code);
    await replace(paths.gzipped, script.gzipped);
    this.written.set(file, script.etag);
    return paths;
  }
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** Writes a temporary file and renames it into place, so a request never reads half a script. */
async function replace(file: string, content: Buffer): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, content);
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}
