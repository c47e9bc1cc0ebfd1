import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BoundedCache, type CacheEvent } from './bounded-cache';

// Serialized REST bodies, kept as bytes with their ETag and their gzip and brotli forms. An entry is
// keyed by (data version, operation, plan visibility, normalized variables): the data version
// advances on every ingest and clock flip (src/events/data-version.ts), so an entry is never stale;
// old versions stop being asked for and are dropped when the version advances. Bounded in bytes.

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Bodies smaller than this are sent as they are: compression would save less than its headers. */
export const MIN_COMPRESS_BYTES = 1024;

export type Encoding = 'br' | 'gzip' | 'identity';

/** One response body, serialized once; its compressed forms are made once, on first demand. */
export interface Representation {
  body: Buffer;
  /** Strong ETag (quoted): a hash of the bytes, so every process gives the same body the same tag. */
  etag: string;
  /** Cache-Control of the route for this body. */
  cacheControl: string;
  /** The body in `encoding` (compressed once and kept). */
  encoded(encoding: Encoding): Promise<Buffer>;
}

/** Wraps serialized bytes into a Representation. */
export function representation(body: Buffer, cacheControl: string): Representation {
  const forms = new Map<Encoding, Promise<Buffer>>();
  return {
    body,
    cacheControl,
    etag: `"${hash('sha1', body, 'base64url')}"`,
    encoded(encoding) {
      if (encoding === 'identity' || body.length < MIN_COMPRESS_BYTES) return Promise.resolve(body);
      let form = forms.get(encoding);
      if (!form) {
        // Quality 5: close to the best ratio on JSON at a fraction of brotli's default (11) cost.
        form =
          encoding === 'br'
            ? brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
            : gzip(body, { level: 6 });
        forms.set(encoding, form);
      }
      return form;
    },
  };
}

export interface ResponseCacheOptions {
  /** Upper bound of the bytes held: bodies, an allowance for their compressed forms, keys and bookkeeping. */
  maxBytes: number;
  /** Safety net: an entry is recomputed after this long even if no event said so (ms). */
  maxAgeMs: number;
  /** Hits, misses, evictions and expiries (metrics). */
  onEvent?: (event: CacheEvent) => void;
}

/**
 * Representations by `<data version>|<operation>|<visibility>|<variables>` (the REST router's keys) or
 * `<data version>|graphql|...` (GraphQL over GET): every key starts with the data version it was made under.
 */
export type ResponseCache = BoundedCache<Representation>;

/** An LRU of representations bounded in bytes, keys included (their variables can be long). */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  return new BoundedCache<Representation>({
    maxBytes: options.maxBytes,
    // The compressed forms add about a third of the body at most on JSON; the ETag and headers ~100 bytes.
    sizeOf: (r) => Math.ceil(r.body.length * 1.34) + 160,
    ttlMs: options.maxAgeMs,
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
}

/**
 * Drops the entries of data versions before `version` (no request asks for them again: every
 * look-up keys on the current version) and the ones past their age. The app calls it when the
 * version advances and on a slow timer, so old answers do not wait for LRU eviction to leave.
 */
export function dropExpired(cache: ResponseCache, version: number): void {
  const current = `${version}|`;
  cache.dropWhere((key) => !key.startsWith(current));
  cache.purgeStale();
}

/** The encoding to send for an `Accept-Encoding` value: br, then gzip, when the client accepts them. */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

/** Whether an `If-None-Match` value matches `etag` (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === etag);
}
