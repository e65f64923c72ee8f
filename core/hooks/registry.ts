import { AsyncSeriesHook, AsyncSeriesWaterfallHook } from 'tapable';
import type { SvcActions, SvcFilters, SvcSpecActions, SvcSpecFilters } from '../../hooks';
import type { SvcLogger } from '../logger';
import { isPending, type Soon } from '../soon';
import { ACTION_ARGS, FILTER_ARGS } from './arg-names';

/** WordPress priorities: lower runs first, 10 by default. Carried by tapable's `stage`. */
export const Priority = Object.freeze({
  FIRST: Number.MIN_SAFE_INTEGER,
  EARLY: 5,
  DEFAULT: 10,
  LATE: 20,
  /** The spec's "highest priority": runs after everything else. */
  LAST: Number.MAX_SAFE_INTEGER,
});

const unknownHook = (name: PropertyKey) => new Error(`Unknown hook ${String(name)}: declare it before use`);


export type FilterName = keyof SvcFilters;
export type ActionName = keyof SvcActions;
export type FilterValue<K extends FilterName> = SvcFilters[K][0];
export type FilterHandler<K extends FilterName> = (...args: SvcFilters[K]) => FilterValue<K> | Promise<FilterValue<K>>;
export type ActionHandler<K extends ActionName> = (...args: SvcActions[K]) => void | Promise<void>;

export interface TapOptions {
  priority?: number;
}

/** Hook names a plugin added by augmenting the maps. */
type DeclaredFilter = Exclude<FilterName, keyof SvcSpecFilters>;
type DeclaredAction = Exclude<ActionName, keyof SvcSpecActions>;

interface TapMeta {
  plugin: string;
}
/** A handler as the registry calls it: isolated (never throws, never rejects), a value or a promise of one. */
type IsolatedFn = (...args: unknown[]) => Soon<unknown>;
/** tapable's generics cannot follow a per-name tuple through a Map; the typed methods guard the boundary. */
type LooseHook = {
  /** In call order: tapable keeps them sorted by stage, then by registration. */
  taps: Array<{ name: string; stage?: number; plugin?: string; fn: unknown }>;
  intercept(i: { register(tap: { fn: unknown; plugin?: string; name: string }): unknown }): void;
  tapPromise(options: { name: string; stage: number; plugin: string }, fn: (...args: unknown[]) => unknown): void;
};

/** Runs a filter's taps from `from` on, each on the value the previous one gave (a handler answering undefined keeps it). */
function waterfall(taps: LooseHook['taps'], args: unknown[], from = 0): Soon<unknown> {
  for (let i = from; i < taps.length; i++) {
    const out = (taps[i]!.fn as IsolatedFn)(...args);
    if (isPending(out)) {
      return out.then((value) => {
        if (value !== undefined) args[0] = value;
        return waterfall(taps, args, i + 1);
      });
    }
    if (out !== undefined) args[0] = out;
  }
  return args[0];
}

/** Runs an action's taps from `from` on, one after another. */
function series(taps: LooseHook['taps'], args: readonly unknown[], from = 0): Soon<void> {
  for (let i = from; i < taps.length; i++) {
    const out = (taps[i]!.fn as IsolatedFn)(...args);
    if (isPending(out)) return out.then(() => series(taps, args, i + 1));
  }
}

/**
 * The typed hook bus. Filters are waterfalls, actions series, both ordered by
 * priority; a handler may answer at once or with a promise, and the next one
 * runs when it has answered. A throwing handler is logged with its plugin and
 * hook and skipped: a filter passes its input on unchanged, an action carries
 * on. tapable keeps the taps and their order; the registry calls them itself,
 * so a run whose handlers all answer at once answers at once (`applyFiltersSoon`).
 */
export class HookRegistry {
  private readonly filters = new Map<string, LooseHook>();
  private readonly actions = new Map<string, LooseHook>();
  private readonly actionArgNames = new Map<string, readonly string[]>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly logger: SvcLogger) {
    for (const [name, args] of Object.entries(FILTER_ARGS)) this.createFilter(name, args);
    for (const [name, args] of Object.entries(ACTION_ARGS)) this.createAction(name, args);
  }

  declareFilter<K extends DeclaredFilter>(name: K, argNames: readonly string[]): void {
    if (!this.filters.has(name as string)) this.createFilter(name as string, argNames);
  }

  declareAction<K extends DeclaredAction>(name: K, argNames: readonly string[]): void {
    if (!this.actions.has(name as string)) this.createAction(name as string, argNames);
  }

  addFilter<K extends FilterName>(name: K, handler: FilterHandler<K>, options: TapOptions = {}, plugin = 'core'): void {
    this.hook(this.filters, name).tapPromise(
      { name: plugin, stage: options.priority ?? Priority.DEFAULT, plugin },
      handler as (...args: unknown[]) => unknown,
    );
  }

  addAction<K extends ActionName>(name: K, handler: ActionHandler<K>, options: TapOptions = {}, plugin = 'core'): void {
    this.hook(this.actions, name).tapPromise(
      { name: plugin, stage: options.priority ?? Priority.DEFAULT, plugin },
      handler as (...args: unknown[]) => unknown,
    );
  }

  hasFilter(name: FilterName): boolean {
    return (this.filters.get(name as string)?.taps.length ?? 0) > 0;
  }

  /** Whether a plugin other than `plugin` taps the filter or action `name`. */
  tappedBy(name: FilterName | ActionName, except: string): boolean {
    const foreign = (hook: LooseHook | undefined) => hook !== undefined && hook.taps.some((tap) => (tap.plugin ?? tap.name) !== except);
    return foreign(this.filters.get(name as string)) || foreign(this.actions.get(name as string));
  }

  /** Argument names of an action (documented or declared), or undefined when no such action exists. */
  actionArgs(name: string): readonly string[] | undefined {
    return this.actionArgNames.get(name);
  }

  hasAction(name: ActionName): boolean {
    return (this.actions.get(name as string)?.taps.length ?? 0) > 0;
  }

  applyFilters<K extends FilterName>(name: K, ...args: SvcFilters[K]): Promise<FilterValue<K>> {
    try {
      return Promise.resolve(this.applyFiltersSoon(name, ...args));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The filtered value at once when every handler answers at once (always when none is tapped), else a promise of it. */
  applyFiltersSoon<K extends FilterName>(name: K, ...args: SvcFilters[K]): Soon<FilterValue<K>> {
    return waterfall(this.hook(this.filters, name).taps, [...args]) as Soon<FilterValue<K>>;
  }

  doAction<K extends ActionName>(name: K, ...args: SvcActions[K]): Promise<void> {
    try {
      return Promise.resolve(this.doActionSoon(name, ...args));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Runs an action's handlers; undefined when all of them answered at once, else a promise of their end. */
  doActionSoon<K extends ActionName>(name: K, ...args: SvcActions[K]): Soon<void> {
    return series(this.hook(this.actions, name).taps, args);
  }

  /** Fires an action without waiting; `settled()` waits for every queued one. */
  queueAction<K extends ActionName>(name: K, ...args: SvcActions[K]): void {
    const run = this.doAction(name, ...args).finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** A view for one plugin: its taps are tagged with its name and applied through `defer`. */
  forPlugin(plugin: string, defer?: (apply: () => void) => void): PluginHooks {
    return new PluginHooks(this, plugin, defer);
  }

  private hook(map: Map<string, LooseHook>, name: PropertyKey): LooseHook {
    const hook = map.get(name as string);
    if (!hook) throw unknownHook(name);
    return hook;
  }

  private createFilter(name: string, argNames: readonly string[]): void {
    const hook = new AsyncSeriesWaterfallHook<unknown[], unknown, TapMeta>([...argNames] as never, name) as unknown as LooseHook;
    this.isolate(hook, name, (args) => args[0]);
    this.filters.set(name, hook);
  }

  private createAction(name: string, argNames: readonly string[]): void {
    const hook = new AsyncSeriesHook<unknown[], TapMeta>([...argNames] as never, name) as unknown as LooseHook;
    this.isolate(hook, name, () => undefined);
    this.actions.set(name, hook);
    this.actionArgNames.set(name, Object.freeze([...argNames]));
  }

  /** The kernel's single error policy for taps (docs/adr/0001-hook-errors.md). */
  private isolate(hook: LooseHook, name: string, fallback: (args: unknown[]) => unknown): void {
    const logger = this.logger;
    hook.intercept({
      register(tap) {
        const fn = tap.fn as (...args: unknown[]) => unknown;
        const plugin = tap.plugin ?? tap.name;
        const failed = (err: unknown, args: unknown[]) => {
          logger.error({ plugin, hook: name, err }, `hook handler of ${plugin} on ${name} failed; skipped`);
          return fallback(args);
        };
        const isolated: IsolatedFn = (...args) => {
          try {
            const out = fn(...args);
            return isPending(out) ? Promise.resolve(out).catch((err: unknown) => failed(err, args)) : out;
          } catch (err) {
            return failed(err, args);
          }
        };
        tap.fn = isolated;
        return tap;
      },
    });
  }
}

/**
 * A plugin's handle on the hook bus: taps carry the plugin's name, and taps and
 * declarations go through `defer` so a plugin that fails to register leaves
 * nothing behind.
 */
export class PluginHooks {
  constructor(
    private readonly registry: HookRegistry,
    readonly plugin: string,
    private readonly defer: (apply: () => void) => void = (apply) => apply(),
  ) {}

  addFilter<K extends FilterName>(name: K, handler: FilterHandler<K>, options: TapOptions = {}): void {
    this.defer(() => this.registry.addFilter(name, handler, options, this.plugin));
  }

  addAction<K extends ActionName>(name: K, handler: ActionHandler<K>, options: TapOptions = {}): void {
    this.defer(() => this.registry.addAction(name, handler, options, this.plugin));
  }

  declareFilter<K extends DeclaredFilter>(name: K, argNames: readonly string[]): void {
    this.defer(() => this.registry.declareFilter(name, argNames));
  }

  declareAction<K extends DeclaredAction>(name: K, argNames: readonly string[]): void {
    this.defer(() => this.registry.declareAction(name, argNames));
  }

  applyFilters<K extends FilterName>(name: K, ...args: SvcFilters[K]): Promise<FilterValue<K>> {
    return this.registry.applyFilters(name, ...args);
  }

  applyFiltersSoon<K extends FilterName>(name: K, ...args: SvcFilters[K]): Soon<FilterValue<K>> {
    return this.registry.applyFiltersSoon(name, ...args);
  }

  doAction<K extends ActionName>(name: K, ...args: SvcActions[K]): Promise<void> {
    return this.registry.doAction(name, ...args);
  }

  doActionSoon<K extends ActionName>(name: K, ...args: SvcActions[K]): Soon<void> {
    return this.registry.doActionSoon(name, ...args);
  }

  queueAction<K extends ActionName>(name: K, ...args: SvcActions[K]): void {
    this.registry.queueAction(name, ...args);
  }

  hasFilter(name: FilterName): boolean {
    return this.registry.hasFilter(name);
  }

  hasAction(name: ActionName): boolean {
    return this.registry.hasAction(name);
  }

  /** Whether another plugin (or the kernel) taps the filter or action `name`. */
  tappedByOthers(name: FilterName | ActionName): boolean {
    return this.registry.tappedBy(name, this.plugin);
  }
}

/** The hook surface handed to plugins and services. */
export type Hooks = Pick<
  PluginHooks,
  | 'addFilter'
  | 'addAction'
  | 'applyFilters'
  | 'applyFiltersSoon'
  | 'doAction'
  | 'doActionSoon'
  | 'queueAction'
  | 'hasFilter'
  | 'hasAction'
  | 'tappedByOthers'
  | 'declareFilter'
  | 'declareAction'
>;
