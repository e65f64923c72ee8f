import { DEFAULT_SITE_ID, type OptionSnapshot, type PluginContext } from '../../../core';
import { type BlockRule, parseBlockRule } from '../settings/block-rules';
import type { PrivacyLevel } from '../settings/tracking-settings';

/** The settings of tracking.md §2.5 the pipeline reads, parsed. */
export interface TrackingConfig {
  privacyLevel: PrivacyLevel;
  doNotTrack: boolean;
  turboMode: boolean;
  trackUrlChange: boolean;
  trackExternalLinks: boolean;
  filteringByDomain: boolean;
  headless: boolean;
  blockRules: BlockRule[];
  ipBlocklist: string[];
  roleBlocklist: string[];
}

const KEYS = [
  'privacy_level',
  'enable_do_not_track',
  'enable_turbo_mode',
  'track_url_change',
  'track_external_links',
  'filtering_by_domain',
  'headless',
  'custom_block_rules',
  'ip_blocklist',
  'user_role_blocklist',
] as const;

type Ctx = Pick<PluginContext, 'settings' | 'options' | 'logger' | 'config'>;

const lines = (text: unknown) => (typeof text === 'string' ? text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean) : []);

/** One site's parsed settings and the snapshot they were last checked against. */
interface Cached {
  version: number;
  signature: string;
  value: TrackingConfig;
}

/**
 * Tracking settings of each site as the pipeline sees them. Their options are
 * autoloaded (the default site's stored with their defaults at start when
 * absent; another site's saved autoloaded, its defaults otherwise), so reading
 * them costs no query: the kernel's option cache reloads them at most every
 * few seconds and at once after a change on this node. A hit reads its site's
 * once, without waiting (`current(siteId)`); parsing happens only when a value
 * of that site changed.
 */
export class TrackingConfigCache {
  private readonly sites = new Map<number, Cached>();

  constructor(private readonly ctx: Ctx) {}

  /** Stores absent tracking settings with their defaults, autoloaded. */
  async materialise(): Promise<void> {
    for (const key of KEYS) {
      const field = this.ctx.settings.list().find((f) => f.key === key);
      await this.ctx.options.add(key, field ? field.default : await this.ctx.settings.get(key), { autoload: true });
    }
  }

  /** A site's settings from the options in memory; null right after a change on this node, until `get()` has loaded them. */
  current(siteId = DEFAULT_SITE_ID): TrackingConfig | null {
    const snapshot = this.ctx.options.snapshot();
    return snapshot && this.from(snapshot, siteId);
  }

  async get(siteId = DEFAULT_SITE_ID): Promise<TrackingConfig> {
    return this.current(siteId) ?? this.from(await this.ctx.options.loaded(), siteId);
  }

  private from(snapshot: OptionSnapshot, siteId: number): TrackingConfig {
    const cached = this.sites.get(siteId);
    if (cached && snapshot.version === cached.version) return cached.value;
    const raw = KEYS.map((key) => this.ctx.settings.read(snapshot, key, siteId));
    const signature = JSON.stringify(raw);
    const value = cached && signature === cached.signature ? cached.value : this.parse(raw);
    this.sites.set(siteId, { version: snapshot.version, signature, value });
    return value;
  }

  private parse([privacy, dnt, turbo, urlChange, links, byDomain, headless, rules, ips, roles]: unknown[]): TrackingConfig {
    const blockRules: BlockRule[] = [];
    for (const line of lines(rules)) {
      const rule = parseBlockRule(line);
      if ('error' in rule) this.ctx.logger.warn({ rule: line.slice(0, 200) }, `custom block rule skipped: ${rule.error}`);
      else blockRules.push(rule);
    }
    return {
      privacyLevel: privacy === 'private_mode' || privacy === 'fingerprint' ? privacy : 'cookie',
      doNotTrack: dnt === true,
      turboMode: turbo === true,
      trackUrlChange: urlChange === true,
      trackExternalLinks: links === true,
      filteringByDomain: byDomain === true,
      headless: headless === true || this.ctx.config.headlessDomain !== null,
      blockRules,
      ipBlocklist: lines(ips),
      roleBlocklist: Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [],
    };
  }
}
