import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';

// Serialized REST bodies, kept as bytes with their ETag and their gzip and brotli forms. An entry is
// keyed by (data version, operation, plan visibility, normalized variables): the data version
// advances on every ingest and clock flip (src/events/data-version.ts), so an entry is never stale;
// old versions simply stop being asked for and leave by LRU. Bounded in bytes.

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
  /** Upper bound of the bytes held (bodies plus an allowance for their compressed forms). */
  maxBytes?: number;
  /** Safety net: an entry is recomputed after this long even if no event said so (ms). */
  maxAgeMs: number;
}

export type ResponseCache = LRUCache<string, Representation>;

/** An LRU of representations bounded in bytes (default 64 MB). */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  return new LRUCache<string, Representation>({
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    // The compressed forms add about a third of the body at most on JSON.
    sizeCalculation: (r) => Math.ceil(r.body.length * 1.34) + 256,
    ttl: options.maxAgeMs,
    // Expired entries are dropped when asked for; no timer per entry.
    ttlAutopurge: false,
  });
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
