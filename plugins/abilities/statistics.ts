import {
  type AbilitiesRegistry,
  type AbilityCategory,
  type JsonSchema,
  type Options,
  parseBoolean,
  type PluginContext,
  type Principal,
  type SettingField,
  type Site,
  SvcError,
} from '../../core';

/**
 * The public description of the `svc-statistics` abilities (ecommerce.md
 * §4.5, §2.11): names, schemas, defaults and the permission they share. The
 * plugin executes them on the business license; its always-loaded part
 * (always.ts) describes them on the free license.
 */

/** Settings → Advanced: the abilities are registered only while this option is on. */
export const ABILITIES_OPTION = 'enable_abilities_api';

export const abilitiesSetting: SettingField<boolean> = {
  key: ABILITIES_OPTION,
  label: 'Abilities API',
  help: 'Offer the sales and subscriptions abilities to automation, over REST (/wp-abilities/v1) and as MCP tools (/svc/mcp). They run with the business license.',
  section: 'Advanced',
  type: 'boolean',
  default: false,
  parse: parseBoolean,
};

/** The option's value; read from the options, so it does not depend on when the setting was registered. */
export const abilitiesEnabled = (options: Pick<Options, 'get'>): Promise<boolean> => options.get<boolean>(ABILITIES_OPTION, abilitiesSetting.default);

export const STATISTICS_CATEGORY: AbilityCategory = {
  slug: 'svc-statistics',
  label: 'Statistics',
  description: 'Read-only analytics of the site: sales per product and subscriptions per plan.',
};

export interface StatisticsInput {
  /** Unix seconds; 0: the datatable's default window (the last 30 days). */
  date_start: number;
  date_end: number;
  metrics: string[];
  filters: Array<{ key: string; value?: string | number | boolean | null }>;
  group_by: string[];
  limit: number;
  /** The site: its id or primary domain; the default site when absent. */
  site?: string | number;
}

/** §2.11. */
export interface StatisticsOutput {
  type: 'datatable';
  dimensions: Array<{ id: string; label: string }>;
  metrics: Array<{ id: string; label: string }>;
  rows: Array<Record<string, unknown>>;
  row_count: number;
}

export interface StatisticsAbility {
  name: string;
  /** The `ability` argument of the rate-limit filters (§6), e.g. `sales-data`. */
  slug: string;
  label: string;
  description: string;
  defaultMetrics: readonly string[];
  defaultGroupBy: readonly string[];
  inputSchema: JsonSchema;
}

const columns: JsonSchema = {
  type: 'array',
  items: { type: 'object', properties: { id: { type: 'string' }, label: { type: 'string' } }, required: ['id', 'label'] },
};

export const STATISTICS_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    type: { const: 'datatable' },
    dimensions: columns,
    metrics: columns,
    rows: { type: 'array', items: { type: 'object' } },
    row_count: { type: 'integer', minimum: 0 },
  },
  required: ['type', 'dimensions', 'metrics', 'rows', 'row_count'],
};

function inputSchema(metrics: readonly string[], groupBy: readonly string[], filterHelp: string): JsonSchema {
  return {
    type: 'object',
    properties: {
      date_start: { type: 'integer', minimum: 0, default: 0, description: 'Unix seconds of the period start (its day in the site timezone); 0 for 30 days before date_end.' },
      date_end: { type: 'integer', minimum: 0, default: 0, description: 'Unix seconds of the period end (its whole day counts); 0 for today.' },
      metrics: {
        type: 'array',
        items: { type: 'string' },
        default: [...metrics],
        description: 'Columns to return; unknown ones are dropped, and when none is left the defaults are used.',
      },
      filters: {
        type: 'array',
        items: {
          type: 'object',
          properties: { key: { type: 'string', minLength: 1 }, value: { type: ['string', 'number', 'boolean', 'null'] } },
          required: ['key'],
          additionalProperties: false,
        },
        default: [],
        description: filterHelp,
      },
      group_by: { type: 'array', items: { type: 'string' }, default: [...groupBy], description: `Grouping (${groupBy.join(', ')}); utm_source means source.` },
      limit: { type: 'integer', default: 100, description: 'Rows to return, 1 to 500 (other values are clamped).' },
      site: { type: ['integer', 'string'], description: 'The site to read: its id or primary domain; the default site when left out.' },
    },
    additionalProperties: false,
  };
}

const SALES_METRICS = ['product', 'sales', 'revenue'];
const SUBSCRIPTION_METRICS = ['plan', 'active_subscribers', 'canceled_subscribers', 'trialling_subscribers', 'monthly_recurring_revenue', 'product_churn_value'];

export const SALES_DATA: StatisticsAbility = {
  name: 'svc/sales-data',
  slug: 'sales-data',
  label: 'Sales per product',
  description:
    'Products sold in a period, one row per product and currency: metrics product (name), adds_to_cart, sales (units) and revenue ({ currency, value }). Rows also carry product_id and currency.',
  defaultMetrics: SALES_METRICS,
  defaultGroupBy: ['product'],
  inputSchema: inputSchema(SALES_METRICS, ['product'], 'Items { key, value }: country (ISO 3166-1 alpha-2) or device of the buyer\'s visit. A filter type=purchase is always added.'),
};

export const SUBSCRIPTIONS_DATA: StatisticsAbility = {
  name: 'svc/subscriptions-data',
  slug: 'subscriptions-data',
  label: 'Subscriptions per plan',
  description:
    'Subscriptions per plan and currency: active, canceled and trialling subscribers, monthly_recurring_revenue ({ currency, value }) and product_churn_value (percent). Rows also carry product_id, plan and currency.',
  defaultMetrics: SUBSCRIPTION_METRICS,
  defaultGroupBy: ['plan'],
  inputSchema: inputSchema(SUBSCRIPTION_METRICS, ['plan'], 'Items { key, value }. A filter type=subscription is always added.'),
};

export const STATISTICS_ABILITIES: readonly StatisticsAbility[] = [SALES_DATA, SUBSCRIPTIONS_DATA];

export type StatisticsExecutor = (ability: StatisticsAbility, input: StatisticsInput, principal: Principal) => Promise<StatisticsOutput>;

type Sites = Pick<PluginContext['sites'], 'visibleSite' | 'can'>;

/**
 * The site an ability input names (id or primary domain; without one the
 * caller's default site), when the caller may run the abilities there: a
 * site that does not exist or is not theirs to see is a 404
 * `svc_unknown_site` (as on REST), and one where they lack
 * `manage_svc_statistics` a 403 `svc_abilities_forbidden`.
 */
export async function abilitySite(sites: Sites, input: Pick<StatisticsInput, 'site'>, principal: Principal): Promise<Site> {
  const user = principal.user;
  if (!user) throw forbiddenToRun();
  const site = await sites.visibleSite(user, input.site);
  if (!(await sites.can(user, site, 'manage_svc_statistics'))) throw forbiddenToRun();
  return site;
}

const forbiddenToRun = () => new SvcError('svc_abilities_forbidden', 'Running this ability needs the manage_svc_statistics capability.', 403);

type AbilityHost = Pick<AbilitiesRegistry, 'registerCategory' | 'unregisterCategory' | 'register' | 'unregister'>;

/**
 * Registers (`true`) or removes (`false`) the category and both abilities,
 * each checking `manage_svc_statistics` (ecommerce.md §5 rule 4) on the
 * site the input names before `execute` runs.
 */
export function statisticsAbilitiesSwitch(host: AbilityHost, sites: Sites, execute: StatisticsExecutor): (on: boolean) => void {
  const permission = async (input: StatisticsInput, principal: Principal) => {
    await abilitySite(sites, input, principal);
    return true;
  };
  return (on) => {
    if (!on) {
      for (const ability of STATISTICS_ABILITIES) host.unregister(ability.name);
      host.unregisterCategory(STATISTICS_CATEGORY.slug);
      return;
    }
    host.registerCategory(STATISTICS_CATEGORY);
    for (const ability of STATISTICS_ABILITIES) {
      host.register<StatisticsInput, StatisticsOutput>({
        name: ability.name,
        label: ability.label,
        description: ability.description,
        category: STATISTICS_CATEGORY.slug,
        inputSchema: ability.inputSchema,
        outputSchema: STATISTICS_OUTPUT_SCHEMA,
        annotations: { readonly: true, idempotent: true },
        permission,
        execute: (input, principal) => execute(ability, input, principal),
      });
    }
  };
}
