// When to poll a game's player props from The Odds API's event-odds endpoint, within the quota: a
// props call costs one request per prop market per region per event, 10-30x a game's odds, so only
// games starting within a day are polled, and more often near tip-off (docs/player-props.md).

const MINUTE = 60_000;

/** The schedule: how long before tip-off each interval applies (the first row whose `before` covers it). */
export const PROPS_POLL_SCHEDULE: ReadonlyArray<{ readonly before: number; readonly every: number }> = [
  { before: 30 * MINUTE, every: 5 * MINUTE },
  { before: 3 * 60 * MINUTE, every: 15 * MINUTE },
  { before: 24 * 60 * MINUTE, every: 60 * MINUTE },
];

/** How long before tip-off a game's props start being polled (the schedule's widest row). */
export const PROPS_POLL_WINDOW = PROPS_POLL_SCHEDULE[PROPS_POLL_SCHEDULE.length - 1]!.before;

/** How long after its start a game's props are still polled (a WNBA or NBA game lasts about 2.5 h). */
export const PROPS_POLL_IN_PLAY = 3 * 60 * MINUTE;

/** The interval at which a game starting at `start` is polled at `now`, or null when it is not polled. */
export function propsPollInterval(start: Date, now: Date): number | null {
  const untilStart = start.getTime() - now.getTime();
  if (untilStart < -PROPS_POLL_IN_PLAY) return null;
  if (untilStart <= 0) return PROPS_POLL_SCHEDULE[0]!.every;
  return PROPS_POLL_SCHEDULE.find((row) => untilStart <= row.before)?.every ?? null;
}

/**
 * When a game's props are next due, given when they were last polled (null: never): now or later,
 * the instant it enters the window, or null when it is past being polled.
 */
export function propsPollNextAt(start: Date, now: Date, lastPolledAt: Date | null): number | null {
  const every = propsPollInterval(start, now);
  if (every === null) return start.getTime() - now.getTime() > PROPS_POLL_WINDOW ? start.getTime() - PROPS_POLL_WINDOW : null;
  return lastPolledAt === null ? now.getTime() : Math.max(now.getTime(), lastPolledAt.getTime() + every);
}

/** Whether a game's props are due at `now`, given when they were last polled (null: never). */
export function propsPollDue(start: Date, now: Date, lastPolledAt: Date | null): boolean {
  const every = propsPollInterval(start, now);
  if (every === null) return false;
  return lastPolledAt === null || now.getTime() - lastPolledAt.getTime() >= every;
}
