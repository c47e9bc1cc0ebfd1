import { buildListing, type BuildListingInput, type ListingBook, type ListingQuote } from '../../src/domain';

// Edge cases of the listing assembly that crafted feeds reach awkwardly; no database involved (the
// HTTP tests in listings.test.ts cover the numbers end to end).

const NOW = new Date('2026-01-08T20:00:00.000Z');
const SEEN = new Date('2026-01-08T19:59:00.000Z');
const GAME = { id: 1, league: 'NBA' as const, homeTeamId: 10, awayTeamId: 20 };
const BOOKS = new Map<number, ListingBook>([
  [15, { id: 15, name: 'Consensus', isAggregate: true, isSharp: false }],
  [99, { id: 99, name: 'Sharp', isAggregate: false, isSharp: true }],
]);

function quote(bookId: number, marketType: string, side: string, decimal: number, point: number | null = null, extra: Partial<ListingQuote> = {}): ListingQuote {
  return {
    gameId: 1,
    bookId,
    marketType,
    period: 'full_game',
    side,
    isLive: false,
    outcomeId: null,
    teamId: side === 'home' ? 10 : side === 'away' ? 20 : null,
    point,
    american: decimal >= 2 ? Math.round((decimal - 1) * 100) : -Math.round(100 / (decimal - 1)),
    decimal,
    fractional: '1/1',
    isAvailable: true,
    lineStatus: 'normal',
    seenAt: SEEN,
    changedAt: SEEN,
    ...extra,
  };
}

function build(quotes: ListingQuote[], extra: Partial<BuildListingInput> = {}) {
  return buildListing({ marketType: 'spread', games: [GAME], quotes, books: BOOKS, devigMethod: 'multiplicative', sort: 'value', now: NOW, ...extra });
}

test("when a pick'em spread is quoted home 0 / away 0, then both sides form one two-way line", () => {
  const entries = build([quote(1, 'spread', 'home', 1.9, 0), quote(1, 'spread', 'away', 1.9, -0)]);
  expect(entries.map((e) => e.ev.reference?.reference)).toEqual(['consensus', 'consensus']);
  expect(entries[0]!.ev.true_probability).toBeCloseTo(0.5, 12);
  expect(entries[0]!.ev.reference?.point_adjusted).toBe(false);
});

test('when a book hangs different lines on the two sides, then it gives no reference and its outcomes have no value', () => {
  const entries = build([quote(1, 'spread', 'home', 1.9, -3.5), quote(1, 'spread', 'away', 1.9, 4.5)]);
  expect(entries.map((e) => [e.value, e.ev.true_probability, e.ev.reference])).toEqual([
    [null, null, null],
    [null, null, null],
  ]);
  expect(entries.every((e) => e.ev.profitable === false && e.ev.edge_percentage === null)).toBe(true);
});

test('when some outcomes have no value, then sort=value puts them last', () => {
  const other = { ...GAME, id: 2 };
  const entries = buildListing({
    marketType: 'moneyline',
    games: [GAME, other],
    // Game 2 has one side quoted only: no two-way price anywhere, so no reference and no value.
    quotes: [quote(3, 'moneyline', 'home', 3, null, { gameId: 2 }), quote(1, 'moneyline', 'home', 1.5), quote(1, 'moneyline', 'away', 2.6)],
    books: BOOKS,
    devigMethod: 'multiplicative',
    sort: 'value',
    now: NOW,
  });
  expect(entries.map((e) => [e.quote.gameId, e.value === null])).toEqual([
    [1, false],
    [1, false],
    [2, true],
  ]);
  // A one-sided quote of a market that has a two-way price elsewhere takes that reference.
  const oneSided = build([quote(2, 'spread', 'home', 1.5, -9.5), quote(1, 'spread', 'home', 1.9, -3.5), quote(1, 'spread', 'away', 1.9, 3.5)]);
  expect(oneSided.every((e) => e.value !== null)).toBe(true);
  expect(oneSided.find((e) => e.quote.bookId === 2)!.ev.reference).toMatchObject({ reference_point: -3.5, point_adjusted: true });
});

test('when the sharp book and others quote the same line, then the sharp book is the reference and the others the staleness consensus', () => {
  const entries = build([
    quote(99, 'spread', 'home', 1.95, -3.5),
    quote(99, 'spread', 'away', 1.95, 3.5),
    quote(1, 'spread', 'home', 1.6, -3.5),
    quote(1, 'spread', 'away', 2.4, 3.5),
  ]);
  const home1 = entries.find((e) => e.quote.bookId === 1 && e.quote.side === 'home')!;
  expect(home1.ev.reference).toEqual({ reference: 'sharp', reference_point: -3.5, point_adjusted: false, reference_book_count: 1 });
  expect(home1.ev.true_probability).toBeCloseTo(0.5, 12);
  // Book 1 de-vigs to 0.6 for home; the consensus of both books is 0.55: 0.05 away, not stale.
  expect(home1.ev.stale).toBe(false);
});

test('when an aggregate book quotes, then it is neither listed nor a reference', () => {
  const entries = build([quote(15, 'spread', 'home', 1.8, -3.5), quote(15, 'spread', 'away', 2.1, 3.5), quote(1, 'spread', 'home', 1.9, -3.5)]);
  expect(entries.map((e) => e.quote.bookId)).toEqual([1]);
  expect(entries[0]!.value).toBeNull();
});

test('when a live quote is 61 seconds old, then it is stale; 59 seconds, then fresh', () => {
  const at = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
  const entries = build([
    quote(1, 'spread', 'home', 1.9, -3.5, { isLive: true, seenAt: at(61) }),
    quote(1, 'spread', 'away', 1.9, 3.5, { isLive: true, seenAt: at(59) }),
  ]);
  expect(entries.map((e) => [e.quote.side, e.ev.stale])).toEqual([
    ['away', false],
    ['home', true],
  ]);
});

test('when filters are empty lists, then nothing matches', () => {
  expect(build([quote(1, 'spread', 'home', 1.9, -3.5)], { bookIds: [] })).toEqual([]);
});
