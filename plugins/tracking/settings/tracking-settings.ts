import ipaddr from 'ipaddr.js';
import { badRequest, isRole, parseBoolean, parseChoice, parseLines, type PluginSettings, type SettingField } from '../../../core';
import { parseBlockRule } from './block-rules';

export type PrivacyLevel = 'cookie' | 'private_mode' | 'fingerprint';

/** True for one IPv4/IPv6 address or CIDR range. */
export function isIpOrCidr(value: string): boolean {
  if (value.includes('/')) {
    try {
      ipaddr.parseCIDR(value);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(value);
}

const toggle = (key: string, label: string, help: string, extra: Partial<SettingField<boolean>> = {}): SettingField<boolean> => ({
  key,
  label,
  help,
  section: 'Tracking',
  type: 'boolean',
  default: false,
  parse: parseBoolean,
  ...extra,
});

const PER_SITE = { perSite: true } as const;

/**
 * The tracking settings of tracking.md §2.5. What a site's pages do (how
 * visitors are told apart, what is tracked and excluded) is per site; how the
 * scripts are served (turbo, ghost, headless, combined) is one choice for the
 * install, since every site loads the same files.
 */
export function registerTrackingSettings(settings: PluginSettings): void {
  settings.register<PrivacyLevel>({
    key: 'privacy_level',
    label: 'Visitor identification',
    help: 'Cookie is the most accurate for returning visitors; Cookieless hashes IP, browser and a daily salt; Cookieless fingerprint recognises returning visitors without a cookie.',
    section: 'Tracking',
    type: 'select',
    choices: [
      { value: 'cookie', label: 'Cookie' },
      { value: 'private_mode', label: 'Cookieless' },
      { value: 'fingerprint', label: 'Cookieless fingerprint' },
    ],
    default: 'cookie',
    perSite: true,
    parse: parseChoice(['cookie', 'private_mode', 'fingerprint']) as (raw: unknown) => PrivacyLevel,
  });
  settings.register(toggle('enable_do_not_track', 'Honour Do Not Track', 'Visitors whose browser sends DNT: 1 are not tracked.', PER_SITE));
  settings.register(toggle('enable_turbo_mode', 'Turbo mode', 'Load the script deferred in the footer instead of async.'));
  settings.register(toggle('track_url_change', 'Track URL changes', 'Count single-page navigation (query string included) as pageviews.', PER_SITE));
  settings.register(
    toggle('track_external_links', 'Track outbound links', 'Record clicks on links to other sites.', { tier: 'creator', perSite: true }),
  );
  settings.register(toggle('filtering_by_domain', 'Filter by domain', 'Store the host of each session so statistics can be filtered by domain.', PER_SITE));
  settings.register({
    key: 'custom_block_rules',
    perSite: true,
    label: 'Custom block rules',
    help: 'One rule per line, matched against URL, referrer and user agent: plain text (case-insensitive) or /regex/flags with flags i, m, s, x, u.',
    section: 'Exclusions',
    type: 'textarea',
    default: '',
    parse: parseLines((line) => {
      const rule = parseBlockRule(line);
      return 'error' in rule ? rule.error : null;
    }),
  });
  settings.register({
    key: 'ip_blocklist',
    perSite: true,
    label: 'Blocked IP addresses',
    help: 'One IPv4 or IPv6 address or CIDR range per line.',
    section: 'Exclusions',
    type: 'textarea',
    default: '',
    parse: parseLines((line) => (isIpOrCidr(line) ? null : 'not an IP address or CIDR range')),
  });
  settings.register<string[]>({
    key: 'user_role_blocklist',
    perSite: true,
    label: 'Excluded roles',
    help: 'Signed-in users with these roles are not tracked.',
    section: 'Exclusions',
    type: 'multiselect',
    choices: [
      { value: 'administrator', label: 'Administrator' },
      { value: 'editor', label: 'Editor' },
    ],
    default: [],
    parse: (raw) => {
      const list = raw === undefined || raw === null || raw === '' ? [] : Array.isArray(raw) ? raw : [raw];
      for (const role of list) if (!isRole(role)) throw badRequest(`Unknown role: ${String(role).slice(0, 40)}`);
      return [...new Set(list as string[])];
    },
  });
  settings.register(toggle('ghost_mode', 'Ghost mode', 'Serve the tracker under obfuscated file names.'));
  settings.register(toggle('headless', 'Headless', 'Do not offer the tracking script; the tracked site sends hits through the API.'));
  settings.register(toggle('combine_vars_and_script', 'Combine options and script', 'Inline the tracking options into one pre-built script.'));
}
