import type { FeedFormat } from '../format';
import { normalizeDocument } from './normalize';
import { startPoller } from './poll';

/** The recorded `source` label of Action Network v2 scoreboard captures. */
const SOURCE_LABEL = 'actionnetwork/v2/scoreboard';

/**
 * The Action Network v2 scoreboard (`{league, games[]}`): its captures say so in `source`; another
 * capture or a bare document is one when it has a `games` array. Its poller is poll.ts (FEED_URL).
 */
export const actionNetwork: FeedFormat = {
  name: 'actionnetwork',
  recognises: (capture) => {
    const label = capture.envelope?.['source'];
    if (typeof label === 'string' && label.startsWith('actionnetwork')) return true;
    const body = capture.body as { games?: unknown } | null;
    return !!body && typeof body === 'object' && !Array.isArray(body) && Array.isArray(body.games);
  },
  normalize: (capture) => normalizeDocument(capture.body, capture.name),
  poller: {
    label: 'poller',
    enabled: (config) => Boolean(config.feedUrl),
    start: ({ config, logger, ingest }) => {
      logger.info({ feed: config.feedUrl, intervalMs: config.feedIntervalMs }, 'polling upstream feed');
      return startPoller({
        url: config.feedUrl!,
        intervalMs: config.feedIntervalMs,
        key: config.feedKey,
        keyHeader: config.feedKeyHeader,
        timeZone: config.leagueTimeZone,
        logger,
        ingest,
      });
    },
  },
};
