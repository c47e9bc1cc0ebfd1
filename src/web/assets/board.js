// The live odds board: today's games with the best price of each market side, value (+EV) and
// arbitrage highlights and a line-movement chart per game. Initial data over REST with the user's
// key; then Socket.IO /live-odds: live_odds snapshots and odds_change deltas applied by sequence
// number as docs/live-protocol.md says (a gap asks for a resync).
(function () {
  'use strict';
  var API = '/api/v1/nba/odds';
  var MARKETS = ['moneyline', 'spread', 'total'];
  var SIDES = { moneyline: ['away', 'home'], spread: ['away', 'home'], total: ['over', 'under'] };
  var LISTING_REFRESH_MS = 10000; // listings are re-read at most this often while deltas arrive

  var gamesEl = document.getElementById('games');
  var statusEl = document.getElementById('status');
  var highlightsEl = document.getElementById('highlights');
  var highlightList = document.getElementById('highlight-list');
  var leagueDate = document.querySelector('meta[name="league-date"]').content;
  document.getElementById('board-date').textContent = leagueDate;

  var state = null; // { key, books, games, listings, history, stream, seq, socket, cards }

  function setStatus(text, kind) {
    statusEl.textContent = text;
    statusEl.className = 'status' + (kind ? ' ' + kind : '');
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
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
   * GET an API route with the key; resolves to the envelope, rejects with the API's error message.
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
    return b ? b.name : 'Book ' + id;
  }
  function isRealBook(id) {
    var b = state.books[id];
    return !(b && b.is_aggregate);
  }
  function fullGame(o) {
    return !o.period || o.period === 'full_game';
  }

  /** The best available price of each side of a market among real books (highest decimal). */
  function bestOf(game, type) {
    var market = game.markets && game.markets[type];
    var outcomes = (market && market.outcomes) || [];
    return SIDES[type].map(function (side) {
      var best = null;
      outcomes.forEach(function (o) {
        if (o.side !== side || o.is_available === false || !fullGame(o) || !isRealBook(o.book_id) || !o.odds) return;
        if (!best || o.odds.decimal > best.odds.decimal) best = o;
      });
      return { side: side, outcome: best };
    });
  }

  /** Value and arbitrage entries of the listings for one game, keyed by market, book and side. */
  function flagsFor(gameId) {
    var flags = {};
    MARKETS.forEach(function (type) {
      (state.listings[type] || []).forEach(function (e) {
        if (e.game_id !== gameId || !e.ev) return;
        flags[type + ':' + e.book_id + ':' + e.side + ':' + (e.is_live ? 'live' : 'pre')] = e;
      });
    });
    return flags;
  }

  function sideLabel(game, type, side) {
    if (type === 'total') return side === 'over' ? 'Over' : 'Under';
    return teamOf(game, side);
  }

  function bestTable(game) {
    var flags = flagsFor(game.game_id);
    var rows = MARKETS.map(function (type) {
      var cells = bestOf(game, type).map(function (b) {
        var o = b.outcome;
        if (!o) return el('td', { class: 'best empty', dataset: { market: type, side: b.side } }, ['–']);
        var flag = flags[type + ':' + o.book_id + ':' + b.side + ':' + (o.is_live ? 'live' : 'pre')];
        var classes = 'best' + (flag && flag.ev.profitable ? ' ev' : '') + (flag && flag.ev.arbitrage ? ' arb' : '');
        var point = type === 'moneyline' || o.point === null || o.point === undefined ? '' : (type === 'spread' ? signedPoint(o.point) : o.point) + ' ';
        return el('td', { class: classes, dataset: { market: type, side: b.side, book: String(o.book_id) } }, [
          el('span', { class: 'label', text: sideLabel(game, type, b.side) + ' ' }),
          el('span', { class: 'point', text: point }),
          el('strong', { class: 'price', text: o.odds.american }),
          el('span', { class: 'book', text: ' ' + bookName(o.book_id) + (o.is_live ? ' · live' : '') }),
          flag && flag.ev.profitable ? el('span', { class: 'tag ev', text: ' +EV ' + flag.ev.ev_per_100.toFixed(2) }) : null,
          flag && flag.ev.arbitrage ? el('span', { class: 'tag arb', text: ' ARB' }) : null,
        ]);
      });
      return el('tr', {}, [el('th', { text: type })].concat(cells));
    });
    return el('table', { class: 'best-prices' }, [el('tbody', {}, rows)]);
  }

  function headline(game) {
    var score = game.boxscore && game.boxscore.home_score !== undefined && game.boxscore.home_score !== null ? ' ' + game.boxscore.away_score + '–' + game.boxscore.home_score : '';
    var when = isLive(game) ? game.status_display || (game.boxscore && game.boxscore.clock ? 'Q' + game.boxscore.period + ' ' + game.boxscore.clock : 'live') : new Date(game.start_time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return el('header', { class: 'game-head' }, [
      el('h2', { text: teamOf(game, 'away') + ' @ ' + teamOf(game, 'home') }),
      el('span', { class: 'game-status ' + (isLive(game) ? 'live' : game.status), text: game.status.replace('_', ' ') + ' · ' + when + score }),
    ]);
  }

  // ---- line movement: per game, per book, the line over time -------------------------------------

  /** What the chart plots for a quote of a market: the home spread, the total, the home win chance (moneyline, in %). */
  function chartValue(type, quote) {
    if (type === 'moneyline') {
      if (quote.side !== 'home') return undefined;
      var price = quote.price;
      if (price === undefined || price === null) return undefined;
      return Math.round((price < 0 ? -price / (-price + 100) : 100 / (price + 100)) * 1000) / 10;
    }
    if (type === 'spread') return quote.side === 'home' && quote.point !== null ? quote.point : undefined;
    return quote.side === 'over' && quote.point !== null ? quote.point : undefined;
  }

  function record(gameId, type, bookId, at, value) {
    if (value === undefined || !isRealBook(bookId)) return;
    var key = gameId + ':' + type;
    var points = state.history[key] || (state.history[key] = []);
    points.push({ t: Math.floor(at / 1000), book: bookId, v: value });
  }

  function recordOutcomes(game, at) {
    MARKETS.forEach(function (type) {
      var market = game.markets && game.markets[type];
      ((market && market.outcomes) || []).forEach(function (o) {
        if (!fullGame(o) || o.is_available === false || !o.odds) return;
        record(game.game_id, type, o.book_id, at, chartValue(type, { side: o.side, point: o.point, price: o.odds.original }));
      });
    });
  }

  /** uPlot's aligned data: one x per instant, one series per book (null where it did not move). */
  function chartData(gameId, type) {
    var points = (state.history[gameId + ':' + type] || []).slice().sort(function (a, b) { return a.t - b.t; });
    var xs = [];
    points.forEach(function (p) { if (xs[xs.length - 1] !== p.t) xs.push(p.t); });
    var books = [];
    points.forEach(function (p) { if (books.indexOf(p.book) < 0) books.push(p.book); });
    var ys = books.map(function (book) {
      var row = xs.map(function () { return null; });
      points.forEach(function (p) { if (p.book === book) row[xs.indexOf(p.t)] = p.v; });
      return row;
    });
    // One instant alone would stretch the time axis over years: frame it with empty quarter hours.
    if (xs.length === 1) {
      xs = [xs[0] - 900, xs[0], xs[0] + 900];
      ys = ys.map(function (row) { return [null, row[0], null]; });
    }
    return { books: books, data: [xs].concat(ys) };
  }

  var COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];
  var UNITS = { moneyline: 'home win %', spread: 'home spread', total: 'total' };

  function drawChart(card) {
    var built = chartData(card.gameId, card.chartType);
    card.chartEl.replaceChildren();
    if (card.plot) card.plot.destroy();
    card.plot = null;
    if (!built.data[0].length) {
      card.chartEl.appendChild(el('p', { class: 'muted', text: 'No line history yet for this market.' }));
      return;
    }
    var series = [{}].concat(
      built.books.map(function (book, i) {
        return { label: bookName(book), stroke: COLORS[i % COLORS.length], width: 2, spanGaps: true, points: { show: true, size: 5 } };
      }),
    );
    card.plot = new uPlot(
      {
        width: Math.max(280, card.chartEl.clientWidth || 420),
        height: 180,
        series: series,
        axes: [{}, { label: UNITS[card.chartType] }],
        legend: { live: false },
      },
      built.data,
      card.chartEl,
    );
  }

  // ---- cards ------------------------------------------------------------------------------------

  function buildCard(game) {
    var card = { gameId: game.game_id, chartType: 'moneyline', plot: null };
    card.root = el('article', { class: 'game', id: 'game-' + game.game_id, dataset: { gameId: String(game.game_id) } });
    card.head = el('div');
    card.prices = el('div', { class: 'prices' });
    card.notes = el('ul', { class: 'notes' });
    var select = el('select', { 'aria-label': 'market to chart' }, MARKETS.map(function (t) { return el('option', { value: t, text: UNITS[t] }); }));
    select.addEventListener('change', function () {
      card.chartType = select.value;
      drawChart(card);
    });
    card.chartEl = el('div', { class: 'chart' });
    card.root.append(card.head, card.prices, card.notes, el('div', { class: 'chart-head' }, [el('span', { text: 'Line movement ' }), select]), card.chartEl);
    return card;
  }

  function notesFor(game) {
    var items = [];
    MARKETS.forEach(function (type) {
      (state.listings[type] || []).forEach(function (e) {
        if (e.game_id !== game.game_id || !e.ev) return;
        var label = sideLabel(game, type, e.side) + (e.point !== null && e.point !== undefined && type !== 'moneyline' ? ' ' + (type === 'spread' ? signedPoint(e.point) : e.point) : '');
        if (e.ev.arbitrage && e.ev.arbitrage_detail) {
          var c = e.ev.arbitrage_detail.complement || {};
          items.push({ order: 0, node: el('li', { class: 'arb', text: 'Arbitrage ' + type + ': ' + label + ' ' + e.odds.american + ' at ' + e.book_name + ' with ' + (c.side || '') + ' ' + (c.american || '') + ' at ' + (c.book_name || '') + ', profit ' + e.ev.arbitrage_detail.profit_percentage.toFixed(2) + ' %' }) });
        } else if (e.ev.profitable) {
          items.push({ order: 1 - e.ev.ev_per_100 / 1000, node: el('li', { class: 'ev', text: '+EV ' + type + ': ' + label + ' ' + e.odds.american + ' at ' + e.book_name + ', ' + e.ev.ev_per_100.toFixed(2) + ' per 100 staked' }) });
        }
      });
    });
    items.sort(function (a, b) { return a.order - b.order; });
    return items.slice(0, 4).map(function (i) { return i.node; });
  }

  function renderGame(game) {
    var card = state.cards[game.game_id];
    var fresh = !card;
    if (fresh) card = state.cards[game.game_id] = buildCard(game);
    card.root.className = 'game' + (isLive(game) ? ' is-live' : '');
    card.head.replaceChildren(headline(game));
    card.prices.replaceChildren(bestTable(game));
    card.notes.replaceChildren.apply(card.notes, notesFor(game));
    return { card: card, fresh: fresh };
  }

  function renderAll() {
    var list = Object.keys(state.games)
      .map(function (id) { return state.games[id]; })
      .sort(function (a, b) { return (isLive(b) ? 1 : 0) - (isLive(a) ? 1 : 0) || a.start_time.localeCompare(b.start_time) || a.game_id - b.game_id; });
    var nodes = list.map(function (game) {
      var r = renderGame(game);
      return r;
    });
    gamesEl.replaceChildren.apply(gamesEl, nodes.map(function (r) { return r.card.root; }));
    nodes.forEach(function (r) { drawChart(r.card); });
    if (!list.length) gamesEl.replaceChildren(el('p', { class: 'muted', text: 'No games on ' + leagueDate + '.' }));
    renderHighlights();
  }

  function renderHighlights() {
    var entries = [];
    MARKETS.forEach(function (type) {
      (state.listings[type] || []).forEach(function (e) {
        if (e.ev && (e.ev.profitable || e.ev.arbitrage) && state.games[e.game_id]) entries.push(e);
      });
    });
    entries.sort(function (a, b) { return (b.ev.arbitrage ? 1 : 0) - (a.ev.arbitrage ? 1 : 0) || b.ev.ev_per_100 - a.ev.ev_per_100; });
    highlightList.replaceChildren.apply(highlightList, entries.slice(0, 8).map(function (e) {
      var game = state.games[e.game_id];
      var tag = e.ev.arbitrage ? 'ARB ' + e.ev.arbitrage_detail.profit_percentage.toFixed(2) + ' %' : '+EV ' + e.ev.ev_per_100.toFixed(2);
      return el('li', { class: e.ev.arbitrage ? 'arb' : 'ev' }, [
        el('a', { href: '#game-' + e.game_id, text: teamOf(game, 'away') + ' @ ' + teamOf(game, 'home') }),
        ' ' + e.market_type + ' ' + sideLabel(game, e.market_type, e.side) + ' ' + e.odds.american + ' at ' + e.book_name + ': ',
        el('strong', { text: tag }),
      ]);
    }));
    highlightsEl.hidden = entries.length === 0;
  }

  // ---- data ---------------------------------------------------------------------------------------

  function loadListings(s) {
    return Promise.all(
      MARKETS.map(function (type) {
        return api('/markets/' + type + '?date=' + leagueDate + '&sort=value', s.key).then(
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

  function loadMovement(s) {
    return api('/live/movement?period=full_game&side=home,over', s.key).then(
      function (body) {
        body.data.forEach(function (r) {
          var m = r.line_movement;
          var open = chartValue(r.market_type, { side: r.side, point: r.market_type === 'moneyline' ? null : m.open_line, price: m.open_price });
          var current = chartValue(r.market_type, { side: r.side, point: r.market_type === 'moneyline' ? null : m.current_line, price: m.current_price });
          if (m.opened_at) record(r.game_id, r.market_type, r.book_id, Date.parse(m.opened_at), open);
          if (m.changed_at) record(r.game_id, r.market_type, r.book_id, Date.parse(m.changed_at), current);
        });
      },
      function (err) {
        // Starter keys have no movement route: the chart then starts from now and follows the pushes.
        if (err.status === 403) s.movementNote = 'Line history needs a Pro or Elite key; the charts follow live changes from now on.';
      },
    );
  }

  function mergeGame(game) {
    var known = state.games[game.game_id];
    state.games[game.game_id] = known ? Object.assign({}, known, game, { away_team: game.away_team || known.away_team, home_team: game.home_team || known.home_team }) : game;
  }

  function applySnapshot(payload) {
    (payload.data || []).forEach(mergeGame);
    state.stream = payload.stream;
    state.seq = payload.seq;
    renderAll();
  }

  /** One odds_change: replace the outcomes it names, update status and score, extend the charts. */
  function applyDelta(delta) {
    var at = Date.parse(delta.at) || Date.now();
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
      if (q.period === 'full_game' && q.is_available) record(q.game_id, q.market_type, q.book_id, at, chartValue(q.market_type, q));
    });
    state.seq = delta.seq;
    var touched = {};
    (delta.games || []).concat(delta.quotes || []).forEach(function (x) { touched[x.game_id] = true; });
    Object.keys(touched).forEach(function (id) {
      var game = state.games[id];
      if (!game) return;
      var card = renderGame(game).card;
      drawChart(card);
    });
    setStatus('Live · ' + Object.keys(state.games).length + ' games · last change ' + new Date(at).toLocaleTimeString() + ' (seq ' + delta.seq + ')', 'ok');
    refreshListingsSoon();
  }

  function connect(s) {
    if (typeof io !== 'function') return;
    var socket = io('/live-odds', { auth: { apiKey: s.key } });
    s.socket = socket;
    // On a reconnect the subscribe names the stream and the last seq applied, so the missed deltas are
    // replayed (or a resync snapshot comes when the server no longer holds them).
    socket.on('connect', function () { socket.emit('subscribe', s.stream ? { stream: s.stream, last_seq: s.seq } : {}); });
    socket.on('connect_error', function (err) { if (s === state) setStatus('Live updates refused: ' + err.message, 'error'); });
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

  function start(key) {
    if (state && state.socket) state.socket.close();
    if (!key) {
      state = null;
      gamesEl.replaceChildren();
      return setStatus("Enter an API key to load today's games. Running the demo (npm start)? It printed a ready demo key in its terminal, also kept in data/demo-key.");
    }
    var s = (state = { key: key, books: {}, games: {}, listings: {}, history: {}, cards: {}, stream: null, seq: -1, socket: null, movementNote: '' });
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
        var now = Date.now();
        Object.keys(s.games).forEach(function (id) { recordOutcomes(s.games[id], now); });
        return Promise.all([loadListings(s), loadMovement(s)]).then(function () {
          if (s !== state) return;
          renderAll();
          setStatus(Object.keys(s.games).length + ' games · connecting to live updates…' + (s.movementNote ? ' ' + s.movementNote : ''));
          connect(s);
        });
      })
      .catch(function (err) {
        if (s !== state) return;
        setStatus(err.message, 'error');
      });
  }

  window.OddsApiKey.bindForm(document.getElementById('key-form'), document.getElementById('api-key'), start);
})();
