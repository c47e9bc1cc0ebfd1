import { betClv, gradeBets, outcomeGrade } from '../../services/bets';
import { closingLines } from '../../services/closing';
import type { OutcomeResolvers, QueryResolvers } from '../__generated__/resolvers-types';

// Query.closingLines, Query.betClv, Query.gradeBets and Outcome.result (schema/closing.graphql,
// docs/closing-and-grading.md): src/services/closing.ts and bets.ts answer them. Enum values arrive
// and leave as the domain's words (src/graphql/enums.ts).

export const ClosingQuery: Pick<QueryResolvers, 'closingLines' | 'betClv' | 'gradeBets'> = {
  closingLines: (_root, args, ctx) => closingLines(ctx, args),
  betClv: (_root, args, ctx) => betClv(ctx, args.bets, { devigMethod: args.devigMethod, reference: args.reference }),
  gradeBets: (_root, args, ctx) => gradeBets(ctx, args.bets),
};

/** Outcome.result / gradedAt: the quote graded at its own point. */
export const OutcomeGrade: Pick<OutcomeResolvers, 'result' | 'gradedAt'> = {
  result: async (q, _a, ctx) => {
    const grade = (await outcomeGrade(ctx, q))?.grade;
    return grade?.result ?? null;
  },
  gradedAt: async (q, _a, ctx) => (await outcomeGrade(ctx, q))?.gradedAt ?? null,
};
