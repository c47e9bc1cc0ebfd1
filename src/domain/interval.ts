// Regular instants across a span of time: the `interval` of historical snapshot series
// (docs/point-in-time.md). Pure: the caller gives the span as instants.

/** Units an interval may be written in, and their length in milliseconds. */
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Shortest and longest step of a series. */
export const INTERVAL_MIN_MS = UNIT_MS.m;
export const INTERVAL_MAX_MS = 31 * UNIT_MS.d;

/** What an interval looks like, for the refusal of a bad one. */
export const INTERVAL_HINT = 'must be a whole number followed by m, h or d (for example 5m, 15m, 1h, 1d), from 1m to 31d';

/** The length of an interval written `<n>m`, `<n>h` or `<n>d` (n a whole number, no sign), or null. */
export function parseInterval(value: string): number | null {
  const m = /^([1-9]\d{0,5})([mhd])$/.exec(value.trim());
  if (!m) return null;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms >= INTERVAL_MIN_MS && ms <= INTERVAL_MAX_MS ? ms : null;
}

/** How many instants `seriesInstants(start, end, stepMs)` holds, without building them. */
export function seriesLength(start: Date, end: Date, stepMs: number): number {
  const span = end.getTime() - start.getTime();
  return span <= 0 ? 0 : Math.ceil(span / stepMs);
}

/** The instants start, start + step, start + 2 step ... before `end` (exclusive). */
export function seriesInstants(start: Date, end: Date, stepMs: number): Date[] {
  const n = seriesLength(start, end, stepMs);
  return Array.from({ length: n }, (_, i) => new Date(start.getTime() + i * stepMs));
}

/**
 * Index of the first of `instants` (ascending) at or after `from`; `instants.length` when none is.
 * A game's series starts there: before its first price it has nothing to show.
 */
export function firstInstantFrom(instants: readonly Date[], from: Date): number {
  let lo = 0;
  let hi = instants.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (instants[mid]!.getTime() < from.getTime()) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
