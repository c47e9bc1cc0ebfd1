// The grid of one game and market: a row per real book shown (aggregates never count), a column per
// side, the "Best" row on top (the best per side, chosen as REST's best_odds). Each price says pregame
// or live, off-board, stale or frozen, and carries the +EV and arbitrage badges of the listing entry
// computed for exactly that price.
import { marketOf, pointText } from './board-markets.js';
import { el } from './board-page.js';
import { bestOf, bookName, entryFor, filters, outcomesOf, shownBook, sideLabel } from './board-state.js';

function valueBadges(entry) {
  if (!entry || !entry.ev) return [];
  var price = String(entry.odds.american);
  var out = [];
  if (entry.ev.arbitrage) out.push(el('span', { class: 'tag arb', title: 'arbitrage with the other side', dataset: { price: price }, text: 'ARB' }));
  if (entry.ev.profitable && entry.ev.ev_per_100 >= filters.minEv) out.push(el('span', { class: 'tag ev', title: 'expected value per 100 staked at ' + price, dataset: { price: price }, text: '+EV ' + entry.ev.ev_per_100.toFixed(2) }));
  return out;
}

function priceCell(game, type, o, isBest) {
  if (!o) return el('td', { class: 'cell empty' }, ['–']);
  var entry = entryFor(game, type, o);
  var off = o.is_available === false;
  var stale = entry && entry.ev && entry.ev.stale;
  var frozen = stale && entry.ev.stale_reason === 'book_frozen';
  var classes = 'cell' + (isBest ? ' best' : '') + (off ? ' off' : '') + (stale ? ' stale' : '') + (entry && entry.ev && entry.ev.profitable ? ' ev' : '') + (entry && entry.ev && entry.ev.arbitrage ? ' arb' : '');
  var marks = [el('span', { class: 'when ' + (o.is_live ? 'live' : 'pre'), text: o.is_live ? 'live' : 'pre' })];
  if (off) marks.push(el('span', { class: 'mark', text: 'off' }));
  if (frozen) marks.push(el('span', { class: 'mark', title: 'the book has not moved while the others have', text: 'frozen' }));
  else if (stale) marks.push(el('span', { class: 'mark', title: 'stale: ' + entry.ev.stale_reason.replace('_', ' '), text: 'stale' }));
  return el('td', { class: classes, dataset: { book: String(o.book_id), side: o.side, price: o.odds.american }, 'aria-label': isBest ? 'best price' : null }, [
    el('span', { class: 'point', text: pointText(type, o.point) }),
    el('strong', { class: 'price', text: o.odds.american }),
    el('span', { class: 'marks' }, marks.concat(off ? [] : valueBadges(entry))),
  ]);
}

/** The "Best" row: per side the best price, its line and its book. */
function bestRow(type, sides, bests) {
  return el('tr', { class: 'best-row' }, [el('th', { scope: 'row', text: 'Best' })].concat(
    bests.map(function (b, i) {
      if (!b) return el('td', { class: 'cell empty', dataset: { side: sides[i] } }, ['–']);
      return el('td', { class: 'cell best-of', dataset: { side: sides[i], book: String(b.book_id), price: b.odds.american } }, [
        el('span', { class: 'point', text: pointText(type, b.point) }),
        el('strong', { class: 'price', text: b.odds.american }),
        el('span', { class: 'book', text: bookName(b.book_id) }),
      ]);
    }),
  ));
}

/** The table of every shown book's price per side of `type` for `game`. */
export function grid(game, type) {
  var market = marketOf(type);
  var sides = market.sides;
  var outcomes = outcomesOf(game, type);
  var bests = sides.map(function (side) { return bestOf(game, type, side); });
  var bookIds = [];
  outcomes.forEach(function (o) { if (shownBook(o.book_id) && bookIds.indexOf(o.book_id) < 0) bookIds.push(o.book_id); });
  bookIds.sort(function (a, b) { return bookName(a).localeCompare(bookName(b)); });
  var head = el('tr', {}, [el('th', { scope: 'col', text: 'Book' })].concat(sides.map(function (side) { return el('th', { scope: 'col', text: sideLabel(game, type, side) }); })));
  var rows = bookIds.map(function (bookId) {
    return el('tr', { dataset: { book: String(bookId) } }, [el('th', { scope: 'row', text: bookName(bookId) })].concat(
      sides.map(function (side, i) {
        var o = outcomes.filter(function (x) { return x.book_id === bookId && x.side === side; })[0];
        var b = bests[i];
        return priceCell(game, type, o, !!(o && b && o.book_id === b.book_id && o.odds.decimal === b.odds.decimal && o.is_available !== false));
      }),
    ));
  });
  if (!rows.length) rows = [el('tr', {}, [el('td', { colspan: String(sides.length + 1), class: 'muted', text: 'No ' + type + ' prices from the books shown.' })])];
  return el('table', { class: 'grid', dataset: { market: type } }, [
    el('caption', { text: market.label + ': every book, best price per side highlighted' }),
    el('thead', {}, [head]),
    el('tbody', {}, [bestRow(type, sides, bests)].concat(rows)),
  ]);
}
