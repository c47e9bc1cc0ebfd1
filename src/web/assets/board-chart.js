// The step chart under each game's grid (uPlot): per book, the line of the chosen market over the
// league day. It starts from /historical?interval= and each push extends it (board-state.js's
// record); a price holds until it changes, a withdrawal breaks the line, the current number is dotted.
import { chartValue, marketOf } from './board-markets.js';
import { api } from './board-network.js';
import { el, leagueDate } from './board-page.js';
import { bookName, filters, isRealBook, outcomesOf, record, shownBook, state } from './board-state.js';

var HISTORY_INTERVAL = '10m'; // the series step of /historical?interval= the charts start from
var COLORS = ['#1d4ed8', '#b91c1c', '#15803d', '#7e22ce', '#c2410c', '#0e7490', '#374151', '#a16207', '#be185d'];

/** The series of /historical?interval= for one game and market: each book's value at every step it changed. */
function loadHistory(s, gameId, type) {
  var key = gameId + ':' + type;
  // A chart drawn again while its history loads waits for that load: resolving at once, its redraw
  // asked for the history again, and again, a loop of promise callbacks that froze the page.
  if (s.historyPending[key]) return s.historyPending[key];
  if (s.history[key] || s.historyPlan) return Promise.resolve();
  var path = '/historical?start_date=' + leagueDate + '&end_date=' + leagueDate + '&game_id=' + gameId + '&market_type=' + type + '&interval=' + HISTORY_INTERVAL + '&limit=288';
  return (s.historyPending[key] = api(path, s.key).then(
    function (body) {
      s.history[key] = seriesOf(body.data, type);
      delete s.historyPending[key];
      // Prices since the last step: the current quotes.
      var game = s.games[gameId];
      var now = Math.floor(Date.now() / 1000);
      if (game) outcomesOf(game, type).forEach(function (o) { if (o.is_available !== false) record(gameId, type, o.book_id, now, chartValue(type, { side: o.side, point: o.point, price: o.odds.original })); });
    },
    function (err) {
      delete s.historyPending[key];
      if (err.status === 403) s.historyPlan = true; // Starter: no history routes
      else s.history[key] = { error: err.message };
    },
  ));
}

/** Per real book, [seconds, value] at each snapshot its value changed; null where it left the board. */
function seriesOf(snapshots, type) {
  var series = {};
  snapshots.forEach(function (snap) {
    var t = Math.floor(Date.parse(snap.fetched_at) / 1000);
    var seen = {};
    outcomesOf(snap.game, type).forEach(function (o) {
      var v = chartValue(type, { side: o.side, point: o.point, price: o.odds.original });
      if (v === undefined || !isRealBook(o.book_id)) return;
      seen[o.book_id] = true;
      var points = series[o.book_id] || (series[o.book_id] = []);
      var last = points[points.length - 1];
      if (!last || last[1] !== v) points.push([t, v]);
    });
    Object.keys(series).forEach(function (b) {
      var points = series[b];
      if (!seen[b] && points[points.length - 1][1] !== null) points.push([t, null]); // off the board at this step
    });
  });
  return series;
}

/** uPlot's aligned data: one x per instant; per book its value where it changed, undefined elsewhere (the step holds). */
function chartData(series) {
  var books = Object.keys(series).filter(function (b) { return shownBook(Number(b)) && series[b].length; }).map(Number);
  var xs = [];
  books.forEach(function (b) { series[b].forEach(function (p) { xs.push(p[0]); }); });
  xs = xs.sort(function (a, b) { return a - b; }).filter(function (x, i, all) { return i === 0 || all[i - 1] !== x; });
  var index = {};
  xs.forEach(function (x, i) { index[x] = i; });
  var ys = books.map(function (b) {
    var row = xs.map(function () { return undefined; });
    series[b].forEach(function (p) { row[index[p[0]]] = p[1]; });
    return row;
  });
  // The current value is held to now, so the chart ends at the present, not at the last change.
  var now = Math.floor(Date.now() / 1000);
  if (xs.length && xs[xs.length - 1] < now) {
    xs.push(now);
    ys.forEach(function (row) {
      var last;
      for (var i = row.length - 1; i >= 0 && last === undefined; i--) last = row[i];
      row.push(last === undefined ? undefined : last);
    });
  }
  return { books: books, data: [xs].concat(ys) };
}

/** The chart of the card's game in the market the filter shows, or the note saying why there is none. */
export function drawChart(card) {
  var type = filters.market;
  if (card.plot) card.plot.destroy();
  card.plot = null;
  card.chartEl.replaceChildren();
  if (state.historyPlan) {
    card.chartEl.appendChild(el('p', { class: 'plan-note', text: 'Line movement needs the Pro plan: this key\'s plan has no history routes.' }));
    return;
  }
  var series = state.history[card.gameId + ':' + type];
  if (!series) {
    card.chartEl.appendChild(el('p', { class: 'muted', text: 'Loading line history…' }));
    loadHistory(state, card.gameId, type).then(function () { if (state && state.cards[card.gameId] === card) drawChart(card); });
    return;
  }
  if (series.error) {
    card.chartEl.appendChild(el('p', { class: 'muted', text: 'Line history could not be read: ' + series.error }));
    return;
  }
  var built = chartData(series);
  if (!built.data[0].length) {
    card.chartEl.appendChild(el('p', { class: 'muted', text: 'No ' + type + ' line history yet for this game.' }));
    return;
  }
  card.plot = new uPlot(
    {
      width: Math.max(240, card.chartEl.clientWidth || 420),
      height: 190,
      series: plotSeries(built),
      axes: [{}, { label: marketOf(type).chart.unit, size: 56 }],
      legend: { live: false },
    },
    built.data,
    card.chartEl,
  );
}

/** uPlot's series: the x axis, then per book its stepped line. */
function plotSeries(built) {
  var last = built.data[0].length - 1;
  var stepped = uPlot.paths.stepped({ align: 1 });
  return [{}].concat(
    built.books.map(function (book, i) {
      return {
        label: bookName(book),
        stroke: COLORS[i % COLORS.length],
        width: 2,
        paths: stepped,
        spanGaps: false, // null (off the board) breaks the line; undefined (no change) is held by the step
        // Only the current number gets a dot.
        points: { show: true, size: 7, filter: function () { return [last]; } },
      };
    }),
  );
}
