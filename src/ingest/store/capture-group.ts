import { LIVE_STATUSES, LOST_GAME_AFTER_MS, LOST_GAME_DISPLAY, LOST_GAME_STATUS } from '../../domain';
import { CHANGE_LOG_RETENTION_MS } from '../../db/change-log';
import {
  BET_COUNT_COLUMNS, BETTING_COLUMNS, BETTING_KEY, BOXSCORE_COLUMNS, CaptureStatement, GAME_COLUMNS, LEAGUE_COLUMNS, QUOTE_COLUMNS, QUOTE_INPUT, QUOTE_KEY, SPORTSBOOK_COLUMNS, TEAM_COLUMNS,
} from '../../db/capture-statement';
import { iso, type Capture, type GameWrite } from './feed-diff';
import type { GameState, QuoteState, Slot } from './feed-state';
import { writeSignals, type SignalRow } from '../../db/signal-repository';

// The one statement that writes a group of consecutive captures (one, as a poller writes them, or
// several of a recorded series): one transaction, whose writes equal those of the captures written one
// after the other. A row the group changes several times is written once, as the last capture left it
// (one statement cannot write a row twice), while every capture keeps its own history rows, change-log
// entry and counter value. docs/ingest.md, "Captures written in groups".

/** A group's statement, and which capture each signal it stores belongs to (its last occurrence). */
export interface GroupStatement {
  text: string;
  params: unknown[];
  signalOwners: Map<string, number>;
}

/** The statement of `captures`, diffed in this order against one memory; a capture that sweeps is alone. */
export function groupStatement(captures: readonly Capture[]): GroupStatement {
  const first = captures[0]!;
  const last = captures[captures.length - 1]!;
  if (captures.length > 1 && captures.some((c) => c.sweep)) throw new Error('capture group: a capture that sweeps is written alone');
  const feedTime = captures.reduce((latest, c) => (c.stamp > latest ? c.stamp : latest), first.stamp);
  const sql = new CaptureStatement(feedTime, first.version - 1n, captures.length);

  const league = captures.findLast((c) => c.league)?.league;
  if (league) {
    sql.add('league', `UPDATE "League" SET "currentSeason" = ${sql.param(league.currentSeason)}, "currentSeasonType" = ${sql.param(league.currentSeasonType)},
      "isActive" = ${sql.param(league.isActive)} WHERE "id" = ${sql.param(league.id)} AND (SELECT ok FROM v)`);
  }
  sql.write('League', LEAGUE_COLUMNS, captures.flatMap((c) => c.leagueRows), { key: ['id'], keep: LEAGUE_COLUMNS.map(([n]) => n) });
  sql.write('Sportsbook', SPORTSBOOK_COLUMNS, captures.flatMap((c) => c.bookRows), { key: ['id'], keep: SPORTSBOOK_COLUMNS.map(([n]) => n) });
  sql.write('Team', TEAM_COLUMNS, lastById(captures.flatMap((c) => c.teamRows), (t) => t.id), { key: ['id'] });

  // Games: one write per game, the fold of its writes in capture order.
  const games = new Map<number, GameWrite>();
  for (const c of captures) for (const write of c.games) games.set(write.id, folded(games.get(write.id), write));
  const rows: object[] = [];
  const bets: object[] = [];
  const seen: object[] = [];
  for (const write of games.values()) {
    if (write.kind === 'row') rows.push(write.row);
    else if (write.kind === 'bets') bets.push(write);
    else seen.push(write);
  }
  sql.write('Game', GAME_COLUMNS, rows, { key: ['id'] });
  if (bets.length) {
    sql.rows('bets', BET_COUNT_COLUMNS, bets);
    sql.add('bet_counts', `UPDATE "Game" g SET "numBets" = bets."numBets", "updatedAt" = bets."updatedAt", "seenAt" = bets."seenAt"
      FROM bets WHERE g."id" = bets."id" AND (SELECT ok FROM v)`);
  }
  if (seen.length) {
    sql.rows('seen', [['id', 'int'], ['seenAt', 'timestamp(3)']], seen);
    sql.add('seen_at', `UPDATE "Game" g SET "seenAt" = seen."seenAt" FROM seen WHERE g."id" = seen."id" AND (SELECT ok FROM v)`);
  }
  sql.write('Boxscore', BOXSCORE_COLUMNS, lastById(captures.flatMap((c) => c.boxRows), (b) => b.gameId), { key: ['gameId'] });

  // Quotes: every capture's moves go to the history; the Quote row as the last capture left it.
  const quotes: object[] = [];
  const written = new Set<QuoteState>();
  for (let i = captures.length - 1; i >= 0; i--) {
    const changed = captures[i]!.quotes;
    for (let j = changed.length - 1; j >= 0; j--) {
      const { quote, record, moved } = changed[j]!;
      const isLast = !written.has(quote);
      if (isLast) written.add(quote);
      if (isLast || moved) quotes.push({ ...record, last: isLast });
    }
  }
  if (quotes.length) {
    quotes.reverse(); // history rows in capture order, as one capture at a time inserts them
    sql.rows('q', [...QUOTE_INPUT, ['last', 'bool']], quotes);
    sql.write('Quote', QUOTE_COLUMNS, { from: 'q', where: '"last"' }, { key: QUOTE_KEY, keep: ['openPoint', 'openAmerican', 'openedAt'] });
  }
  if (captures.some((c) => c.historyRows)) {
    sql.add('h', `INSERT INTO "OddsHistory" ("gameId", "bookId", "marketType", "period", "side", "isLive", "point", "american", "decimal", "seenAt", "source", "playerId", "lineKey")
      SELECT "gameId", "bookId", "marketType", "period", "side", "isLive", "point", "american", "decimal", "changedAt", "source", "playerId", "lineKey" FROM q WHERE "moved" AND (SELECT ok FROM v)`);
  }

  const betting: object[] = [];
  const bettingWritten = new Map<GameState, Set<Slot>>();
  for (let i = captures.length - 1; i >= 0; i--) {
    for (const { game, slot, record } of captures[i]!.betting) {
      let slots = bettingWritten.get(game);
      if (!slots) bettingWritten.set(game, (slots = new Set()));
      if (slots.has(slot)) continue;
      slots.add(slot);
      betting.push(record);
    }
  }
  if (betting.length) {
    sql.rows('b', BETTING_COLUMNS, betting);
    sql.write('PublicBetting', BETTING_COLUMNS, { from: 'b' }, { key: BETTING_KEY });
  }

  if (first.sweep) {
    const live = LIVE_STATUSES.map((s) => `'${s}'`).join(', ');
    const cut = sql.param(iso(first.at - LOST_GAME_AFTER_MS));
    sql.add('lost', `UPDATE "Game" SET "status" = '${LOST_GAME_STATUS}', "statusDisplay" = '${LOST_GAME_DISPLAY}', "updatedAt" = ${sql.param(first.stamp)}::timestamp(3)
      WHERE "status" IN (${live}) AND "startTime" < ${cut}::timestamp(3) AND COALESCE("seenAt", "updatedAt") < ${cut}::timestamp(3)
        AND "id" <> ALL(${sql.param(first.gameIds)}::int[]) AND (SELECT ok FROM v) RETURNING "id"`);
  }

  // The change log: an entry per capture that changed something, under its own counter value, so no
  // change commits without its sequence (change-log.ts). The sweep's games join its capture's entry.
  const entries = captures
    .filter((c) => c.changedGames.size || c.changedMarkets.size || c.sweep)
    .map((c) => ({ version: String(c.version), seenAt: c.stamp, games: [...c.changedGames], started: [...c.startedGames], markets: [...c.changedMarkets.values()] }));
  if (entries.length) {
    // RETURNING gives no order: the lost games are listed by id, so the log and the announcement
    // are the same whatever order PostgreSQL updated them in.
    const lost = first.sweep ? ` || ARRAY(SELECT "id" FROM lost ORDER BY "id")` : '';
    sql.add('changelog', `INSERT INTO "ChangeLog" ("version", "seenAt", "games", "started", "markets")
      SELECT t."version", t."seenAt", t."games"${lost}, t."started", t."markets"
      FROM jsonb_to_recordset(${sql.param(JSON.stringify(entries))}::jsonb) AS t("version" bigint, "seenAt" timestamp(3), "games" int[], "started" int[], "markets" jsonb) WHERE (SELECT ok FROM v)`);
  }
  if (captures.some((c) => c.prune)) {
    // The newest entry is never dropped: it is the position every snapshot and change feed starts from
    // (src/db/change-log.ts, latestEntryVersion), the same on every process however long the log was quiet.
    sql.add('changelog_prune', `DELETE FROM "ChangeLog" WHERE "recordedAt" < now() - ${sql.param(CHANGE_LOG_RETENTION_MS)}::float8 * interval '1 millisecond'
      AND "version" < (SELECT max("version") FROM "ChangeLog") AND (SELECT ok FROM v)`);
  }

  // Signals: a key found by several captures is written once, with its first figures and, for a
  // market leader (whose data is replaced when it differs), its last data.
  const signals = new Map<string, SignalRow & { detectedAt: Date }>();
  const signalOwners = new Map<string, number>();
  captures.forEach((c, i) => {
    for (const row of c.signals) {
      const known = signals.get(row.key);
      signals.set(row.key, known ? { ...known, data: row.data } : { ...row, detectedAt: new Date(c.at) });
      signalOwners.set(row.key, i);
    }
  });
  let returning = first.sweep ? ', ARRAY(SELECT "id" FROM lost ORDER BY "id") AS lost' : '';
  if (signals.size) returning += writeSignals(sql, [...signals.values()]);
  return { text: sql.text(returning), params: sql.params, signalOwners };
}

/** The last row of each id, in the order ids were first met. */
function lastById<T>(rows: readonly T[], id: (row: T) => number): T[] {
  const byId = new Map<number, T>();
  for (const row of rows) byId.set(id(row), row);
  return [...byId.values()];
}

/** A game's writes folded: a later whole row replaces all; a later bet count or time patches a whole row. */
function folded(before: GameWrite | undefined, next: GameWrite): GameWrite {
  if (!before || next.kind === 'row') return next;
  if (next.kind === 'bets') {
    if (before.kind === 'row') return { ...before, row: { ...before.row, numBets: next.numBets, updatedAt: next.updatedAt, seenAt: next.seenAt } };
    return next;
  }
  if (before.kind === 'row') return { ...before, row: { ...before.row, seenAt: next.seenAt } };
  return { ...before, seenAt: next.seenAt };
}
