import { LiveError, type Endpoint, type LiveOptions, type LiveSink, type Transport } from './connect';
import type { LiveDeltaPayload, LiveSnapshotPayload } from './state';

interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data: string; lastEventId?: string }) => void): void;
  close(): void;
  readyState: number;
  onerror: ((event: { message?: string; code?: number }) => void) | null;
  onopen: (() => void) | null;
}
type EventSourceClass = new (url: string, init?: { fetch?: typeof fetch }) => EventSourceLike;

/**
 * Follows GET /api/v1/nba/odds/stream (Server-Sent Events). Every event's id is the global sequence
 * of the stored change log, so a reconnect with `Last-Event-ID` (the seq of the state) gets what was
 * missed, on any process and across restarts. The header is set from the state on every request, so
 * what is resumed from is what was applied. A gap (not expected on one connection) reconnects the
 * same way, which brings a catch-up from the state's seq.
 */
export function followSse(endpoint: Endpoint, options: LiveOptions, sink: LiveSink): Transport {
  const filter = options.filter ?? {};
  const url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/api/v1/nba/odds/stream`);
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) url.searchParams.set(name, String(value));
  let source: EventSourceLike | null = null;
  let closed = false;

  /** fetch with the key and the state's position; a refusal's JSON body becomes the error. */
  const fetchWithKey: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${endpoint.apiKey}`);
    if (sink.book.stream !== null && sink.book.seq >= 0) headers.set('last-event-id', String(sink.book.seq));
    else headers.delete('last-event-id');
    const response = await fetch(input, { ...init, headers });
    if (response.status !== 200) {
      const text = await response.clone().text();
      let message = `HTTP ${response.status}`;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? message;
      } catch {
        // not the service's JSON error body: the status says it
      }
      sink.error(new LiveError(message, true, response.status));
    }
    return response;
  };

  const open = async () => {
    const Impl = (options.EventSource ?? (await import('eventsource')).EventSource) as EventSourceClass;
    if (closed) return;
    const browser = options.EventSource !== undefined;
    // A browser's EventSource cannot set headers: the key goes in the query (HTTPS only).
    if (browser) url.searchParams.set('api_key', endpoint.apiKey);
    const es = browser ? new Impl(url.toString()) : new Impl(url.toString(), { fetch: fetchWithKey });
    source = es;
    es.addEventListener('live_odds', (event) => sink.snapshot(JSON.parse(event.data) as LiveSnapshotPayload));
    es.addEventListener('odds_change', (event) => {
      if (sink.delta(JSON.parse(event.data) as LiveDeltaPayload) === 'resync') reopen();
    });
    // Connected again with a state: the catch-up from Last-Event-ID follows on this stream.
    es.onopen = () => sink.book.stream !== null && sink.status('live');
    es.onerror = () => {
      // EventSource reconnects by itself (the server's `retry:`), with our Last-Event-ID; CLOSED
      // means it gave up (a refusal, reported by fetchWithKey).
      if (!closed) sink.status(es.readyState === 2 ? 'closed' : 'reconnecting');
    };
  };
  const reopen = () => {
    source?.close();
    source = null;
    sink.status('reconnecting');
    void open().catch((error: Error) => sink.error(new LiveError(error.message, true)));
  };
  void open().catch((error: Error) => sink.error(new LiveError(error.message, true)));
  return {
    close() {
      closed = true;
      source?.close();
    },
  };
}
