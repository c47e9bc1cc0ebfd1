// The live odds board: today's games, every book's price of each market side in a grid (the best
// highlighted), value (+EV) and arbitrage badges bound to the exact price they were computed for, and a
// step chart of each game's line history. Initial data over REST with the user's key; then Socket.IO
// /live-odds: live_odds snapshots and odds_change deltas applied by sequence number as
// docs/live-protocol.md says (a gap asks for a resync).
(function () {
  'use strict';
  var API = '/api/v1/nba/odds';
  var MARKETS = ['moneyline', 'spread', 'total'];
  var SIDES = { moneyline: ['away', 'home'], spread: ['away', 'home'], total: ['over', 'under'] };
  var LISTING_REFRESH_MS = 10000; // listings (EV) are re-read at most this often while deltas arrive
  var HISTORY_INTERVAL = '10m'; // the series step of /historical?interval= the charts start from

  var gamesEl = document.getElementById('games');
  var statusEl = document.getElementById('status');
  var noticeEl = document.getElementById('notice');
  var highlightsEl = document.getElementById('highlights');
  var highlightList = document.getElementById('highlight-list');
  var filtersEl = document.getElementById('filters');
  var bookFilterEl = document.getElementById('book-filter');
  var leagueDate = document.querySelector('meta[name="league-date"]').content;
  document.getElementById('board-date').textContent = leagueDate;

  // What the user chose to see; kept across keys and reloads of the data.
  var filters = { market: 'moneyline', phase: 'all', minEv: 0, sort: 'live', hiddenBooks: {} };
  var state = null; // { key, books, games, listings, history, cards, stream, seq, socket, historyPlan }

  function setStatus(text, kind, extra) {
    statusEl.replaceChildren(document.createTextNode(text));
    if (extra) statusEl.appendChild(extra);
    statusEl.className = 'status' + (kind ? ' ' + kind : '');
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] === undefined || attrs[k] === null) return;
      if (k === 'text') node.textContent = attrs[k];
      else if (k === 'dataset') Object.assign(node.dataset, attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  /**
   * GET an API route with the key; resolves to the envelope, rejects with the API's error message and status.
   * Always revalidated (`no-cache`): the API lets browsers keep live answers for a few seconds
   * (Cache-Control max-age), so a reload right after a price moved would otherwise draw the board from
   * the old bytes. With the answer's ETag an unchanged one costs a 304.
   */
  function api(path, key) {
    return fetch(API + path, { cache: 'no-cache', headers: { Authorization: 'Bearer ' + key } }).then(function (res) {
      return res.json().then(
        function (body) {
          if (!res.ok || !body.success) {
            var err = new Error((body && body.error) || 'HTTP ' + res.status);
            err.status = res.status;
            throw err;
          }
          return body;
        },
        function () {
          throw Object.assign(new Error('HTTP ' + res.status), { status: res.status });
        },
      );
    });
  }

  /**
   * The sportsbooks with whether each is an aggregate (Consensus, Open: never a place to bet, so never
   * a best price). REST /sportsbooks carries names only, so this one read goes through GraphQL.
   */
  function loadBooks(key) {
    var query = '{ sportsbooks { id name isAggregate } }';
    return fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', Authorization: 'Bearer ' + key }, body: JSON.stringify({ query: query }) })
      .then(function (res) { return res.json(); })
      .then(function (body) {
        if (!body.data || !body.data.sportsbooks) throw new Error((body.errors && body.errors[0] && body.errors[0].message) || 'could not read the sportsbooks');
        return body.data.sportsbooks.map(function (b) { return { id: b.id, name: b.name, is_aggregate: b.isAggregate }; });
      });
  }

  function american(price) {
    return price > 0 ? '+' + price : String(price);
  }
  function signedPoint(p) {
    return p > 0 ? '+' + p : String(p);
  }
  function isLive(game) {
    return game.status === 'in_progress' || game.status === 'live';
  }
  function teamOf(game, side) {
    var team = game[side + '_team'];
    if (team && team.abbr) return team.abbr;
    var id = game[side + '_team_id'];
    var found = (game.teams || []).filter(function (t) { return t.id === id; })[0];
    return (found && found.abbr) || side;
  }
  function bookName(id) {
    var b = state.books[id];
    return (b && b.name) || 'Book ' + id;
  }
  function isRealBook(id) {
    var b = state.books[id];
    return !(b && b.is_aggregate);
  }
  function shownBook(id) {
    return isRealBook(id) && !filters.hiddenBooks[id];
  }
  function fullGame(o) {
    return !o.period || o.period === 'full_game';
  }
  function sideLabel(game, type, side) {
    if (type === 'total') return side === 'over' ? 'Over' : 'Under';
    return teamOf(game, side);
  }
  function pointText(type, point) {
    if (type === 'moneyline' || point === null || point === undefined) return '';
    return type === 'spread' ? signedPoint(point) : String(point);
  }
  function outcomesOf(game, type) {
    var market = game.markets && game.markets[type];
    return ((market && market.outcomes) || []).filter(function (o) { return fullGame(o) && o.odds; });
  }

  /** The best available price of one side among real books (highest decimal), as REST's best_odds picks it. */
  function bestOf(game, type, side) {
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
  function entryFor(game, type, o) {
    var found = null;
    (state.listings[type] || []).forEach(function (e) {
      if (e.game_id !== game.game_id || e.book_id !== o.book_id || e.side !== o.side || !!e.is_live !== !!o.is_live) return;
      if ((e.point === null || e.point === undefined ? null : e.point) !== (o.point === null || o.point === undefined ? null : o.point)) return;
      if (!e.odds || String(e.odds.american) !== String(o.odds.american)) return;
      found = e;
    });
    return found;
  }

  function valueBadges(entry) {
    if (!entry || !entry.ev) return [];
    var price = String(entry.odds.american);
    var out = [];
    if (entry.ev.arbitrage) out.push(el('span', { class: 'tag arb', title: 'arbitrage with the other side', dataset: { price: price }, text: 'ARB' }));
    if (entry.ev.profitable && entry.ev.ev_per_100 >= filters.minEv) out.push(el('span', { class: 'tag ev', title: 'expected value per 100 staked at ' + price, dataset: { price: price }, text: '+EV ' + entry.ev.ev_per_100.toFixed(2) }));
    return out;
  }

  // ---- the grid: every book's price per side --------------------------------------------------------

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

  function grid(game, type) {
    var sides = SIDES[type];
    var outcomes = outcomesOf(game, type);
    var bests = sides.map(function (side) { return bestOf(game, type, side); });
    var bookIds = [];
    outcomes.forEach(function (o) { if (shownBook(o.book_id) && bookIds.indexOf(o.book_id) < 0) bookIds.push(o.book_id); });
    bookIds.sort(function (a, b) { return bookName(a).localeCompare(bookName(b)); });
    var head = el('tr', {}, [el('th', { scope: 'col', text: 'Book' })].concat(sides.map(function (side) { return el('th', { scope: 'col', text: sideLabel(game, type, side) }); })));
    var bestRow = el('tr', { class: 'best-row' }, [el('th', { scope: 'row', text: 'Best' })].concat(
      bests.map(function (b, i) {
        if (!b) return el('td', { class: 'cell empty', dataset: { side: sides[i] } }, ['–']);
        return el('td', { class: 'cell best-of', dataset: { side: sides[i], book: String(b.book_id), price: b.odds.american } }, [
          el('span', { class: 'point', text: pointText(type, b.point) }),
          el('strong', { class: 'price', text: b.odds.american }),
          el('span', { class: 'book', text: bookName(b.book_id) }),
        ]);
      }),
    ));
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
      el('caption', { text: type.charAt(0).toUpperCase() + type.slice(1) + ': every book, best price per side highlighted' }),
      el('thead', {}, [head]),
      el('tbody', {}, [bestRow].concat(rows)),
    ]);
  }

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

  // ---- line history: per game and market, per book, the value over time (step charts) ---------------

  /** What the chart plots for a quote: the home win chance (moneyline, in %), the home spread, the total. */
  function chartValue(type, quote) {
    if (type === 'moneyline') {
      if (quote.side !== 'home') return undefined;
      var price = quote.price;
      if (price === undefined || price === null) return undefined;
      return Math.round((price < 0 ? -price / (-price + 100) : 100 / (price + 100)) * 1000) / 10;
    }
    if (type === 'spread') return quote.side === 'home' && quote.point !== null && quote.point !== undefined ? quote.point : undefined;
    return quote.side === 'over' && quote.point !== null && quote.point !== undefined ? quote.point : undefined;
  }

  /** One observed value of a book at an instant (seconds); null records the book off the board. */
  function record(gameId, type, bookId, t, value) {
    if (value === undefined || !isRealBook(bookId)) return;
    var series = state.history[gameId + ':' + type];
    if (!series) return; // the chart's history is not loaded (or not allowed): nothing to extend
    var points = series[bookId] || (series[bookId] = []);
    var last = points[points.length - 1];
    if (last && last[0] > t) return;
    if (last && last[1] === value) return; // a repeat is no change: the step already holds it
    points.push([t, value]);
  }

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
        var series = {};
        body.data.forEach(function (snap) {
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
        s.history[key] = series;
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

  var COLORS = ['#1d4ed8', '#b91c1c', '#15803d', '#7e22ce', '#c2410c', '#0e7490', '#374151', '#a16207', '#be185d'];
  var UNITS = { moneyline: 'home win % (implied)', spread: 'home spread', total: 'total points' };

  function drawChart(card) {
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
    var last = built.data[0].length - 1;
    var stepped = uPlot.paths.stepped({ align: 1 });
    var plotSeries = [{}].concat(
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
    card.plot = new uPlot(
      {
        width: Math.max(240, card.chartEl.clientWidth || 420),
        height: 190,
        series: plotSeries,
        axes: [{}, { label: UNITS[type], size: 56 }],
        legend: { live: false },
      },
      built.data,
      card.chartEl,
    );
  }

  // ---- cards ------------------------------------------------------------------------------------

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

  /** The best EV (per 100) of a game's prices as shown now, for the sort. */
  function bestEvOf(game) {
    var best = -Infinity;
    MARKETS.forEach(function (type) {
      outcomesOf(game, type).forEach(function (o) {
        var e = shownBook(o.book_id) && entryFor(game, type, o);
        if (e && e.ev && e.ev.ev_per_100 > best) best = e.ev.ev_per_100;
      });
    });
    return best;
  }

  function visibleGames() {
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

  function renderAll() {
    var list = visibleGames();
    var cards = list.map(renderGame);
    gamesEl.replaceChildren.apply(gamesEl, cards.map(function (c) { return c.root; }));
    cards.forEach(drawChart);
    if (!list.length) gamesEl.replaceChildren(el('p', { class: 'muted', text: Object.keys(state.games).length ? 'No game matches the filters.' : 'No games on ' + leagueDate + '.' }));
    renderHighlights();
    renderNotice();
    renderBookFilter();
  }

  /** The value and arbitrage list: listing entries whose price is still the one on the board. */
  function renderHighlights() {
    var entries = [];
    MARKETS.forEach(function (type) {
      (state.listings[type] || []).forEach(function (e) {
        var game = state.games[e.game_id];
        if (!game || !e.ev || !(e.ev.arbitrage || (e.ev.profitable && e.ev.ev_per_100 >= filters.minEv)) || !shownBook(e.book_id)) return;
        var current = outcomesOf(game, type).filter(function (o) { return o.book_id === e.book_id && o.side === e.side && !!o.is_live === !!e.is_live; })[0];
        if (!current || current.is_available === false || entryFor(game, type, current) !== e) return; // the price moved since: wait for the next read
        entries.push(e);
      });
    });
    entries.sort(function (a, b) { return (b.ev.arbitrage ? 1 : 0) - (a.ev.arbitrage ? 1 : 0) || b.ev.ev_per_100 - a.ev.ev_per_100; });
    highlightList.replaceChildren.apply(highlightList, entries.slice(0, 8).map(function (e) {
      var game = state.games[e.game_id];
      var tag = e.ev.arbitrage ? 'ARB ' + e.ev.arbitrage_detail.profit_percentage.toFixed(2) + ' %' : '+EV ' + e.ev.ev_per_100.toFixed(2);
      var point = pointText(e.market_type, e.point);
      return el('li', { class: e.ev.arbitrage ? 'arb' : 'ev', dataset: { price: String(e.odds.american), book: String(e.book_id) } }, [
        el('a', { href: '#game-' + e.game_id, text: teamOf(game, 'away') + ' @ ' + teamOf(game, 'home') }),
        ' ' + e.market_type + ' ' + sideLabel(game, e.market_type, e.side) + (point ? ' ' + point : '') + ' ' + e.odds.american + ' at ' + e.book_name + (e.is_live ? ' (live)' : ' (pregame)') + ': ',
        el('strong', { text: tag }),
      ]);
    }));
    highlightsEl.hidden = entries.length === 0;
  }

  function renderNotice() {
    var simulated = Object.keys(state.games).some(function (id) { var m = state.games[id].meta; return m && m.simulated; });
    noticeEl.hidden = !simulated;
    noticeEl.textContent = simulated ? 'Simulated data: these games and prices come from the built-in simulator (npm start), not from a real feed. Do not bet on them.' : '';
  }

  function renderBookFilter() {
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
        if (state) renderAll();
      });
      return el('label', {}, [box, ' ' + bookName(id)]);
    }));
  }

  function bindFilters() {
    var market = filtersEl.querySelector('#filter-market');
    var phase = filtersEl.querySelector('#filter-phase');
    var minEv = filtersEl.querySelector('#filter-min-ev');
    var sort = filtersEl.querySelector('#filter-sort');
    market.addEventListener('change', function () { filters.market = market.value; if (state) renderAll(); });
    phase.addEventListener('change', function () { filters.phase = phase.value; if (state) renderAll(); });
    sort.addEventListener('change', function () { filters.sort = sort.value; if (state) renderAll(); });
    minEv.addEventListener('input', function () {
      var v = Number(minEv.value);
      filters.minEv = minEv.value === '' || !isFinite(v) ? 0 : v;
      if (state) renderAll();
    });
  }

  // ---- data ---------------------------------------------------------------------------------------

  function loadListings(s) {
    return Promise.all(
      MARKETS.map(function (type) {
        return api('/markets/' + type + '?date=' + leagueDate + '&sort=value&limit=1000', s.key).then(
          function (body) { s.listings[type] = body.data; },
          function () { s.listings[type] = []; },
        );
      }),
    );
  }

  var listingTimer = null;
  var listingLast = 0;
  /** Listings (EV, arbitrage) again after prices moved: at most once per LISTING_REFRESH_MS (rate limits). */
  function refreshListingsSoon() {
    var s = state;
    if (listingTimer) return;
    var wait = Math.max(0, listingLast + LISTING_REFRESH_MS - Date.now());
    listingTimer = setTimeout(function () {
      listingTimer = null;
      listingLast = Date.now();
      loadListings(s).then(function () {
        if (s === state) renderAll();
      });
    }, wait);
  }

  function mergeGame(game) {
    var known = state.games[game.game_id];
    state.games[game.game_id] = known ? Object.assign({}, known, game, { away_team: game.away_team || known.away_team, home_team: game.home_team || known.home_team, meta: game.meta || known.meta }) : game;
  }

  function applySnapshot(payload) {
    (payload.data || []).forEach(mergeGame);
    state.stream = payload.stream;
    state.seq = payload.seq;
    renderAll();
  }

  /** One odds_change: replace the outcomes it names, update status and score, extend the charts. */
  function applyDelta(delta) {
    var at = Math.floor((Date.parse(delta.at) || Date.now()) / 1000);
    (delta.games || []).forEach(function (g) {
      var game = state.games[g.game_id];
      if (!game) return;
      game.status = g.status;
      game.status_display = g.status_display;
      game.boxscore = Object.assign({}, game.boxscore, { clock: g.clock, period: g.period, home_score: g.home_score, away_score: g.away_score });
    });
    (delta.quotes || []).forEach(function (q) {
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
    });
    state.seq = delta.seq;
    renderAll();
    setStatus('Live · ' + Object.keys(state.games).length + ' games · last change ' + new Date(at * 1000).toLocaleTimeString() + ' (seq ' + delta.seq + ')', 'ok');
    refreshListingsSoon();
  }

  function reconnectButton(socket) {
    var button = el('button', { type: 'button', class: 'link-button', text: 'Reconnect now' });
    button.addEventListener('click', function () { socket.connect(); });
    return button;
  }

  function connect(s) {
    if (typeof io !== 'function') return;
    var socket = io('/live-odds', { auth: { apiKey: s.key } });
    s.socket = socket;
    // On a reconnect the subscribe names the stream and the last seq applied, so the missed deltas are
    // replayed (or a resync snapshot comes when the server no longer holds them).
    socket.on('connect', function () { socket.emit('subscribe', s.stream ? { stream: s.stream, last_seq: s.seq } : {}); });
    socket.on('connect_error', function (err) {
      if (s !== state) return;
      if (/unauthori[sz]ed|invalid|revoked|key/i.test(err.message) && !socket.active) return refuseKey(err.message);
      setStatus('Connection lost: ' + err.message + '. Reconnecting… ', 'warn', reconnectButton(socket));
    });
    socket.on('disconnect', function (reason) {
      if (s !== state) return;
      // The server closing the connection is not retried by the client on its own.
      setStatus('Connection lost (' + reason + '); the prices shown may be old. Reconnecting… ', 'warn', reconnectButton(socket));
      if (reason === 'io server disconnect') setTimeout(function () { if (s === state) socket.connect(); }, 2000);
    });
    socket.on('live_odds', function (payload) {
      if (s !== state) return;
      if (!payload.success) return setStatus('Live updates stopped: ' + payload.error, 'error');
      applySnapshot(payload);
      var asOf = payload.updated_at ? ', prices as of ' + new Date(payload.updated_at).toLocaleTimeString() : '';
      setStatus('Live · ' + Object.keys(state.games).length + ' games · ' + (payload.data || []).length + ' in play' + asOf + ' (seq ' + payload.seq + ')', 'ok');
    });
    socket.on('odds_change', function (delta) {
      if (s !== state || delta.stream !== s.stream) return;
      if (delta.seq <= s.seq) return; // already in the snapshot, or a resend
      if (delta.base_seq !== s.seq) return socket.emit('resync'); // a gap: ask for a fresh snapshot
      applyDelta(delta);
    });
  }

  /** Everything shown for the previous key goes: nothing of it belongs to the key now entered. */
  function clearBoard() {
    if (state && state.socket) state.socket.close();
    Object.keys((state && state.cards) || {}).forEach(function (id) { if (state.cards[id].plot) state.cards[id].plot.destroy(); });
    gamesEl.replaceChildren();
    highlightList.replaceChildren();
    highlightsEl.hidden = true;
    noticeEl.hidden = true;
    filtersEl.hidden = true;
  }

  function refuseKey(message) {
    clearBoard();
    state = null;
    setStatus('This API key was refused (' + message + '). Check it, or use the demo key npm start printed (kept in data/demo-key).', 'error');
  }

  function start(key) {
    clearBoard();
    if (!key) {
      state = null;
      return setStatus("Enter an API key to load today's games. Running the demo (npm start)? It printed a ready demo key in its terminal, also kept in data/demo-key.");
    }
    var s = (state = { key: key, books: {}, games: {}, listings: {}, history: {}, historyPending: {}, historyPlan: false, cards: {}, stream: null, seq: -1, socket: null });
    setStatus('Loading games of ' + leagueDate + '…');
    // The games first: a bad key or plan answers here with the API's own message.
    Promise.all([api('/games?date=' + leagueDate + '&limit=1000', key), api('/live', key)])
      .then(function (answers) {
        return loadBooks(key).then(function (books) { return [books].concat(answers); });
      })
      .then(function (answers) {
        if (s !== state) return;
        answers[0].forEach(function (b) { s.books[b.id] = b; });
        answers[1].data.concat(answers[2].data).forEach(mergeGame);
        return loadListings(s).then(function () {
          if (s !== state) return;
          filtersEl.hidden = false;
          renderAll();
          setStatus(Object.keys(s.games).length + ' games · connecting to live updates…');
          connect(s);
        });
      })
      .catch(function (err) {
        if (s !== state) return;
        if (err.status === 401) return refuseKey(err.message);
        clearBoard();
        setStatus(err.message, 'error');
      });
  }

  // Charts are drawn to their box's width: drawn again when the window changes size (a phone turned).
  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      if (state) Object.keys(state.cards).forEach(function (id) { if (state.cards[id].root.isConnected) drawChart(state.cards[id]); });
    }, 150);
  });

  bindFilters();
  window.OddsApiKey.bindForm(document.getElementById('key-form'), document.getElementById('api-key'), start);
})();
