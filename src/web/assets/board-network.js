// The board's network: REST (with the user's key) for the day's games, the books and the listings,
// and the Socket.IO client of /live-odds: live_odds snapshots and odds_change deltas applied by
// sequence number as docs/live-protocol.md says (a gap asks for a resync), reconnecting when the
// connection drops. What a snapshot or delta changes is board-state.js's; what is drawn, the caller's
// `render`.
import { MARKETS } from './board-markets.js';
import { el, leagueDate, setStatus } from './board-page.js';
import { applyDelta, applySnapshot, mergeGame, state } from './board-state.js';

var API = '/api/v1/nba/odds';
var LISTING_REFRESH_MS = 10000; // listings (EV) are re-read at most this often while deltas arrive

/**
 * GET an API route with the key; resolves to the envelope, rejects with the API's error message and status.
 * Always revalidated (`no-cache`): the API lets browsers keep live answers for a few seconds
 * (Cache-Control max-age), so a reload right after a price moved would otherwise draw the board from
 * the old bytes. With the answer's ETag an unchanged one costs a 304.
 */
export function api(path, key) {
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

/**
 * Everything the board first shows for `s.key`: the books, the day's games and the live ones, the
 * listings. Resolves to whether `s` is still the current state (a key entered meanwhile drops it);
 * rejects with the API's error (its status: 401 for a refused key).
 */
export function loadDay(s) {
  // The games first: a bad key or plan answers here with the API's own message.
  return Promise.all([api('/games?date=' + leagueDate + '&limit=1000', s.key), api('/live', s.key)])
    .then(function (answers) {
      return loadBooks(s.key).then(function (books) { return [books].concat(answers); });
    })
    .then(function (answers) {
      if (s !== state) return false;
      answers[0].forEach(function (b) { s.books[b.id] = b; });
      answers[1].data.concat(answers[2].data).forEach(mergeGame);
      return loadListings(s).then(function () { return s === state; });
    });
}

function loadListings(s) {
  return Promise.all(
    MARKETS.map(function (market) {
      var type = market.type;
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
function refreshListingsSoon(render) {
  var s = state;
  if (listingTimer) return;
  var wait = Math.max(0, listingLast + LISTING_REFRESH_MS - Date.now());
  listingTimer = setTimeout(function () {
    listingTimer = null;
    listingLast = Date.now();
    loadListings(s).then(function () {
      if (s === state) render();
    });
  }, wait);
}

function reconnectButton(socket) {
  var button = el('button', { type: 'button', class: 'link-button', text: 'Reconnect now' });
  button.addEventListener('click', function () { socket.connect(); });
  return button;
}

/**
 * Live updates for `s` over Socket.IO /live-odds: each snapshot and delta applied to the state, then
 * `on.render()`; a key the server refuses goes to `on.refused(message)`.
 */
export function connect(s, on) {
  if (typeof io !== 'function') return;
  var socket = io('/live-odds', { auth: { apiKey: s.key } });
  s.socket = socket;
  // On a reconnect the subscribe names the stream and the last seq applied, so the missed deltas are
  // replayed (or a resync snapshot comes when the server no longer holds them).
  socket.on('connect', function () { socket.emit('subscribe', s.stream ? { stream: s.stream, last_seq: s.seq } : {}); });
  socket.on('connect_error', function (err) {
    if (s !== state) return;
    if (/unauthori[sz]ed|invalid|revoked|key/i.test(err.message) && !socket.active) return on.refused(err.message);
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
    on.render();
    var asOf = payload.updated_at ? ', prices as of ' + new Date(payload.updated_at).toLocaleTimeString() : '';
    setStatus('Live · ' + Object.keys(state.games).length + ' games · ' + (payload.data || []).length + ' in play' + asOf + ' (seq ' + payload.seq + ')', 'ok');
  });
  socket.on('odds_change', function (delta) {
    if (s !== state || delta.stream !== s.stream) return;
    if (delta.seq <= s.seq) return; // already in the snapshot, or a resend
    if (delta.base_seq !== s.seq) return socket.emit('resync'); // a gap: ask for a fresh snapshot
    var at = applyDelta(delta);
    on.render();
    setStatus('Live · ' + Object.keys(state.games).length + ' games · last change ' + new Date(at * 1000).toLocaleTimeString() + ' (seq ' + delta.seq + ')', 'ok');
    refreshListingsSoon(on.render);
  });
}
