import type { IncomingHttpHeaders } from 'node:http';
import type { BlockRule } from '../settings/block-rules';
import { readDataList } from './data-files';
import { IpMatcher } from './ip';
import { hostOf } from './text';

/** Why a hit was dropped (tracking.md §7); '' is the empty result of a heartbeat without a prior row. */
export type DropOutcome =
  | 'ip blocked'
  | 'blocked by custom rule'
  | 'referrer is spam'
  | 'bot'
  | 'do not track'
  | 'excluded role'
  | 'unknown site'
  | '';

const SPAM_HOSTS: ReadonlySet<string> = new Set(readDataList('referrer-spam.txt').map((h) => h.toLowerCase()));

/** True when the referrer's host, or a parent domain of it, is on the shipped spam list. */
export function isReferrerSpam(referrer: string): boolean {
  let host = hostOf(referrer).replace(/:\d+$/, '');
  while (host.includes('.')) {
    if (SPAM_HOSTS.has(host)) return true;
    host = host.slice(host.indexOf('.') + 1);
  }
  return false;
}

/** The first custom rule matching URL, referrer or user agent. */
export function matchingRule(rules: readonly BlockRule[], values: readonly string[]): BlockRule | undefined {
  return rules.find((rule) => values.some((v) => v !== '' && rule.test(v)));
}

export function sendsDoNotTrack(headers: IncomingHttpHeaders): boolean {
  return headers.dnt === '1';
}

/** Parsed blocklists, reused while the list (after `svc_ip_blocklist`) stays the same. */
export class BlocklistCache {
  private key = '';
  private matcher = new IpMatcher([]);

  get(entries: readonly string[]): IpMatcher {
    const key = entries.join('\n');
    if (key !== this.key) {
      this.matcher = new IpMatcher(entries);
      this.key = key;
    }
    return this.matcher;
  }
}
