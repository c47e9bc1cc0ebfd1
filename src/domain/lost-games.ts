// A game the feed stopped carrying before it ended: when the ingest gives up on it, and what it then
// says (the ingest's sweep marks it; the live reads leave such games out after the same time).

/**
 * A game still "in progress" that no feed document has carried for this long is marked
 * LOST_GAME_STATUS: the feed moved on (its slate switched days) and could not say how the game
 * ended. Three hours is longer than any gap between two polls of a game being played, and
 * shorter than the time a finished day's games wait for the next day's slate.
 */
export const LOST_GAME_AFTER_MS = 3 * 3_600_000;
/** Status of such a game (the status table of docs/feed.md documents it). */
export const LOST_GAME_STATUS = 'unknown';
export const LOST_GAME_DISPLAY = 'Result unknown';
