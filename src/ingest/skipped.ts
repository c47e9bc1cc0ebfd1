import type { SkippedPart } from './feed-rows';

/** Distinct skipped parts remembered; past it the memory starts again (a part is then told again). */
const REMEMBERED = 1_000;

/**
 * An `onSkipped` handler (src/ingest/ingest.ts) that tells `tell` of each skipped part once: a poller
 * meets the same skipped event at every poll, a recorded series at every capture. Parts are the same
 * when their reasons are (a reason names its event).
 */
export function tellSkippedOnce(tell: (document: string, part: SkippedPart) => void): (document: string, skipped: readonly SkippedPart[]) => void {
  const told = new Set<string>();
  return (document, skipped) => {
    for (const part of skipped) {
      if (told.has(part.reason)) continue;
      if (told.size >= REMEMBERED) told.clear();
      told.add(part.reason);
      tell(document, part);
    }
  };
}
