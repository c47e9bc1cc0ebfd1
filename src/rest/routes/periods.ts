import { PERIODS } from '../../graphql/arguments';

/** Values of a `period` parameter: the periods the schema knows, and `full` (spec 4.4) for full_game. */
export const PERIOD_VALUES = ['full', ...PERIODS] as const;
