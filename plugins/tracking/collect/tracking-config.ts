import type { OptionSnapshot, PluginContext } from '../../../core';
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

/**
 * Tracking settings as the pipeline sees them. Their options are autoloaded
 * (stored with their defaults at start when absent), so reading them costs no
 * query: the kernel's option cache reloads them at most every few seconds and
 * at once after a change on this node. A hit reads them once, without waiting
 * (`current()`); parsing happens only when a value changed.
 */
export class TrackingConfigCache {
  private version = -1;
  private signature = '';
  private value: TrackingConfig | null = null;

  constructor(private readonly ctx: Ctx) {}

  /** Stores absent tracking settings with their defaults, autoloaded. */
  async materialise(): Promise<void> {
    for (const key of KEYS) {
      const field = this.ctx.settings.list().find((f) => f.key === key);
      await this.ctx.options.add(key, field ? field.default : await this.ctx.settings.get(key), { autoload: true });
    }
  }

  /** The settings from the options in memory; null right after a change on this node, until `get()` has loaded them. */
  current(): TrackingConfig | null {
    const snapshot = this.ctx.options.snapshot();
    return snapshot && this.from(snapshot);
  }

  async get(): Promise<TrackingConfig> {
    return this.current() ?? this.from(await this.ctx.options.loaded());
  }

  private from(snapshot: OptionSnapshot): TrackingConfig {
    if (this.value && snapshot.version === this.version) return this.value;
    const raw = KEYS.map((key) => this.ctx.settings.read(snapshot, key));
    const signature = JSON.stringify(raw);
    if (!this.value || signature !== this.signature) {
      this.value = this.parse(raw);
      this.signature = signature;
    }
    this.version = snapshot.version;
    return this.value;
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
