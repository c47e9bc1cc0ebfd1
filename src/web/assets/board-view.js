// The board drawn from board-state.js: a card per game the filters let through (headline, the grid of
// the chosen market, the line chart), the value and arbitrage list, the simulated-data notice and
// the Books filter. Drawn whole on each change; the cards (and their charts) are kept per game.
import { MARKETS, pointText } from './board-markets.js';
import { drawChart } from './board-chart.js';
import { renderBookFilter, visibleGames } from './board-filters.js';
import { grid } from './board-grid.js';
import { el, filtersEl, gamesEl, highlightList, highlightsEl, leagueDate, noticeEl } from './board-page.js';
import { entryFor, filters, isLive, outcomesOf, shownBook, sideLabel, state, teamOf } from './board-state.js';

function headline(game) {
  var box = game.boxscore;
  var score = box && box.home_score !== undefined && box.home_score !== null ? ' ' + box.away_score + '–' + box.home_score : '';
  var when = isLive(game) ? game.status_display || (box && box.clock ? 'Q' + box.period + ' ' + box.clock : 'live') : new Date(game.start_time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return el('header', { class: 'game-head' }, [
    el('h2', { text: teamOf(game, 'away') + ' @ ' + teamOf(game, 'home') }),
    el('span', { class: 'game-status ' + (isLive(game) ? 'live' : game.status), text: game.status.replace('_', ' ') + ' · ' + when + score }),
    game.meta && game.meta.simulated ? el('span', { class: 'sim-tag', title: 'made by the built-in simulator, not a real feed', text: 'simulated' }) : null,
  ]);
}

function buildCard(game) {
  var card = { gameId: game.game_id, plot: null };
  card.root = el('article', { class: 'game', id: 'game-' + game.game_id, dataset: { gameId: String(game.game_id) }, 'aria-labelledby': 'game-title-' + game.game_id });
  card.head = el('div');
  card.grid = el('div', { class: 'grid-wrap' });
  card.chartEl = el('div', { class: 'chart' });
  card.root.append(card.head, card.grid, el('h3', { class: 'chart-head', text: 'Line movement' }), card.chartEl);
  return card;
}

function renderGame(game) {
  var card = state.cards[game.game_id] || (state.cards[game.game_id] = buildCard(game));
  card.root.className = 'game' + (isLive(game) ? ' is-live' : '');
  var head = headline(game);
  head.querySelector('h2').id = 'game-title-' + game.game_id;
  card.head.replaceChildren(head);
  card.grid.replaceChildren(grid(game, filters.market));
  return card;
}

/** The whole board from the current state. */
export function renderAll() {
  var list = visibleGames();
  var cards = list.map(renderGame);
  gamesEl.replaceChildren.apply(gamesEl, cards.map(function (c) { return c.root; }));
  cards.forEach(drawChart);
  if (!list.length) gamesEl.replaceChildren(el('p', { class: 'muted', text: Object.keys(state.games).length ? 'No game matches the filters.' : 'No games on ' + leagueDate + '.' }));
  renderHighlights();
  renderNotice();
  renderBookFilter(renderAll);
}

/** The value and arbitrage list: listing entries whose price is still the one on the board. */
function renderHighlights() {
  var entries = [];
  MARKETS.forEach(function (market) {
    var type = market.type;
    (state.listings[type] || []).forEach(function (e) {
      var game = state.games[e.game_id];
      if (!game || !e.ev || !(e.ev.arbitrage || (e.ev.profitable && e.ev.ev_per_100 >= filters.minEv)) || !shownBook(e.book_id)) return;
      var current = outcomesOf(game, type).filter(function (o) { return o.book_id === e.book_id && o.side === e.side && !!o.is_live === !!e.is_live; })[0];
      if (!current || current.is_available === false || entryFor(game, type, current) !== e) return; // the price moved since: wait for the next read
      entries.push(e);
    });
  });
  entries.sort(function (a, b) { return (b.ev.arbitrage ? 1 : 0) - (a.ev.arbitrage ? 1 : 0) || b.ev.ev_per_100 - a.ev.ev_per_100; });
  highlightList.replaceChildren.apply(highlightList, entries.slice(0, 8).map(highlight));
  highlightsEl.hidden = entries.length === 0;
}

function highlight(e) {
  var game = state.games[e.game_id];
  var tag = e.ev.arbitrage ? 'ARB ' + e.ev.arbitrage_detail.profit_percentage.toFixed(2) + ' %' : '+EV ' + e.ev.ev_per_100.toFixed(2);
  var point = pointText(e.market_type, e.point);
  return el('li', { class: e.ev.arbitrage ? 'arb' : 'ev', dataset: { price: String(e.odds.american), book: String(e.book_id) } }, [
    el('a', { href: '#game-' + e.game_id, text: teamOf(game, 'away') + ' @ ' + teamOf(game, 'home') }),
    ' ' + e.market_type + ' ' + sideLabel(game, e.market_type, e.side) + (point ? ' ' + point : '') + ' ' + e.odds.american + ' at ' + e.book_name + (e.is_live ? ' (live)' : ' (pregame)') + ': ',
    el('strong', { text: tag }),
  ]);
}

function renderNotice() {
  var simulated = Object.keys(state.games).some(function (id) { var m = state.games[id].meta; return m && m.simulated; });
  noticeEl.hidden = !simulated;
  noticeEl.textContent = simulated ? 'Simulated data: these games and prices come from the built-in simulator (npm start), not from a real feed. Do not bet on them.' : '';
}

/** Each shown card's chart drawn again (to its box's width, after a resize). */
export function redrawCharts() {
  if (state) Object.keys(state.cards).forEach(function (id) { if (state.cards[id].root.isConnected) drawChart(state.cards[id]); });
}

/** Everything shown for the previous key goes: nothing of it belongs to the key now entered. */
export function clearBoard() {
  if (state && state.socket) state.socket.close();
  Object.keys((state && state.cards) || {}).forEach(function (id) { if (state.cards[id].plot) state.cards[id].plot.destroy(); });
  gamesEl.replaceChildren();
  highlightList.replaceChildren();
  highlightsEl.hidden = true;
  noticeEl.hidden = true;
  filtersEl.hidden = true;
}
