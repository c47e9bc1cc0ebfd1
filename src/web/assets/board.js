// The live odds board: today's games, every book's price of each market side in a grid (the best
// highlighted), value (+EV) and arbitrage badges bound to the exact price they were computed for, and a
// step chart of each game's line history. Initial data over REST with the user's key; then Socket.IO
// /live-odds: live_odds snapshots and odds_change deltas applied by sequence number as
// docs/live-protocol.md says (a gap asks for a resync).
//
// An ES module (pages.ts loads it with type="module", after the classic scripts it needs: Socket.IO's
// `io`, uPlot and api-key.js's `OddsApiKey`). This file wires the parts:
//   board-markets.js  the markets shown (the one place their names are spelled), their sides and lines
//   board-page.js     the page's elements, the status line, the element builder
//   board-state.js    what the board holds (filters, the key's data) and how a push changes it
//   board-network.js  REST and the Socket.IO client: reconnect, resume, resync
//   board-grid.js     the table of books and prices of one game
//   board-chart.js    the step chart of each book's line (uPlot)
//   board-filters.js  the filter bar and the games it lets through
//   board-view.js     the board drawn from the state: cards, highlights, notice
import { connect, loadDay } from './board-network.js';
import { filtersEl, leagueDate, setStatus } from './board-page.js';
import { emptyState, setState, state } from './board-state.js';
import { bindFilters } from './board-filters.js';
import { clearBoard, redrawCharts, renderAll } from './board-view.js';

document.getElementById('board-date').textContent = leagueDate;

function refuseKey(message) {
  clearBoard();
  setState(null);
  setStatus('This API key was refused (' + message + '). Check it, or use the demo key npm start printed (kept in data/demo-key).', 'error');
}

function start(key) {
  clearBoard();
  if (!key) {
    setState(null);
    return setStatus("Enter an API key to load today's games. Running the demo (npm start)? It printed a ready demo key in its terminal, also kept in data/demo-key.");
  }
  var s = setState(emptyState(key));
  setStatus('Loading games of ' + leagueDate + '…');
  loadDay(s)
    .then(function (current) {
      if (!current) return;
      filtersEl.hidden = false;
      renderAll();
      setStatus(Object.keys(s.games).length + ' games · connecting to live updates…');
      connect(s, { render: renderAll, refused: refuseKey });
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
  resizeTimer = setTimeout(redrawCharts, 150);
});

bindFilters(renderAll);
window.OddsApiKey.bindForm(document.getElementById('key-form'), document.getElementById('api-key'), start);
