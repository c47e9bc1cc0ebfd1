import { Gauge, type Registry } from 'prom-client';

/** What the poller knows of its quota and health: served by /readyz and /metrics (docs/sources.md). */
export interface OddsApiUsageSnapshot {
  /** x-requests-remaining, x-requests-used, x-requests-last of the last answer (null before one). */
  requests_remaining: number | null;
  requests_used: number | null;
  requests_last: number | null;
  /** Credits spent this UTC day (the sum of x-requests-last) and the day's budget. */
  spent_today: number;
  daily_budget: number;
  /** True while the poller waits longer than its intervals to stay within the budget or quota. */
  slowed: boolean;
  last_success_at: string | null;
  /** The last failure's kind (unauthorized, unprocessable, rate_limited, timeout, http, network) and when. */
  last_error: { kind: string; at: string; message: string } | null;
}

/** The poller's quota and health, updated as answers come in. One per process. */
export class OddsApiUsage {
  remaining: number | null = null;
  used: number | null = null;
  last: number | null = null;
  spentToday = 0;
  /** The UTC day `spentToday` counts (YYYY-MM-DD). */
  day = '';
  slowed = false;
  lastSuccessAt: Date | null = null;
  lastError: { kind: string; at: Date; message: string } | null = null;

  constructor(readonly dailyBudget: number) {}

  /** Records an answer's usage headers at `now`; the day's spending restarts at UTC midnight. */
  record(headers: Headers, now: Date): void {
    this.rollDay(now);
    const num = (name: string) => {
      const value = headers.get(name);
      return value === null || value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value);
    };
    this.remaining = num('x-requests-remaining') ?? this.remaining;
    this.used = num('x-requests-used') ?? this.used;
    this.last = num('x-requests-last');
    this.spentToday += this.last ?? 0;
  }

  rollDay(now: Date): void {
    const day = now.toISOString().slice(0, 10);
    if (day !== this.day) {
      this.day = day;
      this.spentToday = 0;
    }
  }

  /** Its gauges on `registry` (registerUsageMetrics). */
  registerMetrics(registry: Registry): void {
    registerUsageMetrics(registry, this);
  }

  snapshot(): OddsApiUsageSnapshot {
    return {
      requests_remaining: this.remaining,
      requests_used: this.used,
      requests_last: this.last,
      spent_today: this.spentToday,
      daily_budget: this.dailyBudget,
      slowed: this.slowed,
      last_success_at: this.lastSuccessAt?.toISOString() ?? null,
      last_error: this.lastError && { kind: this.lastError.kind, at: this.lastError.at.toISOString(), message: this.lastError.message },
    };
  }
}

/** Gauges of `usage` in `registry`, read at each scrape. */
export function registerUsageMetrics(registry: Registry, usage: OddsApiUsage): void {
  const gauge = (name: string, help: string, read: () => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const value = read();
        if (value !== null) this.set(value);
      },
    });
  gauge('odds_api_requests_remaining', 'The Odds API credits left this month (x-requests-remaining of the last answer)', () => usage.remaining);
  gauge('odds_api_requests_used', 'The Odds API credits used this month (x-requests-used of the last answer)', () => usage.used);
  gauge('odds_api_requests_last', 'Credits the last The Odds API request cost (x-requests-last)', () => usage.last);
  gauge('odds_api_spent_today', 'The Odds API credits spent this UTC day by this poller', () => usage.spentToday);
  gauge('odds_api_daily_budget', 'The Odds API credits the poller may spend per UTC day (ODDS_API_DAILY_BUDGET)', () => usage.dailyBudget);
  gauge('odds_api_slowed', '1 while the poller waits longer than its intervals to stay within the budget or quota', () => (usage.slowed ? 1 : 0));
}
