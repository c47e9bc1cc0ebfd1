import { ENUM_VOCABULARY } from '../graphql';
import { AppError } from '../errors';

// What a live client asks for (docs/live-protocol.md): a /live-odds `subscribe` or handshake, a
// `subscribe_signals`, the query string of the SSE stream. Every adapter checks it here.

const LIVE_MARKET_TYPES = ENUM_VOCABULARY.LiveMarketType;

/** The filter of a `subscribe` (spec 6); absent fields match everything. */
export interface LiveFilter {
  game_id?: number;
  market_type?: (typeof LIVE_MARKET_TYPES)[number];
  book_id?: number;
}

/** Extensions of `subscribe` beside the filter. */
export interface LiveOptions {
  /** false: no odds_change events, only the live_odds snapshots of the spec. Default true. */
  changes: boolean;
  /** Reconnect: the stream and the last seq applied; the missed deltas come instead of a snapshot when still held. */
  resume: { stream: string; last_seq: number } | null;
}

export interface LiveRequest {
  filter: LiveFilter;
  options: LiveOptions;
}

const FILTER_KEYS = ['game_id', 'market_type', 'book_id'] as const;
const OPTION_KEYS = ['changes', 'stream', 'last_seq'] as const;
const KEYS: readonly string[] = [...FILTER_KEYS, ...OPTION_KEYS];

const bad = (message: string) => new AppError('BAD_REQUEST', `invalid subscribe payload: ${message}`);

/** Whether `value` is an integer from `min` to the largest id (a 32-bit integer). */
const isIntegerFrom = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= 2_147_483_647;

function positiveInteger(name: string, value: unknown, min: number): number {
  if (!isIntegerFrom(value, min)) throw bad(`${name} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer`);
  return value;
}

/**
 * Checks a `subscribe` payload: undefined/null (no filter) or an object with only game_id and
 * book_id (positive integers), market_type (spread, moneyline, total, player_props), changes
 * (boolean), stream (string) and last_seq (non-negative integer; stream and last_seq go together).
 * @throws AppError BAD_REQUEST naming the bad field
 */
export function parseLiveRequest(raw: unknown): LiveRequest {
  const request: LiveRequest = { filter: {}, options: { changes: true, resume: null } };
  if (raw === undefined || raw === null) return request;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('expected an object { game_id?, market_type?, book_id? }');
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !KEYS.includes(k));
  if (unknown.length) throw bad(`unknown field ${unknown[0]} (allowed: ${KEYS.join(', ')})`);
  for (const name of ['game_id', 'book_id'] as const) {
    if (input[name] != null) request.filter[name] = positiveInteger(name, input[name], 1);
  }
  const type = input.market_type;
  if (type != null) {
    if (typeof type !== 'string' || !(LIVE_MARKET_TYPES as readonly string[]).includes(type)) {
      throw bad(`market_type must be one of ${LIVE_MARKET_TYPES.join(', ')}`);
    }
    request.filter.market_type = type as LiveFilter['market_type'];
  }
  if (input.changes != null) {
    if (typeof input.changes !== 'boolean') throw bad('changes must be a boolean');
    request.options.changes = input.changes;
  }
  if (input.stream != null || input.last_seq != null) {
    // `global` today; the hex ids of the earlier per-process streams still pass, and get a resync snapshot.
    if (typeof input.stream !== 'string' || !/^[0-9a-z]{1,64}$/.test(input.stream)) throw bad('stream must be the stream id of an earlier push, given with last_seq');
    request.options.resume = { stream: input.stream, last_seq: positiveInteger('last_seq', input.last_seq, 0) };
  }
  return request;
}

/**
 * The subscribe payload a client may put in the handshake instead: the fields of `subscribe` in
 * `auth` (beside apiKey) or in the query string (numbers and booleans as text). Null when the
 * handshake names none of them.
 */
export function handshakeRequest(auth: Record<string, unknown> | undefined, query: Record<string, unknown>): unknown {
  const fromAuth = Object.fromEntries(Object.entries(auth ?? {}).filter(([k]) => k !== 'apiKey'));
  if (Object.keys(fromAuth).length) return fromAuth;
  const fromQuery: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = query[key];
    if (typeof value !== 'string') continue;
    fromQuery[key] = key === 'market_type' || key === 'stream' ? value : key === 'changes' ? (value === 'true' ? true : value === 'false' ? false : value) : /^\d+$/.test(value) ? Number(value) : value;
  }
  return Object.keys(fromQuery).length ? fromQuery : null;
}

const SIGNAL_KINDS: readonly string[] = ENUM_VOCABULARY.SignalKind;
const SIGNAL_MARKET_TYPES: readonly string[] = ENUM_VOCABULARY.MarketType;
const SIGNAL_KEYS = ['game_id', 'kind', 'market_type'] as const;
/** Values one signal filter field may list. */
const MAX_SIGNAL_VALUES = 50;

/** What a client asks of the signal events (`subscribe_signals`, SSE `signals=`); absent fields match everything. */
export interface SignalFilter {
  game_id?: number[];
  kind?: string[];
  market_type?: string[];
}

const badSignals = (message: string) => new AppError('BAD_REQUEST', `invalid subscribe_signals payload: ${message}`);

/**
 * Checks a `subscribe_signals` payload: undefined/null (every signal) or an object with only game_id
 * (a positive integer or a list of them), kind (steam, reverse_line_movement, market_leader, or a
 * list) and market_type (a market type or a list); lists hold 1 to 50 values.
 * @throws AppError BAD_REQUEST naming the bad field
 */
export function parseSignalFilter(raw: unknown): SignalFilter {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badSignals('expected an object { game_id?, kind?, market_type? }');
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !(SIGNAL_KEYS as readonly string[]).includes(k));
  if (unknown.length) throw badSignals(`unknown field ${unknown[0]} (allowed: ${SIGNAL_KEYS.join(', ')})`);
  const listOf = (name: string, value: unknown): unknown[] => {
    const values = Array.isArray(value) ? value : [value];
    if (!values.length || values.length > MAX_SIGNAL_VALUES) throw badSignals(`${name} must hold 1 to ${MAX_SIGNAL_VALUES} values`);
    return values;
  };
  const filter: SignalFilter = {};
  if (input.game_id != null) {
    filter.game_id = listOf('game_id', input.game_id).map((v) => {
      if (!isIntegerFrom(v, 1)) throw badSignals('game_id must be a positive integer or a list of them');
      return v;
    });
  }
  for (const [name, allowed] of [['kind', SIGNAL_KINDS], ['market_type', SIGNAL_MARKET_TYPES]] as const) {
    if (input[name] == null) continue;
    filter[name] = listOf(name, input[name]).map((v) => {
      if (typeof v !== 'string' || !allowed.includes(v)) throw badSignals(`${name} must be one of ${allowed.join(', ')} (or a list of them)`);
      return v;
    });
  }
  return filter;
}

/**
 * The signal events a stream asked for with `signals=` (docs/live-protocol.md): `all`, or a
 * comma-separated list of kinds; the stream's game_id and market_type narrow them too. Null: none.
 * @throws AppError BAD_REQUEST naming a bad kind
 */
function signalFilterOf(value: string | null, filter: { game_id?: number; market_type?: string }): SignalFilter | null {
  if (value === null) return null;
  const words = value.split(',').map((w) => w.trim());
  const all = words.length === 1 && words[0] === 'all';
  if (!all && (!words.length || words.some((w) => !SIGNAL_KINDS.includes(w)) || words.length > SIGNAL_KINDS.length)) {
    throw new AppError('BAD_REQUEST', `invalid parameter signals: must be all or a comma-separated list of ${SIGNAL_KINDS.join(', ')}`);
  }
  return {
    ...(!all && { kind: [...new Set(words)] }),
    ...(filter.game_id !== undefined && { game_id: [filter.game_id] }),
    ...(filter.market_type !== undefined && { market_type: [filter.market_type] }),
  };
}

/**
 * Checks the query parameters of the SSE stream (GET /api/v1/nba/odds/stream): the filter of
 * /live-odds (game_id, market_type, book_id), `signals`, and, instead of headers, api_key and
 * last_event_id; each given once at most.
 * @throws AppError BAD_REQUEST naming the bad parameter
 */
export function parseStreamQuery(search: URLSearchParams): { filter: LiveFilter; lastEventId: string | null; signals: SignalFilter | null } {
  const single = (name: string) => {
    const values = search.getAll(name);
    if (values.length > 1) throw new AppError('BAD_REQUEST', `invalid parameter ${name}: give it once`);
    return values[0] ?? null;
  };
  const filter: LiveFilter = {};
  for (const name of ['game_id', 'book_id'] as const) {
    const value = single(name);
    if (value === null) continue;
    if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw new AppError('BAD_REQUEST', `invalid parameter ${name}: must be a positive integer`);
    filter[name] = Number(value);
  }
  const type = single('market_type');
  if (type !== null) {
    if (!(LIVE_MARKET_TYPES as readonly string[]).includes(type)) throw new AppError('BAD_REQUEST', `invalid parameter market_type: must be one of ${LIVE_MARKET_TYPES.join(', ')}`);
    filter.market_type = type as LiveFilter['market_type'];
  }
  single('api_key');
  const signals = signalFilterOf(single('signals'), filter);
  // Props have no line-movement signals: a props stream asking for them gets none.
  return { filter, lastEventId: single('last_event_id'), signals: filter.market_type === 'player_props' ? null : signals };
}
