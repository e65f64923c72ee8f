import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Request, type Response, Router } from 'express';
import { IMMUTABLE, REVALIDATE, sendCached } from '../http/cached-response';
import type { SvcLogger } from '../logger';
import { ROOT_DIR } from '../paths';
import { type Bundle, MANIFEST, type ManifestEntry, assetName, bundle } from './bundler';

export interface AssetDef {
  /** Entry point below the package root, e.g. `plugins/tracking/client/dashboard.entry.ts`. */
  entry: string;
  /** URL path below `{base_url}`; default `/svc/assets/<name>.<js|css>`. */
  path?: string;
}

/** `ctx.assets`. */
export interface AssetsApi {
  /** Serves a browser entry point (registering the same entry again is a no-op); returns its URL path (with the base path). */
  register(def: AssetDef): string;
  /** The URL with `?v=<content hash>`, cached by browsers for a year (bundles the entry when needed). */
  versionedUrl(entry: string): Promise<string>;
  /** The bundled code and its content hash, for code served in another form too (inlined, copied); bundles the entry when needed. */
  bundle(entry: string): Promise<{ code: Buffer; hash: string }>;
}

const TYPES: Record<string, string> = { js: 'application/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

interface Registered {
  entry: string;
  name: string;
  ext: string;
  urlPath: string;
  built: Promise<Bundle & { gzipped: Buffer }> | null;
}

/**
 * Browser code bundled with esbuild: read from `dist/assets` when the build
 * pre-bundled it (scripts/bundle-clients.js), else bundled from source on the
 * first request, and gzipped once for clients that accept it. Answers carry a
 * content-hash ETag; URLs with the matching `?v=` are cached for a year,
 * others revalidate.
 */
export class AssetService {
  readonly router = Router();
  private readonly byPath = new Map<string, Registered>();
  private readonly byEntry = new Map<string, Registered>();
  private manifest: Record<string, ManifestEntry> | null = null;

  constructor(
    private readonly basePath: string,
    private readonly logger: SvcLogger,
    private readonly root = ROOT_DIR,
  ) {
    // Middleware, not a route: a catch-all route would make express answer every OPTIONS request itself.
    this.router.use((req, res, next) => {
      const asset = req.method === 'GET' || req.method === 'HEAD' ? this.byPath.get(req.path) : undefined;
      if (!asset) return next();
      this.serve(asset, req, res).catch(next);
    });
  }

  /** The URL path (with the base path) `def` is served at. */
  urlOf(def: AssetDef): string {
    const { name, ext } = assetName(def.entry);
    return `${this.basePath}${def.path ?? `/svc/assets/${name}.${ext}`}`;
  }

  register(def: AssetDef): string {
    const entry = def.entry.split(path.sep).join('/');
    const { name, ext } = assetName(entry);
    const urlPath = def.path ?? `/svc/assets/${name}.${ext}`;
    const existing = this.byEntry.get(entry);
    if (existing && existing.urlPath === urlPath) return `${this.basePath}${urlPath}`;
    if (this.byPath.has(urlPath) || existing) throw new Error(`asset ${entry} is registered twice with different paths`);
    const asset: Registered = { entry, name, ext, urlPath, built: null };
    this.byPath.set(urlPath, asset);
    this.byEntry.set(entry, asset);
    return `${this.basePath}${urlPath}`;
  }

  async versionedUrl(entry: string): Promise<string> {
    const asset = this.registered(entry);
    return `${this.basePath}${asset.urlPath}?v=${(await this.load(asset)).hash}`;
  }

  async bundle(entry: string): Promise<{ code: Buffer; hash: string }> {
    const { code, hash } = await this.load(this.registered(entry));
    return { code, hash };
  }

  private registered(entry: string): Registered {
    const asset = this.byEntry.get(entry.split(path.sep).join('/'));
    if (!asset) throw new Error(`asset ${entry} is not registered`);
    return asset;
  }

  private load(asset: Registered): Promise<Bundle & { gzipped: Buffer }> {
    asset.built ??= this.read(asset).then((b) => ({ ...b, gzipped: gzipSync(b.code, { level: 9 }) })).catch((err: unknown) => {
      asset.built = null;
      throw err;
    });
    return asset.built;
  }

  private async read(asset: Registered): Promise<Bundle> {
    const distDir = path.join(this.root, 'assets');
    this.manifest ??= fs.existsSync(path.join(distDir, MANIFEST))
      ? (JSON.parse(fs.readFileSync(path.join(distDir, MANIFEST), 'utf8')) as Record<string, ManifestEntry>)
      : {};
    const prebuilt = this.manifest[`${asset.name}.${asset.ext}`];
    if (prebuilt) return { name: asset.name, ext: asset.ext, hash: prebuilt.hash, code: fs.readFileSync(path.join(distDir, prebuilt.file)) };
    const started = Date.now();
    const built = await bundle(this.root, asset.entry);
    this.logger.info({ asset: asset.name, ms: Date.now() - started, bytes: built.code.length }, 'browser bundle built');
    return built;
  }

  private async serve(asset: Registered, req: Request, res: Response): Promise<void> {
    const built = await this.load(asset);
    sendCached(req, res, { code: built.code, gzipped: built.gzipped, etag: `"${built.hash}"` }, {
      cacheControl: req.query.v === built.hash ? IMMUTABLE : REVALIDATE,
      contentType: TYPES[built.ext] ?? 'application/octet-stream',
    });
  }
}
