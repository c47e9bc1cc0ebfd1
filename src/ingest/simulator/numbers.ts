// Small numeric helpers of the simulator.

export function at<T>(items: readonly T[], i: number): T {
  const v = items[i];
  if (v === undefined) throw new RangeError(`index ${String(i)} out of range 0..${String(items.length - 1)}`);
  return v;
}

export function clampInt(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(x)));
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

export const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
