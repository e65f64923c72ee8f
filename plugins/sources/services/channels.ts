import fs from 'node:fs';
import path from 'node:path';

export type Channel = 'search' | 'social' | 'email' | 'direct' | 'other';
export const CHANNELS: readonly Channel[] = ['search', 'social', 'email', 'direct', 'other'];

interface ChannelList {
  /** Hosts matched exactly or as a parent domain (`facebook.com` matches `m.facebook.com`). */
  domains: string[];
  /** Brand labels matched under any top-level domain (`google` matches `google.co.uk`). */
  names: string[];
}

/** Checked in this order: webmail hosts sit below search brands (`mail.google.com`). */
const ORDER: ReadonlyArray<Exclude<Channel, 'direct' | 'other'>> = ['email', 'social', 'search'];

const LISTS = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'data', 'referrer-domains.json'), 'utf8')) as Record<
  Exclude<Channel, 'direct' | 'other'>,
  ChannelList
>;

/** Lower-cased host of a referrer URL without `www.`; '' for no referrer, the text itself when it is no URL. */
export function referrerDomain(referrer: string): string {
  if (!referrer) return '';
  try {
    return new URL(referrer.includes('://') ? referrer : `https://${referrer}`).hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
  } catch {
    return referrer.trim().toLowerCase().slice(0, 255);
  }
}

/** Second-level and country-code pairs such as co.uk, com.au. */
const SECOND_LEVEL = /^(co|com|org|net|gov|ac|edu|ne|or)$/;

function brandOf(domain: string): string {
  const labels = domain.split('.');
  if (labels.length >= 3 && SECOND_LEVEL.test(labels[labels.length - 2]!) && labels[labels.length - 1]!.length === 2) return labels[labels.length - 3]!;
  return labels.length >= 2 ? labels[labels.length - 2]! : domain;
}

/** The channel a referrer belongs to, from the shipped domain lists. */
export function classify(domain: string): Channel {
  if (!domain) return 'direct';
  const brand = brandOf(domain);
  for (const channel of ORDER) {
    const list = LISTS[channel];
    if (list.domains.some((d) => domain === d || domain.endsWith(`.${d}`))) return channel;
    if (list.names.includes(brand)) return channel;
  }
  return 'other';
}
