import type { SportsbookRow } from '../../feed-rows';
import { BOOK_ID_PINNACLE, type BookKind } from '../../reference-data';

/**
 * The Odds API's bookmaker keys onto the service's sportsbook ids (src/ingest/reference-data.ts): a
 * book both sources carry is one sportsbook (DraftKings is 68 whichever said it). Keys not listed get
 * a stable id of their own in UNLISTED_BOOK_IDS, named by the response's title.
 */
export const ODDS_API_BOOK_IDS: Readonly<Record<string, number>> = {
  draftkings: 68,
  fanduel: 69,
  betmgm: 75,
  williamhill_us: 123, // Caesars
  betrivers: 71,
  bet365: 79,
  fanatics: 2988,
  hardrockbet: 2724,
  pinnacle: BOOK_ID_PINNACLE,
  betonlineag: 6001,
  betus: 6002,
  bovada: 6003,
  lowvig: 6004,
  mybookieag: 6005,
  espnbet: 6006,
  ballybet: 6007,
  betparx: 6008,
  fliff: 6009,
  betanysports: 6010,
  betfair_ex_au: 6020,
  betfair_ex_uk: 6021,
  betfair_ex_eu: 6022,
  matchbook: 6023,
  smarkets: 6024,
  novig: 6025,
  prophetx: 6026,
  betopenly: 6027,
  kalshi: 6030,
  polymarket: 6031,
  pointsbetau: 6040,
  tabtouch: 6041,
  unibet: 6042,
  tab: 6043,
  neds: 6044,
  sportsbet: 6045,
  ladbrokes_au: 6046,
  betright: 6047,
  betr_au: 6048,
  playup: 6049,
  dabble_au: 6050,
  bet365_au: 6051,
  boombet: 6052,
};

/** Ids of books only known by an unlisted key: 7,000,000 + a hash of the key (stable across restarts and stores). */
export const UNLISTED_BOOK_IDS = { from: 7_000_000, size: 1_000_000 } as const;

/** FNV-1a, 32 bits: a stable hash of a string (ids derived from upstream string keys). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Exchanges by key pattern (Betfair's `_ex_` keys), for books not listed above. */
function kindOfKey(key: string): BookKind {
  return /_ex(_|$)/.test(key) ? 'exchange' : 'sportsbook';
}

/** The sportsbook id of a bookmaker key, and the row to create when the key is not listed. */
export function bookOf(key: string, title: string | null | undefined): { id: number; row?: SportsbookRow } {
  const id = ODDS_API_BOOK_IDS[key];
  if (id !== undefined) return { id };
  const derived = UNLISTED_BOOK_IDS.from + (fnv1a(key) % UNLISTED_BOOK_IDS.size);
  return { id: derived, row: { id: derived, name: title || key, nameKnown: !!title, kind: kindOfKey(key), isAggregate: false, isSharp: false } };
}
