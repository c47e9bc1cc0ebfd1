import type { IncomingMessage, ServerResponse } from 'node:http';
import { subscribe, type ExecutionResult } from 'graphql';
import { LiveAuthError } from '../../auth/live-key';
import { bearerToken, type Viewer } from '../../auth/viewer';
import { AppError, ERRORS } from '../../errors';
import { liveOddsVariables, oddsStreamDocument, OPERATIONS_DIR, variablesFor } from '../../graphql';
import { appErrorOf, liveContext, type LiveDeps } from '../core';
import { parseStreamQuery } from '../filter';
import type { LiveOddsChange, LiveOddsPayload } from '../protocol';
import { signalEventsStarter } from '../signal-events';
import { snapshotPayload } from '../snapshot';

// GET /api/v1/nba/odds/stream: the resumable odds stream as Server-Sent Events, a thin adapter over
// Subscription.oddsStream (src/services/odds-stream.ts). Its events carry the messages of /live-odds
// (`live_odds` snapshots, `odds_change` deltas, with the same selections: oddsStreamDocument in
// src/graphql/operations.ts) and, as `id:`, the global sequence a reconnect gives
// back in Last-Event-ID. Keys as on every route (Authorization: Bearer), or `api_key` in the query
// string, since a browser's EventSource cannot set headers. docs/live-protocol.md has the protocol.

/** Path of the stream under the REST prefix. */
export const STREAM_PATH = '/stream';

/** What a client is told to wait before reconnecting (the `retry:` field), ms. */
const RETRY_MS = 2000;

export interface SseDeps extends LiveDeps {
  /** The REST prefix (/api/v1/nba/odds). */
  prefix: string;
  /** Period of the heartbeat events. */
  heartbeatMs: number;
  onError?: (error: unknown) => void;
}

interface StreamEvent {
  sequence: number;
  kind: 'snapshot' | 'change';
  resyncReason: string | null;
  snapshot: Record<string, unknown> | null;
  change: LiveOddsChange | null;
}

/** One SSE event; JSON has no newlines, so `data` fits on one line. */
function frame(event: string, data: unknown, id?: number | null): string {
  return `event: ${event}\n${id != null ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** The status and message of a refusal from the subscription's start. */
function refusalOf(result: ExecutionResult): AppError {
  const original = result.errors?.[0]?.originalError;
  if (original instanceof AppError) return original;
  return new AppError('BAD_REQUEST', `invalid request: ${result.errors?.[0]?.message ?? 'unknown error'}`);
}

const MISSING_KEY = 'Unauthorized: missing API key (send Authorization: Bearer sk_... or, from a browser EventSource, the api_key query parameter)';

/**
 * The SSE handler: `handle(req, res)` answers GET <prefix>/stream and returns true, or returns false
 * for any other request. A refusal before the stream starts is a JSON error body with its status
 * (400 bad filter or Last-Event-ID, 401/403 key, 429 too many connections or requests). A key that
 * stops passing ends the stream with a `live_odds` error event within the key watch period.
 */
export function createSseHandler(deps: SseDeps): { handle(req: IncomingMessage, res: ServerResponse): boolean; close(): void } {
  const document = oddsStreamDocument(deps.schema, OPERATIONS_DIR);
  // The filter's market_type is the spec's lower-case word; the operation takes the enum value.
  const toVariables = variablesFor(deps.schema, document);
  const path = `${deps.prefix}${STREAM_PATH}`.toLowerCase();
  const startSignals = signalEventsStarter(deps);
  const { core } = deps;
  /** Open streams: what ends each, and its response (told of a shutdown). */
  const open = new Map<(keepOpen?: boolean) => void, ServerResponse>();

  const fail = (res: ServerResponse, error: AppError, headers: Record<string, string> = {}) => {
    if (res.headersSent) return void res.end();
    const body = JSON.stringify({ success: false, error: error.message });
    res.writeHead(error.status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
    res.end(body);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    let parsed: ReturnType<typeof parseStreamQuery>;
    const key = bearerToken(req.headers.authorization) ?? url.searchParams.get('api_key') ?? undefined;
    let viewer: Viewer;
    try {
      viewer = await core.authenticate(key);
    } catch (error) {
      if (!(error instanceof LiveAuthError)) throw error;
      return fail(res, appErrorOf(error, MISSING_KEY));
    }
    // Each connection attempt counts as a request of the key's plan.
    const { headers, refused } = await core.chargeWithHeaders(viewer);
    if (refused) return fail(res, refused, headers);
    try {
      parsed = parseStreamQuery(url.searchParams);
    } catch (error) {
      if (error instanceof AppError) return fail(res, error, headers);
      throw error;
    }
    const header = req.headers['last-event-id'];
    const lastEventId = (Array.isArray(header) ? header[0] : header) ?? parsed.lastEventId;
    let release: () => void;
    try {
      release = core.hold(viewer, key!, (error) => {
        if (res.headersSent) res.write(frame('live_odds', { success: false, error: error.message } satisfies LiveOddsPayload));
        end();
      });
    } catch (error) {
      if (error instanceof LiveAuthError) return fail(res, appErrorOf(error), headers);
      throw error;
    }
    let closed = false;
    let iterator: AsyncIterator<ExecutionResult> | null = null;
    let stopSignals: (() => void) | null = null;
    /** Signal events that arrive before the stream's headers are written wait here. */
    let early: string[] | null = [];
    let heartbeat: NodeJS.Timeout | undefined;
    /** Frees what the stream holds; ends the response unless `keepOpen` (a refusal is still to be written). */
    const end = (keepOpen = false) => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      release();
      open.delete(end);
      void iterator?.return?.();
      stopSignals?.();
      if (!keepOpen) res.end();
    };
    /**
     * Writes one event; a client that lets more than maxBufferedBytes pile up unsent is cut (the
     * socket destroyed, so the memory is freed now, not after a drain that may never come).
     */
    const send = (text: string) => {
      if (closed) return;
      res.write(text);
      if (!core.overBuffer(res.writableLength)) return;
      core.cutSlow('sse');
      end(true);
      res.destroy();
    };
    open.set(end, res);
    req.once('close', () => end());
    try {
      const context = liveContext(deps, viewer, deps.onPush);
      const result = await subscribe({ schema: deps.schema, document, variableValues: toVariables({ ...liveOddsVariables(parsed.filter), last_event_id: lastEventId ?? null }), contextValue: context });
      if (!(Symbol.asyncIterator in result)) {
        end(true);
        return fail(res, refusalOf(result), headers);
      }
      iterator = result[Symbol.asyncIterator]();
      if (closed) return void iterator.return?.();
      if (parsed.signals) {
        // Outside the sequence (no id): a reconnect resumes the odds, not the signals (GET /signals has them).
        const signalFrame = (event: string, data: unknown) => (early ? early.push(frame(event, data)) : send(frame(event, data)));
        try {
          stopSignals = await startSignals(viewer, parsed.signals, (signal) => signalFrame('line_signal', signal), (message) => signalFrame('line_signal', { success: false, error: message }));
        } catch (error) {
          end(true);
          if (error instanceof AppError) return fail(res, error, headers);
          throw error;
        }
        if (closed) return void stopSignals();
      }
    } catch (error) {
      end(true);
      throw error;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      // Proxies that buffer responses would hold the events back.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write(`retry: ${RETRY_MS}\n\n`);
    for (const text of early ?? []) send(text);
    early = null;
    /** The sequence of the last event sent: heartbeats repeat it, so the client's position stays right. */
    let last: number | null = null;
    heartbeat = setInterval(() => {
      send(frame('heartbeat', { server_time: new Date().toISOString() }, last));
    }, deps.heartbeatMs);
    try {
      for await (const item of { [Symbol.asyncIterator]: () => iterator! }) {
        if (closed) break;
        if (item.errors?.length) {
          const original = item.errors[0]!.originalError;
          if (!(original instanceof AppError)) deps.onError?.(original ?? item.errors[0]);
          // The client reconnects with its Last-Event-ID and gets what it missed from the change log.
          send(frame('live_odds', { success: false, error: original instanceof AppError ? original.message : 'internal error' } satisfies LiveOddsPayload));
          break;
        }
        const event = (item.data as { event: StreamEvent }).event;
        last = event.sequence;
        if (event.kind === 'change') {
          send(frame('odds_change', event.change, event.sequence));
          continue;
        }
        const made = snapshotPayload({ data: { live: event.snapshot } }, String(event.snapshot?.reason ?? 'snapshot'));
        if ('error' in made) continue;
        const payload = { ...made.payload, ...(event.resyncReason && { resync_reason: event.resyncReason }) };
        send(frame('live_odds', payload, event.sequence));
      }
    } finally {
      end();
    }
  };

  return {
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const pathname = url.pathname.toLowerCase().replace(/\/$/, '');
      if (pathname !== path || req.method !== 'GET') return false;
      (req as IncomingMessage & { routePattern?: string }).routePattern = `${deps.prefix}${STREAM_PATH}`;
      serve(req, res, url).catch((error) => {
        deps.onError?.(error);
        fail(res, new AppError('INTERNAL', `${ERRORS.INTERNAL.message}`));
      });
      return true;
    },
    close() {
      // The client is told, then reconnects (to another process) with its Last-Event-ID.
      for (const [end, res] of [...open]) {
        if (res.headersSent) res.write(frame('shutdown', { reason: 'server shutting down: reconnect with your Last-Event-ID' }));
        end();
      }
    },
  };
}
