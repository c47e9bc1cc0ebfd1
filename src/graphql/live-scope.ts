import { inLiveMarketFilter } from '../domain';
import type { LiveScope } from '../events/live-feed';
import type { Game } from './mappers';

// The filter of a live snapshot, carried by its games down to Game.markets, so that
// liveOdds(marketType, bookId) and liveGames(...) narrow the markets they return whatever the
// selection (REST also narrows through its operation's variables; both agree).

const SCOPE = Symbol('liveScope');

/** `game` marked with the live filter its markets must honour. */
export function withLiveScope(game: Game, scope: LiveScope): Game {
  return Object.assign(Object.create(Object.getPrototypeOf(game) as object) as Game, game, { [SCOPE]: scope });
}

/** Whether a quote passes the live filter `game` carries (every quote when it carries none). */
export function inLiveScope(game: Game, quote: { marketType: string; bookId: number }): boolean {
  const scope = (game as unknown as Record<symbol, LiveScope | undefined>)[SCOPE];
  if (!scope) return true;
  // No market type: whatever the selection reads (a live snapshot selects playerProps only under player_props).
  const market = scope.marketType == null || inLiveMarketFilter(scope.marketType, quote.marketType);
  return market && (scope.bookId == null || scope.bookId === quote.bookId);
}
