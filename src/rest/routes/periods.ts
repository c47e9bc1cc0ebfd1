import type { Aliases } from '../params';

/** Spec 4.4: `period=full` is accepted for full_game. */
export const PERIOD_ALIASES: Aliases<'full_game'> = { full: 'full_game' };
