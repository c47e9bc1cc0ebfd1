import { z } from 'zod';
import { dateProblem, INSTANT_HINT, INTERVAL_HINT, parseInstant, parseInterval, textProblem } from '../graphql';

// Parameter types of the REST routes. Each is a zod schema that turns the raw query value (a string,
// or an array of strings when repeated) into a GraphQL variable, with a message naming what is
// allowed, and carries its OpenAPI schema in `.meta({ openapi })` for src/rest/openapi.ts. The rules
// themselves (date range, text, closed sets) are those of the services (src/services/arguments.ts), written once.

/** Largest id a GraphQL Int holds (32-bit signed). */
export const MAX_ID = 2_147_483_647;

type Raw = string | string[] | undefined;

export interface ParamMeta {
  description: string;
  /** OpenAPI schema of the raw parameter value. */
  openapi: Record<string, unknown>;
  /** Path parameter (else query). */
  in?: 'path' | 'query';
  /** Accepted as a comma-separated list and as a repeated parameter. */
  list?: boolean;
}

function param<T>(parse: (raw: string | string[], fail: (message: string) => never) => T, meta: ParamMeta) {
  class Invalid extends Error {}
  return z
    .custom<Raw>((v) => v === undefined || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string')), { message: 'must be a text value' })
    .optional()
    .transform((raw, ctx): T | undefined => {
      if (raw === undefined) return undefined;
      try {
        return parse(raw, (message) => {
          throw new Invalid(message);
        });
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    })
    .meta(meta as unknown as Record<string, unknown>);
}

/** The single value of a parameter given once; repeated is an error. */
function single(raw: string | string[], fail: (m: string) => never): string {
  if (Array.isArray(raw)) {
    if (raw.length === 1) return raw[0]!;
    fail('must be given once');
  }
  return raw as string;
}

function parseInteger(text: string, min: number, max: number): number | null {
  if (!/^-?\d{1,16}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/** An integer in [min, max]. */
export function integer(description: string, min: number, max: number, extra: Partial<ParamMeta> = {}) {
  return param(
    (raw, fail) => parseInteger(single(raw, fail), min, max) ?? fail(`must be an integer from ${min} to ${max}`),
    { description, openapi: { type: 'integer', minimum: min, maximum: max }, ...extra },
  );
}

/** A finite decimal number in [min, max] (e.g. `2.5`, `-1`). */
export function decimal(description: string, min: number, max: number) {
  return param(
    (raw, fail) => {
      const text = single(raw, fail).trim();
      const n = /^-?\d{1,6}(\.\d{1,6})?$/.test(text) ? Number(text) : NaN;
      return Number.isFinite(n) && n >= min && n <= max ? n : fail(`must be a number from ${min} to ${max}`);
    },
    { description, openapi: { type: 'number', minimum: min, maximum: max } },
  );
}

/** One id (a positive 32-bit integer). */
export function id(description: string, extra: Partial<ParamMeta> = {}) {
  return integer(description, 1, MAX_ID, extra);
}

/** One or more ids: comma-separated (`1,2`), repeated (`id=1&id=2`) or both. */
export function ids(description: string) {
  return param(
    (raw, fail) => {
      const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(','));
      const values = parts.map((p) => parseInteger(p, 1, MAX_ID));
      if (parts.length === 0 || values.some((v) => v === null)) {
        fail(`must be one or more integer ids from 1 to ${MAX_ID}, comma-separated or repeated`);
      }
      return [...new Set(values as number[])];
    },
    { description, openapi: { type: 'array', items: { type: 'integer', minimum: 1, maximum: MAX_ID } }, list: true },
  );
}

/** A boolean: true/false/1/0 (any case). */
export function boolean(description: string) {
  return param(
    (raw, fail) => {
      const value = single(raw, fail).trim().toLowerCase();
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return fail('must be true, false, 1 or 0');
    },
    { description, openapi: { type: 'boolean' } },
  );
}

/** A real calendar date YYYY-MM-DD within the accepted range. */
export function date(description: string) {
  return param(
    (raw, fail) => {
      const value = single(raw, fail).trim();
      const problem = dateProblem(value);
      return problem ? fail(problem) : value;
    },
    { description, openapi: { type: 'string', format: 'date' } },
  );
}

/**
 * An ISO 8601 instant, passed on in UTC with milliseconds (what the GraphQL DateTime scalar writes),
 * so that one instant written in several ways is one variable and one response-cache entry.
 */
export function instant(description: string) {
  return param(
    (raw, fail) => {
      const value = parseInstant(single(raw, fail).trim());
      return value ? value.toISOString() : fail(INSTANT_HINT);
    },
    { description, openapi: { type: 'string', format: 'date-time' } },
  );
}

/** A step of a series, `<n>m`, `<n>h` or `<n>d` (passed on as written, trimmed; the resolver reads it the same way). */
export function interval(description: string) {
  return param(
    (raw, fail) => {
      const value = single(raw, fail).trim();
      return parseInterval(value) === null ? fail(INTERVAL_HINT) : value;
    },
    { description, openapi: { type: 'string', pattern: '^[1-9][0-9]{0,5}[mhd]$', examples: ['5m', '1h', '1d'] } },
  );
}

/** Other words a closed-set parameter accepts for one of its values (`full` for full_game, spec 4.4). */
export type Aliases<V extends string> = Readonly<Partial<Record<string, V>>>;

/** The value a word stands for (itself, or the value it is an alias of), or undefined. */
function wordOf<V extends string>(word: string, values: readonly V[], aliases: Aliases<V>): V | undefined {
  if ((values as readonly string[]).includes(word)) return word as V;
  return Object.hasOwn(aliases, word) ? aliases[word] : undefined;
}

/**
 * One of `values` (case-insensitive; returned lower-case, as the domain's word: the router turns it
 * into the GraphQL enum value of the operation's variable). `aliases`: other accepted words.
 */
export function oneOf<const V extends string>(description: string, values: readonly V[], aliases: Aliases<V> = {}) {
  const accepted = [...Object.keys(aliases), ...values];
  return param(
    (raw, fail) => wordOf(single(raw, fail).trim().toLowerCase(), values, aliases) ?? fail(`must be one of ${accepted.join(', ')}`),
    { description, openapi: { type: 'string', enum: accepted } },
  );
}

/** One or more of `values` (or `aliases`), comma-separated or repeated. */
export function someOf<const V extends string>(description: string, values: readonly V[], aliases: Aliases<V> = {}) {
  const accepted = [...Object.keys(aliases), ...values];
  return param(
    (raw, fail) => {
      const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => wordOf(v.trim().toLowerCase(), values, aliases));
      if (parts.length === 0 || parts.some((p) => p === undefined)) {
        fail(`must be one or more of ${accepted.join(', ')}, comma-separated or repeated`);
      }
      return [...new Set(parts)] as V[];
    },
    { description, openapi: { type: 'array', items: { type: 'string', enum: accepted } }, list: true },
  );
}

/** Free text of 1 to `max` characters, without control characters. */
export function text(description: string, max = 100) {
  return param(
    (raw, fail) => {
      const value = single(raw, fail).trim();
      const problem = textProblem(value, max);
      return problem ? fail(problem) : value;
    },
    { description, openapi: { type: 'string', minLength: 1, maxLength: max } },
  );
}

/** A parameter with a default when absent. */
export function withDefault<T>(schema: z.ZodType<T | undefined, Raw>, value: T) {
  const meta = schema.meta() as unknown as ParamMeta;
  return schema.transform((v) => (v === undefined ? value : v)).meta({ ...meta, openapi: { ...meta.openapi, default: value } } as unknown as Record<string, unknown>);
}

/** A required parameter (path parameters, historical's day range); `hint` follows "is required, ". */
export function required<T>(schema: z.ZodType<T | undefined, Raw>, hint?: string) {
  const meta = schema.meta() as unknown as ParamMeta;
  return schema
    .refine((v) => v !== undefined, { message: hint ? `is required, ${hint}` : 'is required' })
    .transform((v) => v as T)
    .meta({ ...meta, required: true } as unknown as Record<string, unknown>);
}

/** Metadata of a parameter schema made by this module. */
export function paramMeta(schema: z.ZodType): ParamMeta & { required?: boolean } {
  return schema.meta() as unknown as ParamMeta & { required?: boolean };
}
