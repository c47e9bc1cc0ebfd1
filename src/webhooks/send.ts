import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isPrivateAddress, isPrivateHost } from '../services/webhook-target';

// One attempt of one delivery: a POST of the stored JSON body with the Standard Webhooks headers
// (webhook-id, webhook-timestamp, webhook-signature), signed by the `standardwebhooks` package, so
// receivers verify with any Standard Webhooks library. A 2xx is success; anything else, a timeout or
// a connection error is a failure to retry. Redirects are not followed (a 3xx is a failure), so a
// receiver cannot send the service elsewhere.

export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status, or null when none came. */
  status: number | null;
  /**
   * Why it failed, as the delivery log shows it to the key, or null. Without an HTTP answer it is
   * always NO_HTTP_ANSWER: a refused, reset, timed-out or non-HTTP connection would otherwise tell a
   * key probing addresses which ports are open (the sender would be a port scanner).
   */
  error: string | null;
  /** What happened exactly, for the operator's log only (never stored in the delivery log). */
  detail?: string;
}

/** The delivery log's word for every attempt that got no HTTP answer. */
export const NO_HTTP_ANSWER = 'no HTTP answer (connection refused, reset or timed out, or the receiver does not speak HTTP)';
/** The delivery log's word for a target refused by the SSRF guard (docs/webhooks.md). */
export const TARGET_REFUSED = 'target refused: it is or resolves to a private, loopback, link-local or other special-purpose address, or this host';

export interface SendOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Clock of the webhook-timestamp header. */
  now: Date;
}

/** The longest receiver answer read (and then dropped): receivers are not meant to answer at length. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** DNS lookup that refuses private addresses (every one the name resolves to), unless allowed. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as unknown as LookupAddress[];
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private address; refused`), { code: 'EPRIVATE' }), '', 4);
      }
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** POSTs `body` to `url`, signed with `secret`, as message `messageId`. Never throws. */
export function sendWebhook(url: string, secret: string, messageId: string, body: string, options: SendOptions): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, status: null, error: 'invalid URL', detail: 'invalid URL' });
      return;
    }
    if (!options.allowPrivateTargets && isPrivateHost(target.hostname)) {
      resolve({ ok: false, status: null, error: TARGET_REFUSED, detail: `${target.hostname} refused` });
      return;
    }
    const timestamp = new Date(Math.floor(options.now.getTime() / 1000) * 1000);
    const signature = new Webhook(secret).sign(messageId, timestamp, body);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'odds-data-service-webhooks/1',
          'webhook-id': messageId,
          'webhook-timestamp': String(timestamp.getTime() / 1000),
          'webhook-signature': signature,
        },
        lookup: guardedLookup(options.allowPrivateTargets),
        timeout: options.timeoutMs,
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const status = response.statusCode ?? 0;
        const done = () => resolve(status >= 200 && status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `HTTP ${status}` });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    // The whole attempt, connection included, has one deadline.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const detail = error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message;
      resolve({ ok: false, status: null, error: error.code === 'EPRIVATE' ? TARGET_REFUSED : NO_HTTP_ANSWER, detail });
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
