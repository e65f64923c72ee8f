import type { Options } from '../../../core';

export const FIRST_DOMAIN_OPTION = 'svc_first_domain';
export const MULTI_DOMAIN_OPTION = 'svc_is_multi_domain';

/**
 * Multi-domain detection (tracking.md §3.2): the first hostname seen is kept,
 * and a hit from another one sets `svc_is_multi_domain`. Both options are
 * autoloaded, so a hit reads them from memory and writes only on a change.
 */
export class DomainWatch {
  constructor(private readonly options: Options) {}

  /** True when a hit from `host` changes nothing (read without waiting); `observe` otherwise. */
  known(host: string): boolean {
    if (host === '') return true;
    const values = this.options.snapshot()?.values;
    return values !== undefined && (values.get(FIRST_DOMAIN_OPTION) === host || values.get(MULTI_DOMAIN_OPTION) === true);
  }

  async observe(host: string): Promise<void> {
    if (host === '') return;
    const first = await this.options.get<string>(FIRST_DOMAIN_OPTION);
    if (first === undefined) {
      if (await this.options.add(FIRST_DOMAIN_OPTION, host, { autoload: true })) return;
      return this.observe(host);
    }
    if (first !== host && (await this.options.get<boolean>(MULTI_DOMAIN_OPTION)) !== true) {
      await this.options.set(MULTI_DOMAIN_OPTION, true, { autoload: true });
    }
  }
}
