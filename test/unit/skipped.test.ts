import { tellSkippedOnce } from '../../src/ingest/skipped';

// The handler `odds serve` and `odds ingest` log skipped events with: a poller meets the same
// skipped event at every poll, and its log must not repeat it.

describe('skipped parts told once', () => {
  test('when the same event is skipped by several documents, then it is told once, with the first document that skipped it', () => {
    const told: string[] = [];
    const onSkipped = tellSkippedOnce((document, { path, reason }) => told.push(`${document} ${path} ${reason}`));
    onSkipped('poll 1', [{ path: '[0]', reason: 'event a skipped' }, { path: '[3]', reason: 'event b skipped' }]);
    onSkipped('poll 2', [{ path: '[0]', reason: 'event a skipped' }]);
    onSkipped('poll 3', [{ path: '[1]', reason: 'event c skipped' }, { path: '[2]', reason: 'event b skipped' }]);
    expect(told).toEqual(['poll 1 [0] event a skipped', 'poll 1 [3] event b skipped', 'poll 3 [1] event c skipped']);
  });

  test('when more distinct events are skipped than it remembers, then memory starts again instead of growing', () => {
    const told: string[] = [];
    const onSkipped = tellSkippedOnce((_document, { reason }) => told.push(reason));
    for (let i = 0; i <= 1_000; i++) onSkipped('poll', [{ path: `[${i}]`, reason: `event ${i}` }]);
    expect(told).toHaveLength(1_001);
    // event 0 was forgotten when the 1,001st arrived: it is told again, the newest is not
    onSkipped('poll', [{ path: '[0]', reason: 'event 0' }, { path: '[1000]', reason: 'event 1000' }]);
    expect(told.slice(1_001)).toEqual(['event 0']);
  });
});
