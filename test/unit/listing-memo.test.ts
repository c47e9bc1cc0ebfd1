import { createListingMemo, listingRowsBytes, type ListingMemoEntry } from '../../src/services/listing-memo';
import { BoundedCache, type CacheEvent } from '../../src/rest/bounded-cache';

// The listing memo is bounded in bytes like every other cache (issue 20): its store is a BoundedCache.

const SMALL = 65_536;
/** Rows of one scope: `quotes` quote rows, one game, one book. */
const rowsOf = (quotes: number) => ({ games: [{}], quotes: Array.from({ length: quotes }, () => ({})), books: [{}] });

function setUp(maxBytes = SMALL) {
  const events: CacheEvent[] = [];
  let version = 1;
  const store = new BoundedCache<ListingMemoEntry>({ maxBytes, sizeOf: (e) => e.bytes, onEvent: (e) => events.push(e) });
  const memo = createListingMemo(() => version, store);
  return { store, memo, events, advance: () => version++ };
}

describe('listing memo', () => {
  test('when many scopes are read, then the memo stays within its bytes, keys included, and counts its evictions', async () => {
    const { store, memo, events } = setUp();
    for (let i = 0; i < 50; i++) {
      const rows = await memo.get(`scope-${i}`, async () => rowsOf(10), listingRowsBytes);
      expect(rows.quotes).toHaveLength(10);
      expect(store.calculatedSize).toBeLessThanOrEqual(SMALL);
    }
    expect(store.calculatedSize).toBeGreaterThan(0);
    expect(events).toContain('evict');
    // the most recent scope is kept, the first left for room
    expect(store.peek('scope-49')).toBeDefined();
    expect(store.peek('scope-0')).toBeUndefined();
  });

  test('when one scope is read twice under one data version, then it is read once (a hit)', async () => {
    const { memo, events } = setUp();
    let reads = 0;
    const read = async () => (reads++, rowsOf(5));
    await memo.get('k', read, listingRowsBytes);
    await memo.get('k', read, listingRowsBytes);
    expect(reads).toBe(1);
    expect(events.filter((e) => e === 'hit')).toHaveLength(1);
  });

  test('when the rows of one scope are larger than a quarter of the bound, then they are served but not kept', async () => {
    const { store, memo } = setUp();
    const rows = await memo.get('big', async () => rowsOf(100), listingRowsBytes);
    expect(listingRowsBytes(rows)).toBeGreaterThan(SMALL / 4);
    expect(rows.quotes).toHaveLength(100);
    expect(store.peek('big')).toBeUndefined();
    expect(store.calculatedSize).toBeLessThanOrEqual(SMALL);
  });

  test('when the data version advances, then the memo is emptied and reads again', async () => {
    const { store, memo, advance } = setUp();
    let reads = 0;
    const read = async () => (reads++, rowsOf(5));
    await memo.get('k', read, listingRowsBytes);
    advance();
    await memo.get('k', read, listingRowsBytes);
    expect(reads).toBe(2);
    expect(store.size).toBe(1);
  });
});
