// The statement of one capture: column lists of the feed tables and the builder of the one SQL
// command (data-modifying WITH clauses) that writes everything a capture changes.

/** Advisory lock key serialising document writes (any constant unique to this service). */
export const INGEST_LOCK_ID = 7_243_001;

export type SqlType = 'int' | 'float8' | 'text' | 'bool' | 'jsonb' | 'timestamp(3)';
export type Column = readonly [name: string, type: SqlType];

export const TEAM_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['leagueId', 'int'], ['fullName', 'text'], ['displayName', 'text'], ['shortName', 'text'], ['location', 'text'], ['abbr', 'text'],
  ['logo', 'text'], ['primaryColor', 'text'], ['secondaryColor', 'text'], ['conferenceType', 'text'], ['divisionType', 'text'], ['urlSlug', 'text'],
  ['coreId', 'int'], ['win', 'int'], ['loss', 'int'], ['ties', 'int'], ['overtimeLosses', 'int'], ['draw', 'int'], ['updatedAt', 'timestamp(3)'],
];
export const GAME_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['leagueId', 'int'], ['coreId', 'text'], ['status', 'text'], ['upstreamStatus', 'text'], ['realStatus', 'text'], ['statusDisplay', 'text'],
  ['startTime', 'timestamp(3)'], ['awayTeamId', 'int'], ['homeTeamId', 'int'], ['winningTeamId', 'int'], ['type', 'text'], ['season', 'text'], ['week', 'int'],
  ['attendance', 'int'], ['coverage', 'text'], ['isFree', 'bool'], ['trending', 'bool'], ['awayRotationNumber', 'int'], ['homeRotationNumber', 'int'],
  ['numBets', 'int'], ['broadcast', 'jsonb'], ['series', 'jsonb'], ['meta', 'jsonb'], ['simulated', 'bool'], ['updatedAt', 'timestamp(3)'], ['seenAt', 'timestamp(3)'],
];
/** A game whose bet count alone changed (the narrow update of feed-diff.ts). */
export const BET_COUNT_COLUMNS: readonly Column[] = [['id', 'int'], ['numBets', 'int'], ['updatedAt', 'timestamp(3)'], ['seenAt', 'timestamp(3)']];
export const BOXSCORE_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['clock', 'text'], ['period', 'int'], ['homeScore', 'int'], ['awayScore', 'int'], ['periodScores', 'jsonb'], ['totalPoints', 'int'],
  ['homeFirstHalf', 'int'], ['awayFirstHalf', 'int'], ['homeSecondHalf', 'int'], ['awaySecondHalf', 'int'], ['updatedAt', 'timestamp(3)'],
];
export const QUOTE_KEY = ['gameId', 'bookId', 'marketType', 'period', 'side', 'isLive', 'playerId', 'lineKey'];
export const QUOTE_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'], ['isLive', 'bool'],
  ['outcomeId', 'text'], ['teamId', 'int'], ['point', 'float8'], ['american', 'int'], ['decimal', 'float8'], ['fractional', 'text'],
  ['isAvailable', 'bool'], ['lineStatus', 'text'], ['seenAt', 'timestamp(3)'], ['changedAt', 'timestamp(3)'],
  ['openPoint', 'float8'], ['openAmerican', 'int'], ['openedAt', 'timestamp(3)'], ['source', 'text'], ['playerId', 'int'], ['lineKey', 'text'],
];
/** Columns of the quote rows a capture sends: the Quote table's, and whether the point or price moved (a history row). */
export const QUOTE_INPUT: readonly Column[] = [...QUOTE_COLUMNS, ['moved', 'bool']];
export const BETTING_KEY = ['gameId', 'bookId', 'marketType', 'period', 'side'];
export const BETTING_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'],
  ['ticketsPercent', 'float8'], ['moneyPercent', 'float8'], ['numBets', 'int'], ['updatedAt', 'timestamp(3)'],
];

/** Characters a quoted array element must escape. */
const NEEDS_ESCAPE = /[\\"]/;

/** One value of a PostgreSQL array literal (`{...}`): NULL, a number or boolean, or a quoted string. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? String(value) : `"${value}"`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'string':
      // Most values (times, market names) have nothing to escape: testing first skips the replace.
      return NEEDS_ESCAPE.test(value) ? `"${value.replace(/[\\"]/g, '\\$&')}"` : `"${value}"`;
    default:
      return `"${String(value).replace(/[\\"]/g, '\\$&')}"`;
  }
}

/**
 * The rows' values of one column as a PostgreSQL array literal. Joined, not appended one by one: a
 * string built with `+=` stays a chain of thousands of pieces until it is sent, and the demo's
 * back-fill (captures of thousands of new rows) peaked ~15 MB higher with it.
 */
function arrayLiteral(rows: readonly object[], column: string): string {
  const values = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) values[i] = arrayElement((rows[i] as Record<string, unknown>)[column]);
  return `{${values.join(',')}}`;
}

/**
 * The statement of one capture: every write is a part of one SQL command (data-modifying WITH
 * clauses), so a capture costs one round trip and is one transaction. Rows travel as one parameter
 * per column (a PostgreSQL array literal, turned back into a relation by `unnest`), or, for tables
 * with JSON columns, as one JSON parameter (jsonb_to_recordset): one set-based write per table,
 * whatever the number of rows. Each write reads `v`, so it runs after the advisory lock is held and
 * the ingest counter has moved, and only when the counter was the one this process expected
 * (`v.ok`); otherwise nothing but the counter changes and the caller reloads and retries.
 */
export class CaptureStatement {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  /** `captures`: how many captures the statement writes, each moving the ingest counter by one. */
  constructor(feedTime: string, expectedVersion: bigint, captures: number) {
    const moves = this.param(captures);
    this.parts.push(
      // Asynchronous commit for this transaction only: see docs/ingest.md, "Commit without waiting for the disk".
      `l AS (SELECT pg_advisory_xact_lock(${INGEST_LOCK_ID}), set_config('synchronous_commit', 'off', true))`,
      `v AS (INSERT INTO "IngestState" ("id", "version", "feedTime") SELECT 1, ${moves}::bigint, ${this.param(feedTime)}::timestamp(3) FROM l
        ON CONFLICT ("id") DO UPDATE SET "version" = "IngestState"."version" + ${moves}::bigint, "feedTime" = GREATEST("IngestState"."feedTime", EXCLUDED."feedTime")
        RETURNING "version", "version" = ${this.param(String(expectedVersion + BigInt(captures)))}::bigint AS ok)`,
    );
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /**
   * The rows as a relation named `name` for later parts (`FROM name`): one array parameter per
   * column, unnested together. Columns must not be JSON (arrays of jsonb would need nested quoting).
   */
  rows(name: string, columns: readonly Column[], rows: readonly object[]): void {
    const arrays = columns.map(([column, type]) => `${this.param(arrayLiteral(rows, column))}::${type}[]`);
    this.parts.push(`${name} AS (SELECT * FROM unnest(${arrays.join(', ')}) AS t(${columns.map(([column]) => `"${column}"`).join(', ')}))`);
  }

  /**
   * Inserts `rows` (or, given a relation from `rows()`, its rows matching `where`); with
   * `conflict`, an upsert on that unique key updating every column not in `keep`.
   */
  write(
    table: string,
    columns: readonly Column[],
    rows: readonly object[] | { from: string; where?: string },
    conflict?: { key: readonly string[]; keep?: readonly string[] },
  ): void {
    let from: string;
    const where = ['(SELECT ok FROM v)'];
    if (Array.isArray(rows)) {
      if (!rows.length) return;
      const types = columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
      from = `jsonb_to_recordset(${this.param(JSON.stringify(rows))}::jsonb) AS t(${types})`;
    } else {
      const source = rows as { from: string; where?: string };
      from = source.from;
      if (source.where) where.unshift(source.where);
    }
    const names = columns.map(([name]) => `"${name}"`).join(', ');
    let sql = `INSERT INTO "${table}" (${names}) SELECT ${names} FROM ${from} WHERE ${where.join(' AND ')}`;
    if (conflict) {
      const updated = columns.map(([name]) => name).filter((name) => !conflict.key.includes(name) && !conflict.keep?.includes(name));
      const action = updated.length ? `UPDATE SET ${updated.map((n) => `"${n}" = EXCLUDED."${n}"`).join(', ')}` : 'NOTHING';
      sql += ` ON CONFLICT (${conflict.key.map((k) => `"${k}"`).join(', ')}) DO ${action}`;
    }
    this.parts.push(`w${this.parts.length} AS (${sql})`);
  }

  /** Any other write; `sql` must contain `(SELECT ok FROM v)` in its condition. */
  add(name: string, sql: string): void {
    this.parts.push(`${name} AS (${sql})`);
  }

  text(returning: string): string {
    return `WITH ${this.parts.join(',\n')}\nSELECT v."version", v.ok${returning} FROM v`;
  }
}

export const LEAGUE_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['sport', 'text'], ['name', 'text'], ['description', 'text'], ['logo', 'text'], ['currentSeason', 'text'], ['currentSeasonType', 'text'], ['isActive', 'bool'],
];

export const SPORTSBOOK_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['name', 'text'], ['nameKnown', 'bool'], ['kind', 'text'], ['isAggregate', 'bool'], ['isSharp', 'bool'],
];
