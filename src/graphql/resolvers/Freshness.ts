import type { OutcomeResolvers } from '../__generated__/resolvers-types';
import { ageSeconds } from '../present-listing';

// Freshness of every price (schema/freshness.graphql). A stored quote row changes only when its
// price or availability does; the repository reads `seenAt` as the time the feed last carried it
// (the later of the row's change and its game's last document, src/db/odds-repository.ts readQuotes).

export const OutcomeFreshness: Pick<OutcomeResolvers, 'confirmedAt' | 'ageSeconds' | 'priceChangedAt'> = {
  confirmedAt: (q) => q.seenAt,
  ageSeconds: (q, _args, ctx) => ageSeconds(q.seenAt, ctx.now),
  priceChangedAt: (q) => q.changedAt,
};
