import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';
import { readDataList } from './data-files';
import { cleanText } from './text';

/** What the lookup tables store for one user agent (tracking.md §2.3). */
export interface ParsedAgent {
  bot: boolean;
  /** '' when the parser gave none or the name is not on the allowlist. */
  browser: string;
  browserVersion: string;
  platform: string;
  /** The operating system's version (e.g. '10', '17.1'), '' when the agent gives none. */
  platformVersion: string;
  device: string;
}

const NO_AGENT: ParsedAgent = Object.freeze({ bot: false, browser: '', browserVersion: '', platform: '', platformVersion: '', device: '' });

/** Names ua-parser-js can emit; anything else is a crafted value. */
export const BROWSER_ALLOWLIST: ReadonlySet<string> = new Set(readDataList('browser-allowlist.txt'));

export function isAllowedBrowser(name: string): boolean {
  return BROWSER_ALLOWLIST.has(name.toLowerCase().replace(/\s+/g, ' ').trim());
}

/** Parses user agents with ua-parser-js and isbot; results are kept in a bounded cache. */
export class AgentParser {
  private readonly cache = new LRUCache<string, ParsedAgent>({ max: 5_000 });

  parse(userAgent: string): ParsedAgent {
    if (userAgent === '') return NO_AGENT;
    const hit = this.cache.get(userAgent);
    if (hit) return hit;
    const parsed = this.compute(userAgent);
    this.cache.set(userAgent, parsed);
    return parsed;
  }

  private compute(userAgent: string): ParsedAgent {
    if (isbot(userAgent)) return { ...NO_AGENT, bot: true };
    const result = new UAParser(userAgent).getResult();
    const name = cleanText(result.browser.name, 60);
    const allowed = name !== '' && isAllowedBrowser(name);
    return {
      bot: false,
      browser: allowed ? name : '',
      browserVersion: allowed ? cleanText(result.browser.major ?? '', 20).replace(/[^\w.]/g, '') : '',
      platform: cleanText(result.os.name ?? '', 60).replace(/[<>"'&]/g, '') || 'Unknown',
      platformVersion: cleanText(result.os.version ?? '', 20).replace(/[^\w.]/g, ''),
      device: cleanText(result.device.type ?? '', 30).replace(/[<>"'&]/g, '') || 'desktop',
    };
  }
}
