// The live protocol's client rules (the service's docs/live-protocol.md), as pure functions over a
// state: a snapshot replaces it; a delta of the same stream is ignored when its seq is not above the
// state's, applied when its base_seq is the state's seq, and otherwise is a gap (resync). Applying
// a delta: its games replace those games (a game no longer being played leaves, with its quotes);
// its quotes replace the quote with the same game, book, market type, period and side (on a player
// prop: the same player and main/alternate line, and on an alternate line the same point).
// The package stands alone (nothing of the service's src/ at run time), so the few values the rules
// need are written here; the filter's values come from the OpenAPI document's types.

import type { operations } from '../api-types';

/** Statuses of a game being played: the games the live state holds (as GET /live; the service's LIVE_STATUSES). */
export const LIVE_STATUSES: readonly string[] = ['in_progress', 'live'];

/**
 * The live filter (Socket.IO `subscribe`, SSE query; the parameters of GET /stream): absent fields
 * match everything. `market_type`: `spread`, `moneyline`, `total`, or `player_props` (then only the
 * props are pushed).
 */
export type LiveFilter = Pick<NonNullable<operations['OddsStream']['parameters']['query']>, 'game_id' | 'market_type' | 'book_id'>;

/** One displayed quote (the live price while a game is played), as a delta carries it. */
export interface LiveQuote {
  game_id: number;
  book_id: number;
  /** `spread`, `moneyline`, `total`, or a prop's (`player_points`, ...). */
  market_type: string;
  period: string;
  /** `home`, `away`, `over`, `under` (`yes`, `no` on a prop without a line). */
  side: string;
  /** Player props only: the player. */
  player_id?: number;
  /** Player props only: `points`, `rebounds`, ... */
  prop_type?: string;
  /** Player props only: an alternate line (its point is part of its identity). */
  is_alternate?: boolean;
  is_live: boolean;
  /** The line (null on moneyline and yes/no props). */
  point: number | null;
  /** American price. */
  price: number;
  decimal: number;
  /** false: withdrawn. */
  is_available: boolean;
  line_status: string;
}

/** A game being played: status, clock and score, and its displayed quotes in the filter. */
export interface LiveGame {
  game_id: number;
  status: string;
  status_display: string | null;
  clock: string | null;
  period: number | null;
  home_score: number | null;
  away_score: number | null;
  /** Ordered by book, market type, period, side (and player and point on props). */
  quotes: LiveQuote[];
}

/** What the helper hands out: the games being played, by id, at a position of a stream. */
export interface LiveState {
  /** The stream the state follows (`global` on SSE), null before the first snapshot. */
  stream: string | null;
  /** The seq (SSE: the event id) of the last snapshot or delta applied; -1 before the first snapshot. */
  seq: number;
  games: LiveGame[];
}

/** `live_odds`: a full snapshot (`data` is GET /live's `data`). */
export interface LiveSnapshotPayload {
  success: boolean;
  data?: unknown[];
  count?: number;
  updated_at?: string | null;
  reason?: string;
  resync_reason?: string;
  stream?: string;
  seq?: number;
  error?: string;
}

/** `odds_change`: what one ingest (or, on an SSE catch-up, several) changed inside the filter. */
export interface LiveDeltaPayload {
  stream: string;
  seq: number;
  base_seq: number;
  at: string;
  games: Array<Omit<LiveGame, 'quotes'>>;
  quotes: LiveQuote[];
}

/** What the caller is told after each snapshot or delta applied. */
export interface LiveChange {
  kind: 'snapshot' | 'delta';
  /** The snapshot's reason (`snapshot`, `interval`, `resync`), or `change` for a delta. */
  reason: string;
  stream: string;
  seq: number;
  /** Games whose status, clock or score the change set (a snapshot: every game), being played. */
  games: Array<Omit<LiveGame, 'quotes'>>;
  /** Games that left the live set (finished, or gone from a snapshot). */
  removed: number[];
  /** Quotes the change set (a snapshot: every quote). */
  quotes: LiveQuote[];
}

/** What to do with a delta: apply it, ignore it (already held), or resync (a delta was missed). */
export type DeltaVerdict = 'apply' | 'ignore' | 'resync';

/** The identity of a quote: what a delta's quote replaces. */
export function quoteKey(q: LiveQuote): string {
  const base = `${q.game_id}|${q.book_id}|${q.market_type}|${q.period}|${q.side}`;
  return q.player_id === undefined ? base : `${base}|${q.player_id}|${q.is_alternate ? `alt:${q.point}` : 'main'}`;
}

const byQuoteOrder = (a: LiveQuote, b: LiveQuote) =>
  a.book_id - b.book_id ||
  a.market_type.localeCompare(b.market_type) ||
  a.period.localeCompare(b.period) ||
  a.side.localeCompare(b.side) ||
  (a.player_id ?? 0) - (b.player_id ?? 0) ||
  Number(a.is_alternate ?? false) - Number(b.is_alternate ?? false) ||
  (a.point ?? 0) - (b.point ?? 0);

type Obj = Record<string, any>;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A game of GET /live's `data` (or a snapshot's) without its quotes. */
function gameOf(g: Obj): Omit<LiveGame, 'quotes'> {
  const box: Obj = g.boxscore ?? {};
  return {
    game_id: g.game_id,
    status: g.status,
    status_display: str(g.status_display),
    clock: str(box.clock),
    period: num(box.period),
    home_score: num(box.home_score),
    away_score: num(box.away_score),
  };
}

/** The quotes of a game of GET /live's `data`: every outcome of its markets (props included), in the delta's shape. */
function quotesOf(g: Obj): LiveQuote[] {
  const quotes: LiveQuote[] = [];
  for (const market of Object.values((g.markets ?? {}) as Record<string, Obj | null>)) {
    for (const o of (market?.outcomes ?? []) as Obj[]) {
      const prop = o.player !== undefined && o.prop_type !== undefined;
      quotes.push({
        game_id: g.game_id,
        book_id: o.book_id,
        market_type: o.market_type,
        period: o.period ?? 'full_game',
        side: o.side,
        ...(prop && { player_id: o.player?.id, prop_type: o.prop_type, is_alternate: o.is_alternate === true }),
        is_live: o.is_live === true,
        point: num(o.point),
        price: Number(o.odds?.original ?? o.odds?.american),
        decimal: Number(o.odds?.decimal),
        is_available: o.is_available !== false,
        line_status: o.line_status,
      });
    }
  }
  return quotes;
}

/**
 * The live state of GET /live's `data` (or a `live_odds` snapshot's): what the helper holds after a
 * snapshot, and what it should equal at any quiet moment. Useful to start from a REST read, or to
 * compare the helper's state with GET /live.
 */
export function liveStateOf(data: readonly unknown[], stream: string | null = null, seq = -1): LiveState {
  const book = new LiveBook();
  book.replace(data as Obj[], stream, seq);
  return book.state();
}

/** The mutable state the live helper keeps (one per feed); `state()` hands out a copy. */
export class LiveBook {
  stream: string | null = null;
  seq = -1;
  private games = new Map<number, { game: Omit<LiveGame, 'quotes'>; quotes: Map<string, LiveQuote> }>();

  /** Replaces the state by a snapshot's data; returns what the caller is told. */
  replace(data: readonly Obj[], stream: string | null, seq: number): Pick<LiveChange, 'games' | 'removed' | 'quotes'> {
    const before = new Set(this.games.keys());
    this.games.clear();
    const games: LiveChange['games'] = [];
    const quotes: LiveQuote[] = [];
    for (const g of data) {
      const game = gameOf(g);
      const held = { game, quotes: new Map<string, LiveQuote>() };
      for (const q of quotesOf(g)) held.quotes.set(quoteKey(q), q);
      this.games.set(game.game_id, held);
      games.push(game);
      quotes.push(...held.quotes.values());
    }
    this.stream = stream;
    this.seq = seq;
    return { games, removed: [...before].filter((id) => !this.games.has(id)), quotes };
  }

  /** Rule 2 of the protocol: what to do with `delta` given the state's stream and seq. */
  verdict(delta: Pick<LiveDeltaPayload, 'stream' | 'seq' | 'base_seq'>): DeltaVerdict {
    if (this.stream === null || delta.stream !== this.stream || delta.seq <= this.seq) return 'ignore';
    return delta.base_seq === this.seq ? 'apply' : 'resync';
  }

  /** Applies a delta (call only on the verdict `apply`); returns what the caller is told. */
  apply(delta: LiveDeltaPayload): Pick<LiveChange, 'games' | 'removed' | 'quotes'> {
    const removed: number[] = [];
    for (const g of delta.games) {
      const { game_id, status, status_display, clock, period, home_score, away_score } = g;
      const game = { game_id, status, status_display, clock, period, home_score, away_score };
      if (!LIVE_STATUSES.includes(status)) {
        if (this.games.delete(game_id)) removed.push(game_id);
        continue;
      }
      const held = this.games.get(game_id);
      if (held) held.game = game;
      else this.games.set(game_id, { game, quotes: new Map() });
    }
    for (const q of delta.quotes) {
      let held = this.games.get(q.game_id);
      // The service sends quotes of games being played only; a game started in this delta is in its
      // `games` above. Without that (not expected), hold the quotes under a game being played.
      if (!held) {
        held = { game: { game_id: q.game_id, status: 'in_progress', status_display: null, clock: null, period: null, home_score: null, away_score: null }, quotes: new Map() };
        this.games.set(q.game_id, held);
      }
      held.quotes.set(quoteKey(q), { ...q });
    }
    this.seq = delta.seq;
    return { games: delta.games.filter((g) => LIVE_STATUSES.includes(g.status)), removed, quotes: delta.quotes };
  }

  /** A copy of the state: games by id, quotes in a fixed order. */
  state(): LiveState {
    const games = [...this.games.values()]
      .map(({ game, quotes }) => ({ ...game, quotes: [...quotes.values()].map((q) => ({ ...q })).sort(byQuoteOrder) }))
      .sort((a, b) => a.game_id - b.game_id);
    return { stream: this.stream, seq: this.seq, games };
  }
}
