import { createLocalBus } from '../../src/events/bus';
import { createLiveFeed, type LiveTick } from '../../src/events/live-feed';

// The live feed turns bus events into ticks: a change per ingest, and a full-snapshot tick when the
// process learns it missed events (its Redis subscription came back after an outage).

test('when the bus says events were missed, then every subscriber gets a snapshot tick, not an empty change', async () => {
  const bus = createLocalBus();
  const feed = createLiveFeed(bus, { intervalMs: 600_000 });
  const ticks: LiveTick[] = [];
  feed.onTick((tick) => ticks.push(tick));
  await bus.publish('odds', { at: '2026-01-24T01:00:00.000Z', games: [1], markets: [{ gameId: 1, marketType: 'spread', bookId: 15 }] });
  await bus.publish('odds', { at: '2026-01-24T01:05:00.000Z', games: [], markets: [], missed: true });
  expect(ticks.map((t) => t.reason)).toEqual(['change', 'interval']);
  expect(ticks[0]!.markets).toHaveLength(1);
  feed.close();
  await bus.close();
});
