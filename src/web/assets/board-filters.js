// The filter bar: market, live/pregame, minimum EV, sort and the books shown, bound to
// board-state.js's `filters`; and the games they let through, in the order chosen.
import { MARKETS } from './board-markets.js';
import { bookFilterEl, el, filtersEl } from './board-page.js';
import { bookName, entryFor, filters, isLive, isRealBook, outcomesOf, shownBook, state } from './board-state.js';

/**
 * Binds the filter controls: each change updates `filters` and calls `onChange()` when a key's data is
 * shown. The Market list is written here, from the market table.
 */
export function bindFilters(onChange) {
  var market = filtersEl.querySelector('#filter-market');
  var phase = filtersEl.querySelector('#filter-phase');
  var minEv = filtersEl.querySelector('#filter-min-ev');
  var sort = filtersEl.querySelector('#filter-sort');
  market.replaceChildren.apply(market, MARKETS.map(function (m) { return el('option', { value: m.type, text: m.label }); }));
  market.value = filters.market;
  market.addEventListener('change', function () { filters.market = market.value; if (state) onChange(); });
  phase.addEventListener('change', function () { filters.phase = phase.value; if (state) onChange(); });
  sort.addEventListener('change', function () { filters.sort = sort.value; if (state) onChange(); });
  minEv.addEventListener('input', function () {
    var v = Number(minEv.value);
    filters.minEv = minEv.value === '' || !isFinite(v) ? 0 : v;
    if (state) onChange();
  });
}

/** The Books list: a box per real book, ticked when shown; (re)written only when the books change. */
export function renderBookFilter(onChange) {
  var ids = Object.keys(state.books).map(Number).filter(isRealBook).sort(function (a, b) { return bookName(a).localeCompare(bookName(b)); });
  var shown = ids.filter(function (id) { return !filters.hiddenBooks[id]; }).length;
  bookFilterEl.querySelector('summary').textContent = 'Books (' + shown + ' of ' + ids.length + ')';
  var list = bookFilterEl.querySelector('.book-list');
  if (list.dataset.books === ids.join(',')) return;
  list.dataset.books = ids.join(',');
  list.replaceChildren.apply(list, ids.map(function (id) {
    var box = el('input', { type: 'checkbox', value: String(id) });
    box.checked = !filters.hiddenBooks[id];
    box.addEventListener('change', function () {
      if (box.checked) delete filters.hiddenBooks[id];
      else filters.hiddenBooks[id] = true;
      if (state) onChange();
    });
    return el('label', {}, [box, ' ' + bookName(id)]);
  }));
}

/** The best EV (per 100) of a game's prices as shown now, for the sort. */
function bestEvOf(game) {
  var best = -Infinity;
  MARKETS.forEach(function (market) {
    var type = market.type;
    outcomesOf(game, type).forEach(function (o) {
      var e = shownBook(o.book_id) && entryFor(game, type, o);
      if (e && e.ev && e.ev.ev_per_100 > best) best = e.ev.ev_per_100;
    });
  });
  return best;
}

/** The games the phase filter lets through, in the chosen order. */
export function visibleGames() {
  var list = Object.keys(state.games).map(function (id) { return state.games[id]; }).filter(function (g) {
    if (filters.phase === 'live') return isLive(g);
    if (filters.phase === 'pregame') return g.status === 'scheduled';
    return true;
  });
  var byStart = function (a, b) { return String(a.start_time).localeCompare(String(b.start_time)) || a.game_id - b.game_id; };
  if (filters.sort === 'start') return list.sort(byStart);
  if (filters.sort === 'ev') return list.sort(function (a, b) { return bestEvOf(b) - bestEvOf(a) || byStart(a, b); });
  return list.sort(function (a, b) { return (isLive(b) ? 1 : 0) - (isLive(a) ? 1 : 0) || byStart(a, b); });
}
