import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { AppError } from '../errors';

// JSON request bodies of the POST routes (POST /odds/clv, /odds/grade): size cap, JSON parsing and
// the body's own zod schema, every refusal in the envelope with the one wording
// `invalid parameter <name>: ...` (the name is the path in the body, e.g. bets[2].side).

/** Largest body accepted, as /graphql's (the catalogue's PAYLOAD_TOO_LARGE message names it). */
export const MAX_BODY_BYTES = 100 * 1024;

/** Reads the whole body. @throws AppError PAYLOAD_TOO_LARGE past `limit` bytes (declared or sent) */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const tooLarge = () => (limit === MAX_BODY_BYTES ? new AppError('PAYLOAD_TOO_LARGE') : new AppError('PAYLOAD_TOO_LARGE', `request body too large: the limit is ${Math.round(limit / 1024)} kB`));
  if (Number.isFinite(declared) && declared > limit) {
    req.resume(); // drain, so the answer reaches the client
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The JSON value of a body. @throws AppError BAD_REQUEST when it is empty or not JSON */
export function parseJson(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (!text.trim()) throw new AppError('BAD_REQUEST', 'invalid parameter body: is required, a JSON document');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('BAD_REQUEST', `invalid parameter body: must be JSON (${(error as Error).message})`);
  }
}

/** `bets[2].side` from a zod path. */
function pathName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path) name += typeof part === 'number' ? `[${part}]` : `${name ? '.' : ''}${String(part)}`;
  return name || 'body';
}

/** The first issue of a body's zod error as `invalid parameter <path>: <message>`. */
export function bodyError(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const issue = issues[0]!;
  return new AppError('BAD_REQUEST', `invalid parameter ${pathName(issue.path)}: ${issue.message}`);
}

type Issue = { code: string; input?: unknown; keys?: string[] };

/** zod `error` option: "is required" when absent, `message` otherwise. */
export const requiredOr =
  (message: string) =>
  (issue: Issue): string =>
    issue.input === undefined ? 'is required' : message;

/** zod `error` option of an object: names unknown fields. */
export const objectError =
  (message: string) =>
  (issue: Issue): string =>
    issue.code === 'unrecognized_keys' ? `unknown field ${(issue.keys ?? []).join(', ')}` : issue.input === undefined ? 'is required' : message;

/** One of `values` (as sent, case-insensitive), returned upper-cased for a GraphQL enum. */
export function enumValue<const V extends string>(values: readonly V[], aliases: Readonly<Partial<Record<string, V>>> = {}) {
  const message = `must be one of ${[...Object.keys(aliases), ...values].join(', ')}`;
  return z
    .string({ error: requiredOr(message) })
    .transform((v, ctx) => {
      const value = v.trim().toLowerCase();
      // Object.hasOwn: no inherited key (`__proto__`, `constructor`) is ever an alias.
      const known: string | undefined = Object.hasOwn(aliases, value) ? aliases[value] : (values as readonly string[]).includes(value) ? value : undefined;
      if (known === undefined) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return known.toUpperCase();
    })
    .meta({ openapi: { type: 'string', enum: [...Object.keys(aliases), ...values] } });
}
