import { type License, licenseAllows } from '../config';
import { SvcError, badRequest } from '../errors';
import type { OptionSnapshot, Options } from '../options/options';
import { DEFAULT_SITE_ID } from '../sites/types';
import { optionalFlag } from '../validation/readers';

export type SettingType = 'boolean' | 'select' | 'text' | 'textarea' | 'multiselect' | 'number';

/** One field of the settings page, stored as the option of the same key. */
export interface SettingField<T = unknown> {
  key: string;
  label: string;
  help?: string;
  section: string;
  type: SettingType;
  choices?: ReadonlyArray<{ value: string; label: string }>;
  default: T;
  /** Lowest license that offers the setting. */
  tier?: License;
  /**
   * A secret (API key, webhook secret): `values()` shows SECRET_MASK instead
   * of it, and saving the mask back keeps the stored value (empty clears it).
   */
  secret?: boolean;
  /**
   * Each site has its own value (see `siteOptionName`); a site that never
   * saved one has the field's default. Other fields apply to every site.
   */
  perSite?: boolean;
  /** Turns a submitted value into the stored one; throws a 400 SvcError naming the problem. */
  parse(raw: unknown): T;
}

/**
 * The option holding a setting for one site: the key itself for the default
 * site (so an install with one site keeps the option names of tracking.md
 * §2.5), `<key>:site:<id>` for another site.
 */
export function siteOptionName(key: string, siteId: number): string {
  return siteId === DEFAULT_SITE_ID ? key : `${key}:site:${siteId}`;
}

/**
 * A read-only block of the settings page, computed each time the page renders
 * (the tracking snippet to copy, for example).
 */
export interface SettingsPanel {
  key: string;
  title: string;
  render(): Promise<{ code: string | null; help: string }>;
}

export interface SaveResult {
  saved: boolean;
  /** Message per field key; nothing is saved when any field fails. */
  errors: Record<string, string>;
}

/** What the settings page shows for a stored secret. */
export const SECRET_MASK = '••••••••';

/** What a plugin sees of the settings: its registrations are held back until its `register` succeeds. */
export type PluginSettings = Pick<Settings, 'register' | 'panel' | 'panels' | 'list' | 'get' | 'read' | 'values' | 'save'>;

/** The option holding a field's value for `siteId` (the field's key unless it is per site). */
const optionOf = (field: SettingField, siteId: number) => (field.perSite ? siteOptionName(field.key, siteId) : field.key);

/** The settings page's fields, registered by the kernel and plugins. */
export class Settings {
  private readonly fields = new Map<string, SettingField>();
  private readonly panelList: SettingsPanel[] = [];

  constructor(
    private readonly options: Options,
    private readonly license: License,
  ) {}

  register<T>(field: SettingField<T>): void {
    if (this.fields.has(field.key)) throw new Error(`setting ${field.key} is registered twice`);
    this.fields.set(field.key, field as SettingField);
  }

  /** Adds a read-only panel shown above the fields; `code` is shown for copying. */
  panel(panel: SettingsPanel): void {
    if (this.panelList.some((p) => p.key === panel.key)) throw new Error(`settings panel ${panel.key} is registered twice`);
    this.panelList.push(panel);
  }

  /** A plugin's view: `register` and `panel` go through `defer`. */
  forPlugin(defer: (apply: () => void) => void): PluginSettings {
    return {
      register: (field) => defer(() => this.register(field)),
      panel: (panel) => defer(() => this.panel(panel)),
      panels: () => this.panels(),
      list: () => this.list(),
      get: (key, siteId) => this.get(key, siteId),
      read: (snapshot, key, siteId) => this.read(snapshot, key, siteId),
      values: (siteId) => this.values(siteId),
      save: (input, siteId) => this.save(input, siteId),
    };
  }

  panels(): readonly SettingsPanel[] {
    return this.panelList;
  }

  /** Fields the license offers, in registration order. */
  list(): SettingField[] {
    return [...this.fields.values()].filter((f) => licenseAllows(this.license, f.tier ?? 'free'));
  }

  /** A setting's value; for a per-site field, the value of `siteId` (the default site when not given). */
  async get<T>(key: string, siteId = DEFAULT_SITE_ID): Promise<T> {
    const field = this.field(key);
    return this.options.get<T>(optionOf(field, siteId), field.default as T);
  }

  /**
   * A setting's value in a snapshot of the autoloaded options (`options.snapshot()`),
   * without waiting; its default when the snapshot does not hold it. For settings
   * stored autoloaded, as a hot path's are (a site's saved values are).
   */
  read<T>(snapshot: OptionSnapshot, key: string, siteId = DEFAULT_SITE_ID): T {
    const field = this.field(key);
    const name = optionOf(field, siteId);
    return (snapshot.values.has(name) ? snapshot.values.get(name) : field.default) as T;
  }

  /** Values for display, per-site fields those of `siteId`: secrets are masked. */
  async values(siteId = DEFAULT_SITE_ID): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const field of this.list()) {
      const value = await this.options.get(optionOf(field, siteId), field.default);
      out[field.key] = field.secret ? (value ? SECRET_MASK : '') : value;
    }
    return out;
  }

  /**
   * Validates every submitted field first and stores them only when all pass;
   * per-site fields are stored for `siteId`, the others for every site.
   * Keys that are not offered settings are refused.
   */
  async save(input: Record<string, unknown>, siteId = DEFAULT_SITE_ID): Promise<SaveResult> {
    const offered = new Map(this.list().map((f) => [f.key, f]));
    const errors: Record<string, string> = {};
    const parsed: Array<[SettingField, unknown]> = [];
    for (const [key, raw] of Object.entries(input)) {
      const field = offered.get(key);
      if (!field) {
        errors[key] = 'This is not a setting.';
        continue;
      }
      if (field.secret && raw === SECRET_MASK) continue;
      try {
        parsed.push([field, field.parse(raw)]);
      } catch (err) {
        errors[key] = err instanceof SvcError ? err.message : 'This value is not valid.';
      }
    }
    if (Object.keys(errors).length > 0) return { saved: false, errors };
    for (const [field, value] of parsed) await this.options.set(optionOf(field, siteId), value);
    return { saved: true, errors };
  }

  /**
   * The offered setting an option name stores, and for which site: a key is
   * the default site's (or every site's), `<key>:site:<id>` another site's
   * value of a per-site field. Null for other options.
   */
  optionSetting(name: string): { key: string; siteId: number } | null {
    const match = /^(.+):site:(\d{1,9})$/.exec(name);
    const key = match ? match[1]! : name;
    const field = this.list().find((f) => f.key === key);
    if (!field || (match && !field.perSite)) return null;
    return { key, siteId: match ? Number(match[2]) : DEFAULT_SITE_ID };
  }

  /** Deletes the per-site values of a removed site (the default site's are the install's options and stay). */
  async removeSite(siteId: number): Promise<void> {
    if (siteId === DEFAULT_SITE_ID) return;
    for (const field of this.fields.values()) if (field.perSite) await this.options.delete(siteOptionName(field.key, siteId));
  }

  private field(key: string): SettingField {
    const field = this.fields.get(key);
    if (!field) throw new Error(`unknown setting ${key}`);
    return field;
  }
}

// Parsers shared by setting fields.

/** A switch: the one yes/no of the validation kit, a checkbox's `on`, and off when not sent. */
export const parseBoolean = (raw: unknown): boolean => {
  if (raw === 'on') return true;
  try {
    return optionalFlag(raw, 'value');
  } catch {
    throw badRequest('Must be on or off.');
  }
};

export const parseChoice =
  (choices: readonly string[]) =>
  (raw: unknown): string => {
    if (typeof raw === 'string' && choices.includes(raw)) return raw;
    throw badRequest(`Must be one of: ${choices.join(', ')}.`);
  };

/** Multi-line text, normalised to trimmed non-empty lines joined by \n. */
export const parseLines =
  (checkLine: (line: string) => string | null, maxLines = 1000) =>
  (raw: unknown): string => {
    if (raw === undefined || raw === null) return '';
    if (typeof raw !== 'string') throw badRequest('Must be text.');
    const lines = raw.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
    if (lines.length > maxLines) throw badRequest(`At most ${maxLines} lines.`);
    for (const [i, line] of lines.entries()) {
      const problem = checkLine(line);
      if (problem) throw badRequest(`Line ${i + 1} (${line.slice(0, 60)}): ${problem}`);
    }
    return lines.join('\n');
  };
