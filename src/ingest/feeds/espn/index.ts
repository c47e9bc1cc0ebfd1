import type { FeedFormat } from '../format';
import { ESPN_SOURCE, ESPN_SUMMARY_LABEL, normalizeEspnSummary } from './normalize';
import { startEspnPoller } from './poll';

export { ESPN_SOURCE, ESPN_SUMMARY_LABEL, espnGameId } from './normalize';

/** Whether a bare body has the shape of ESPN's summary: `header.competitions[]` and `boxscore`. */
function looksLikeSummary(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as { header?: { competitions?: unknown }; boxscore?: unknown };
  return !!b.header && Array.isArray(b.header.competitions) && !!b.boxscore && typeof b.boxscore === 'object';
}

/**
 * ESPN's public summary document (`/apis/site/v2/sports/basketball/{nba,wnba}/summary?event=<id>`):
 * the final box score with each player's line (docs/sources.md, "ESPN"). Captures say
 * `source: "espn/summary"` (and `league`); a polled document is recognised by its shape. Its poller
 * is poll.ts (ESPN_POLL=1 and the other ESPN_* settings; off unless set).
 */
export const espn: FeedFormat = {
  name: ESPN_SOURCE,
  recognises: (capture) => {
    const label = capture.envelope?.['source'];
    if (typeof label === 'string' && (label === ESPN_SUMMARY_LABEL || label.startsWith(`${ESPN_SOURCE}/`))) return true;
    return looksLikeSummary(capture.body);
  },
  normalize: (capture) => normalizeEspnSummary(capture.body, capture.name, capture.envelope),
  poller: {
    label: ESPN_SOURCE,
    enabled: (config) => Boolean(config.espn),
    start: ({ config, logger, ingest }) => {
      logger.info({ source: ESPN_SOURCE, ...config.espn }, 'polling ESPN box scores');
      return startEspnPoller({ config: config.espn!, logger, ingest });
    },
  },
};
