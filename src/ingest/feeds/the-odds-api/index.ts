import type { FeedFormat } from '../format';
import { normalizeOddsApi, ODDS_API_SOURCE } from './normalize';
import { startOddsApiPoller } from './poll';
import { OddsApiUsage } from './usage';

export { ODDS_API_SOURCE } from './normalize';

/** Whether a value looks like one event of The Odds API (a 32-hex-like string id and a commence_time). */
function looksLikeEvent(value: unknown): boolean {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' && 'commence_time' in value;
}

/**
 * The Odds API v4: captures labelled `source: "the-odds-api"`, or a bare body that is an array of
 * events (or the historical `{timestamp, data}` wrapper). Prices are read as `odds_format` of the
 * capture says (American when absent, unless a price can only be decimal). Its poller is poll.ts
 * (ODDS_API_KEY and the other ODDS_API_* settings), its quota usage.ts.
 */
export const theOddsApi: FeedFormat = {
  name: ODDS_API_SOURCE,
  recognises: (capture) => {
    const label = capture.envelope?.['source'];
    if (typeof label === 'string' && (label === ODDS_API_SOURCE || label.startsWith(`${ODDS_API_SOURCE}/`))) return true;
    const body = capture.body as { data?: unknown } | null;
    if (Array.isArray(body)) return body.length === 0 || looksLikeEvent(body[0]);
    return !!body && typeof body === 'object' && 'timestamp' in body && (Array.isArray(body.data) || looksLikeEvent(body.data));
  },
  normalize: (capture, fetchedAt) => {
    const format = capture.envelope?.['odds_format'];
    const endpoint = capture.envelope?.['endpoint'];
    return normalizeOddsApi(capture.body, capture.name, { fetchedAt, oddsFormat: typeof format === 'string' ? format : null, endpoint: typeof endpoint === 'string' ? endpoint : undefined });
  },
  poller: {
    label: ODDS_API_SOURCE,
    enabled: (config) => Boolean(config.oddsApi),
    quota: (config) => new OddsApiUsage(config.oddsApi!.dailyBudget),
    start: ({ config, logger, quota, ingest }) => {
      const settings = config.oddsApi!;
      const { key: _key, ...shown } = settings;
      logger.info({ source: ODDS_API_SOURCE, ...shown }, 'polling The Odds API');
      const usage = quota instanceof OddsApiUsage ? quota : new OddsApiUsage(settings.dailyBudget);
      return startOddsApiPoller({ config: settings, usage, logger, ingest });
    },
  },
};
