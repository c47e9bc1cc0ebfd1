import { nextAttemptAt, retryDelayMs, type RetryPolicy } from '../../../src/domain/webhook-retry';

const policy: RetryPolicy = { baseMs: 5_000, capMs: 3_600_000, windowMs: 86_400_000 };

describe('webhook retry backoff', () => {
  test.each([
    // attempts failed, random draw, delay: min(cap, base * 2^(attempts-1)) * draw, floored
    [1, 0.5, 2_500],
    [2, 0.5, 5_000],
    [3, 0.25, 5_000],
    [10, 0.999, Math.floor(0.999 * 2_560_000)],
    [11, 0.5, 1_800_000], // 5 s * 2^10 = 5120 s: capped at 1 h
    [40, 0.5, 1_800_000],
    [1, 0, 0],
  ])('when %i attempts failed and the draw is %f, then the next waits %i ms', (attempts, random, delay) => {
    expect(retryDelayMs(attempts, policy, random)).toBe(delay);
  });

  test('when the draws cover [0, 1), then every delay stays within [0, the capped exponential)', () => {
    for (let attempts = 1; attempts <= 30; attempts++) {
      const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempts - 1));
      for (const r of [0, 0.1, 0.5, 0.9, 0.999999]) {
        const d = retryDelayMs(attempts, policy, r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(ceiling);
      }
    }
  });

  test('when the next attempt would fall past 24 h after the event, then there is none (failed)', () => {
    const created = new Date('2026-01-24T00:00:00Z');
    const early = new Date('2026-01-24T01:00:00Z');
    expect(nextAttemptAt(created, 3, early, policy, 0.5)).toEqual(new Date(early.getTime() + 10_000));
    const late = new Date('2026-01-24T23:50:00Z');
    // 1 h cap * 0.5 = 30 min: past the window's end at 24:00
    expect(nextAttemptAt(created, 20, late, policy, 0.5)).toBeNull();
    // a short draw still fits
    expect(nextAttemptAt(created, 20, late, policy, 0.1)).toEqual(new Date(late.getTime() + 360_000));
  });
});
