// What the board holds: the user's filters, and per key entered the books, today's games with every
// book's prices, the listings (EV, arbitrage), each chart's line history, the game cards and the live
// stream's position. Also the small readings of that data the grid, the chart and the filters share,
// and how a /live-odds snapshot or delta changes it (board-network.js decides when; this module, what).
import { MARKETS, chartValue, sidesAreTeams } from './board-markets.js';

// What the user chose to see; kept across keys and reloads of the data.
export var filters = { market: MARKETS[0].type, phase: 'all', minEv: 0, sort: 'live', hiddenBooks: {} };

/** The data of the key entered, null without one: { key, books, games, listings, history, cards, stream, seq, socket, historyPlan }. */
export var state = null;

/** Makes `s` the current state (null: no key); a load that began for another state drops its answer. */
export function setState(s) {
  state = s;
  return s;
}

/** A state for `key`, nothing loaded yet. */
export function emptyState(key) {
  return { key: key, books: {}, games: {}, listings: {}, history: {}, historyPending: {}, historyPlan: false, cards: {}, stream: null, seq: -1, socket: null };
}

export function american(price) {
  return price > 0 ? '+' + price : String(price);
}
export function isLive(game) {
  return game.status === 'in_progress' || game.status === 'live';
}
export function teamOf(game, side) {
  var team = game[side + '_team'];
  if (team && team.abbr) return team.abbr;
  var id = game[side + '_team_id'];
  var found = (game.teams || []).filter(function (t) { return t.id === id; })[0];
  return (found && found.abbr) || side;
}
export function bookName(id) {
  var b = state.books[id];
  return (b && b.name) || 'Book ' + id;
}
export function isRealBook(id) {
  var b = state.books[id];
  return !(b && b.is_aggregate);
}
export function shownBook(id) {
  return isRealBook(id) && !filters.hiddenBooks[id];
}
function fullGame(o) {
  return !o.period || o.period === 'full_game';
}
export function sideLabel(game, type, side) {
  if (!sidesAreTeams(type)) return side === 'over' ? 'Over' : 'Under';
  return teamOf(game, side);
}
export function outcomesOf(game, type) {
  var market = game.markets && game.markets[type];
  return ((market && market.outcomes) || []).filter(function (o) { return fullGame(o) && o.odds; });
}

/** The best available price of one side among real books (highest decimal), as REST's best_odds picks it. */
export function bestOf(game, type, side) {
  var best = null;
  outcomesOf(game, type).forEach(function (o) {
    if (o.side !== side || o.is_available === false || !isRealBook(o.book_id)) return;
    if (!best || o.odds.decimal > best.odds.decimal) best = o;
  });
  return best;
}

/**
 * The listing entry (EV, arbitrage, staleness) computed for exactly this price: same game, market,
 * book, side, live or pregame, line and American price. A price that moved since the listing was read
 * has none until the next read, so a figure is never shown beside a price it was not computed for.
 */
export function entryFor(game, type, o) {
  var found = null;
  (state.listings[type] || []).forEach(function (e) {
    if (e.game_id !== game.game_id || e.book_id !== o.book_id || e.side !== o.side || !!e.is_live !== !!o.is_live) return;
    if ((e.point === null || e.point === undefined ? null : e.point) !== (o.point === null || o.point === undefined ? null : o.point)) return;
    if (!e.odds || String(e.odds.american) !== String(o.odds.american)) return;
    found = e;
  });
  return found;
}

// ---- line history: per game and market, per book, the value over time (the step charts' data) ------

/** One observed value of a book at an instant (seconds); null records the book off the board. */
export function record(gameId, type, bookId, t, value) {
  if (value === undefined || !isRealBook(bookId)) return;
  var series = state.history[gameId + ':' + type];
  if (!series) return; // the chart's history is not loaded (or not allowed): nothing to extend
  var points = series[bookId] || (series[bookId] = []);
  var last = points[points.length - 1];
  if (last && last[0] > t) return;
  if (last && last[1] === value) return; // a repeat is no change: the step already holds it
  points.push([t, value]);
}

// ---- changes: what REST and /live-odds bring ---------------------------------------------------------

export function mergeGame(game) {
  var known = state.games[game.game_id];
  state.games[game.game_id] = known ? Object.assign({}, known, game, { away_team: game.away_team || known.away_team, home_team: game.home_team || known.home_team, meta: game.meta || known.meta }) : game;
}

/** A live_odds snapshot: its games merged, the stream and seq it stands at kept. */
export function applySnapshot(payload) {
  (payload.data || []).forEach(mergeGame);
  state.stream = payload.stream;
  state.seq = payload.seq;
}

/** One odds_change: replace the outcomes it names, update status and score, extend the charts. Returns its instant (seconds). */
export function applyDelta(delta) {
  var at = Math.floor((Date.parse(delta.at) || Date.now()) / 1000);
  (delta.games || []).forEach(function (g) {
    var game = state.games[g.game_id];
    if (!game) return;
    game.status = g.status;
    game.status_display = g.status_display;
    game.boxscore = Object.assign({}, game.boxscore, { clock: g.clock, period: g.period, home_score: g.home_score, away_score: g.away_score });
  });
  (delta.quotes || []).forEach(function (q) { applyQuote(q, at); });
  state.seq = delta.seq;
  return at;
}

function applyQuote(q, at) {
  var game = state.games[q.game_id];
  if (!game) return;
  game.markets = game.markets || {};
  var market = game.markets[q.market_type] || (game.markets[q.market_type] = { market_type: q.market_type, outcomes: [] });
  var outcome = market.outcomes.filter(function (o) { return o.book_id === q.book_id && o.side === q.side && (o.period || 'full_game') === q.period; })[0];
  if (!outcome) market.outcomes.push((outcome = { book_id: q.book_id, side: q.side, period: q.period, market_type: q.market_type }));
  outcome.point = q.point;
  outcome.is_live = q.is_live;
  outcome.is_available = q.is_available;
  outcome.line_status = q.line_status;
  outcome.odds = { decimal: q.decimal, american: american(q.price), original: q.price };
  if (q.period === 'full_game') record(q.game_id, q.market_type, q.book_id, at, q.is_available ? chartValue(q.market_type, q) : chartValue(q.market_type, q) === undefined ? undefined : null);
}
