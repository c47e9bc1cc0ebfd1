import { compareCodePoints } from './compare';

/**
 * Labels of line movement records (issue 23; docs/signals.md, "Labels on /live/movement"): which
 * stored signals each book took part in, per game, market and period. Pure over the stored rows
 * (LineSignal: kind, game, market, period, side, at and the `data` the ingest wrote), so requests only
 * read the table and never run the detectors.
 */

/** A stored signal as the labels read it (the LineSignal row; `data` is its snake_case JSON). */
export interface StoredSignalRow {
  key: string;
  kind: string;
  gameId: number;
  marketType: string;
  period: string;
  side: string;
  at: Date;
  data: unknown;
}

/** One label: a signal a book took part in. */
export interface SignalLabel {
  key: string;
  /** steam, reverse_line_movement, market_leader (first on the number) or market_follower. */
  kind: 'steam' | 'reverse_line_movement' | 'market_leader' | 'market_follower';
  at: Date;
  direction: string | null;
  number: number | null;
  leaderBookId: number | null;
  afterSeconds: number | null;
  majoritySide: string | null;
  majorityTicketsPercent: number | null;
  majorityMoneyPercent: number | null;
}

/** The key of the labels of one book's market: game, market type, period, book. */
export const labelKey = (gameId: number, marketType: string, period: string, bookId: number): string => `${gameId}|${marketType}|${period}|${bookId}`;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Labels by labelKey, each list oldest first. A steam or RLM event labels every book among its moves;
 * a leader event labels its leader (market_leader) and each follower (market_follower, with its delay).
 * Both sides of a market share its labels: a signal is read on one side, the other mirrors it.
 * Rows whose data lacks the fields (written by another version) label nothing rather than fail.
 */
export function signalLabels(rows: readonly StoredSignalRow[]): Map<string, SignalLabel[]> {
  const out = new Map<string, SignalLabel[]>();
  const add = (row: StoredSignalRow, bookId: unknown, label: Omit<SignalLabel, 'key' | 'at'>) => {
    if (typeof bookId !== 'number') return;
    const key = labelKey(row.gameId, row.marketType, row.period, bookId);
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    // A book moving twice inside one event is one label.
    if (list.some((l) => l.key === row.key && l.kind === label.kind)) return;
    list.push({ key: row.key, at: row.at, ...label });
  };
  const none = { direction: null, number: null, leaderBookId: null, afterSeconds: null, majoritySide: null, majorityTicketsPercent: null, majorityMoneyPercent: null };
  for (const row of rows) {
    const data = (row.data ?? {}) as Record<string, unknown>;
    const moves = Array.isArray(data.moves) ? (data.moves as Array<Record<string, unknown>>) : [];
    if (row.kind === 'steam') {
      for (const m of moves) add(row, m.book_id, { ...none, kind: 'steam', direction: str(data.direction) });
    } else if (row.kind === 'reverse_line_movement') {
      const rlm = {
        ...none,
        kind: 'reverse_line_movement' as const,
        direction: str(data.toward_side) ?? row.side,
        majoritySide: str(data.majority_side),
        majorityTicketsPercent: num(data.majority_tickets_percent),
        majorityMoneyPercent: num(data.majority_money_percent),
      };
      for (const m of moves) add(row, m.book_id, rlm);
    } else if (row.kind === 'market_leader') {
      const leader = num(data.leader_book_id);
      const number = num(data.number);
      add(row, leader, { ...none, kind: 'market_leader', number, leaderBookId: leader });
      const followers = Array.isArray(data.followers) ? (data.followers as Array<Record<string, unknown>>) : [];
      for (const f of followers) add(row, f.book_id, { ...none, kind: 'market_follower', number, leaderBookId: leader, afterSeconds: num(f.after_seconds) });
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.at.getTime() - b.at.getTime() || compareCodePoints(a.key, b.key));
  return out;
}
