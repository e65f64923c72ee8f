import { SvcError } from '../errors';

/**
 * Services plugins offer each other, by name. A providing plugin augments this
 * interface (`declare module '<path>/core/plugins/services' { interface SvcServices
 * { reports: ReportsService } }`), so consumers get the type without importing
 * the provider's files.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SvcServices {}

export type ServiceName = keyof SvcServices;

/** Named services between plugins; the kernel owns the registry. */
export class ServiceRegistry {
  private readonly services = new Map<PropertyKey, unknown>();

  provide<K extends ServiceName>(name: K, service: SvcServices[K]): void {
    if (this.services.has(name)) throw new SvcError('SVC_ERR_SERVICE_DUPLICATE', `service ${String(name)} is already provided`, 500);
    this.services.set(name, service);
  }

  /** The service, or undefined when its plugin is not loaded. */
  get<K extends ServiceName>(name: K): SvcServices[K] | undefined {
    return this.services.get(name) as SvcServices[K] | undefined;
  }

  /** The service a plugin cannot work without (its provider is in `requires`). */
  require<K extends ServiceName>(name: K): SvcServices[K] {
    const service = this.get(name);
    if (service === undefined) throw new SvcError('SVC_ERR_SERVICE_MISSING', `service ${String(name)} is not provided by any loaded plugin`, 500);
    return service;
  }
}
