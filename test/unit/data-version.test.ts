import { createLocalBus } from '../../src/events/bus';
import { createDataVersion } from '../../src/events/data-version';

// The data version advances on every ingest event and on a clock tick only when the clock state
// (what the clock decides in a response) actually changed.

test('when an ingest event arrives, then the version advances', async () => {
  const bus = createLocalBus();
  const version = createDataVersion(bus);
  const seen: number[] = [];
  version.onAdvance((v) => seen.push(v));
  const before = version.current;
  await bus.publish('odds', { at: new Date().toISOString(), games: [1], markets: [] });
  expect(version.current).toBe(before + 1);
  expect(seen).toEqual([before + 1]);
  version.close();
});

test('when signals are stored after an ingest, then the version advances again, so cached /signals and /live/movement answers show them', async () => {
  const bus = createLocalBus();
  const version = createDataVersion(bus);
  await bus.publish('odds', { at: '2026-01-24T02:51:54.000Z', games: [], markets: [{ gameId: 263565, marketType: 'total', bookId: 68 }] });
  const afterOdds = version.current;
  await bus.publish('signals', { at: '2026-01-24T02:51:54.000Z', signals: [{ key: 'steam|263565|total|full_game|over|-1|2026-01-24T02:51:54.000Z', kind: 'steam', gameId: 263565, marketType: 'total' }] });
  expect(version.current).toBe(afterOdds + 1);
  version.close();
  await bus.publish('signals', { at: '2026-01-24T03:00:00.000Z', signals: [] });
  expect(version.current).toBe(afterOdds + 1);
});

test('when the clock ticks and nothing the clock decides changed, then the version stays; when it changed, it advances once', async () => {
  const bus = createLocalBus();
  let state = '2026-01-24|10';
  const version = createDataVersion(bus, { clockState: () => state, tickMs: 60_000 });
  await version.checkClock();
  const start = version.current;
  await version.checkClock();
  await version.checkClock();
  expect(version.current).toBe(start);
  state = '2026-01-24|11'; // a quote aged into staleness
  await version.checkClock();
  expect(version.current).toBe(start + 1);
  await version.checkClock();
  expect(version.current).toBe(start + 1);
  state = '2026-01-25|11'; // a new league day: "today" moved
  await version.checkClock();
  expect(version.current).toBe(start + 2);
  version.close();
});

test('when reading the clock state fails, then the version stays and the error is reported', async () => {
  const bus = createLocalBus();
  const errors: unknown[] = [];
  const version = createDataVersion(bus, {
    clockState: () => {
      throw new Error('database away');
    },
    tickMs: 60_000,
    onError: (e) => errors.push(e),
  });
  const start = version.current;
  await version.checkClock();
  expect(version.current).toBe(start);
  expect(errors.length).toBeGreaterThan(0);
  version.close();
});
