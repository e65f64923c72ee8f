import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { Principal } from '../auth/types';
import { SvcError, badRequest, describeError, notFound } from '../errors';
import { requestContext } from '../http/request-context';
import type { SvcLogger } from '../logger';
import type { Sites } from '../sites/sites';

export type JsonSchema = Record<string, unknown>;

export interface AbilityCategory {
  slug: string;
  label: string;
  description: string;
}

export interface AbilityAnnotations {
  /** Reads only; may be run with GET. */
  readonly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
}

/** An ability of the host abilities interface: `namespace/name`, typed by JSON schemas. */
export interface AbilityDefinition<I = unknown, O = unknown> {
  name: string;
  label: string;
  description: string;
  category: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations?: AbilityAnnotations;
  /** Runs before `execute`; false answers a generic 403, or throw a coded SvcError. */
  permission(input: I, principal: Principal): boolean | Promise<boolean>;
  execute(input: I, principal: Principal): Promise<O>;
}

/** The public description of an ability (REST and MCP listings). */
export interface AbilityInfo {
  name: string;
  label: string;
  description: string;
  category: string;
  input_schema: JsonSchema;
  output_schema: JsonSchema;
  meta: { annotations: AbilityAnnotations };
}

interface Compiled {
  def: AbilityDefinition;
  strict: ValidateFunction;
  coercing: ValidateFunction;
  output: ValidateFunction;
}

const NAME_RE = /^[a-z0-9-]+\/[a-z0-9-]+$/;
const SLUG_RE = /^[a-z0-9-]+$/;

function schemaMessage(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'The input does not match the schema.';
  const where = first.instancePath ? `input${first.instancePath.replaceAll('/', '.')}` : 'input';
  return `${where} ${first.message ?? 'is not valid'}`;
}

/**
 * The kernel's registry of ability categories and abilities. A run checks the
 * permission first (so anonymous callers learn nothing of the schema), then the
 * input's site, then the input against the ability's schema (ajv), then executes.
 */
export class AbilitiesRegistry {
  private readonly categories = new Map<string, AbilityCategory>();
  private readonly abilities = new Map<string, Compiled>();
  private readonly ajv = new Ajv({ allErrors: false, useDefaults: true, strict: false });
  private readonly ajvCoerce = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: 'array', strict: false });

  constructor(
    private readonly logger: SvcLogger,
    private readonly sites: Pick<Sites, 'visibleSite'>,
  ) {}

  registerCategory(category: AbilityCategory): void {
    if (!SLUG_RE.test(category.slug)) throw new Error(`ability category slug ${category.slug} must match ${SLUG_RE}`);
    this.categories.set(category.slug, category);
  }

  register<I, O>(def: AbilityDefinition<I, O>): void {
    if (!NAME_RE.test(def.name)) throw new Error(`ability name ${def.name} must be namespace/name`);
    if (!this.categories.has(def.category)) throw new Error(`ability ${def.name}: unknown category ${def.category}`);
    if (this.abilities.has(def.name)) throw new Error(`ability ${def.name} is registered twice`);
    this.abilities.set(def.name, {
      def: def as AbilityDefinition,
      strict: this.ajv.compile(def.inputSchema),
      coercing: this.ajvCoerce.compile(def.inputSchema),
      output: this.ajv.compile(def.outputSchema),
    });
  }

  unregister(name: string): void {
    this.abilities.delete(name);
  }

  /** Removes a category that no registered ability uses any more. */
  unregisterCategory(slug: string): void {
    if (![...this.abilities.values()].some((a) => a.def.category === slug)) this.categories.delete(slug);
  }

  listCategories(): AbilityCategory[] {
    return [...this.categories.values()];
  }

  list(category?: string): AbilityInfo[] {
    return [...this.abilities.values()]
      .filter((a) => !category || a.def.category === category)
      .map((a) => this.info(a.def));
  }

  get(name: string): AbilityInfo | null {
    const found = this.abilities.get(name);
    return found ? this.info(found.def) : null;
  }

  /**
   * Checks the permission, validates `input` (coercing query-string scalars when
   * `coerce`) and executes. Failures are coded errors; an unexpected failure
   * is logged and answered as an opaque 500.
   */
  async run(name: string, input: unknown, principal: Principal, options: { coerce?: boolean } = {}): Promise<unknown> {
    const found = this.abilities.get(name);
    if (!found) throw notFound(`No ability named ${name}.`, 'ability_not_found');
    const value = structuredClone(input ?? (found.def.inputSchema.type === 'object' ? {} : input));
    if (!(await found.def.permission(value, principal))) {
      throw new SvcError('ability_invalid_permissions', 'You are not allowed to run this ability.', 403);
    }
    await this.enterSite(value, principal);
    const validate = options.coerce ? found.coercing : found.strict;
    if (!validate(value)) throw badRequest(schemaMessage(validate.errors), 'ability_invalid_input');
    let output: unknown;
    try {
      output = await found.def.execute(value, principal);
    } catch (err) {
      if (err instanceof SvcError) throw err;
      this.logger.error({ err, ability: name }, `ability ${name} failed: ${describeError(err)}`);
      throw new SvcError('ability_execution_failed', 'The ability failed to run.', 500);
    }
    if (!found.output(output)) {
      this.logger.error({ ability: name, errors: found.output.errors }, `ability ${name} returned output outside its schema`);
      throw new SvcError('ability_invalid_output', 'The ability returned an invalid result.', 500);
    }
    return output;
  }

  /**
   * An input's `site` (id or primary domain) must be one the caller may see,
   * as on REST (404 `svc_unknown_site`); it becomes the request's site, so
   * `ctx.sites.current()` gives it to the ability. Without one, the caller's
   * default site.
   */
  private async enterSite(input: unknown, principal: Principal): Promise<void> {
    if (!principal.user) return;
    const ref = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>).site : undefined;
    const site = await this.sites.visibleSite(principal.user, ref);
    const req = requestContext.current();
    if (req) req.site = site;
  }

  private info(def: AbilityDefinition): AbilityInfo {
    return {
      name: def.name,
      label: def.label,
      description: def.description,
      category: def.category,
      input_schema: def.inputSchema,
      output_schema: def.outputSchema,
      meta: { annotations: { readonly: false, destructive: false, idempotent: false, ...def.annotations } },
    };
  }
}
