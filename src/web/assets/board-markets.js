// The game markets the board shows, as the page gives them (src/web/pages.ts writes the service's
// market table into #board-markets): their type, label, sides and what their point is (`none`:
// moneyline; `handicap`: each side's own, shown signed; `over_under`: one number both sides share). This
// file reads that list and says what the rest of the board asks of a market; no other board file
// looks at a market's line. The Market filter's options are built from this list, in this order;
// the first is the one shown at first.

/** What a market's line chart plots, by what its point is: whose number, in which unit. */
var CHARTS = {
  none: { side: 'home', unit: 'home win % (implied)' },
  handicap: { side: 'home', unit: 'home spread' },
  over_under: { side: 'over', unit: 'total points' },
};

export var MARKETS = JSON.parse(document.getElementById('board-markets').textContent).map(function (m) {
  // The grid reads away before home (away at home), and over before under, as the service lists them.
  var sides = m.sides.indexOf('away') >= 0 ? ['away', 'home'] : m.sides.slice();
  return { type: m.type, label: m.label, sides: sides, line: m.line, chart: CHARTS[m.line] };
});

/** The row of a market type, or undefined for one the board does not show. */
export function marketOf(type) {
  return MARKETS.filter(function (m) { return m.type === type; })[0];
}

/** Whether a market's sides are the two teams (a total's over and under belong to no team). */
export function sidesAreTeams(type) {
  var market = marketOf(type);
  return !(market && market.line === 'over_under');
}

/** A price's point as the grid shows it: none without a line, a handicap signed, a total as it is. */
export function pointText(type, point) {
  var market = marketOf(type);
  var line = market && market.line;
  if (line === 'none' || point === null || point === undefined) return '';
  return line === 'handicap' ? signedPoint(point) : String(point);
}
function signedPoint(p) {
  return p > 0 ? '+' + p : String(p);
}

/**
 * What the chart plots for a quote: the chart side's implied win chance (in %) for a market without a
 * line (moneyline: the home team's), else the chart side's point (the home spread, the total).
 * Undefined for the other side and for a market the board does not show.
 */
export function chartValue(type, quote) {
  var market = marketOf(type);
  if (!market || quote.side !== market.chart.side) return undefined;
  if (market.line === 'none') {
    var price = quote.price;
    if (price === undefined || price === null) return undefined;
    return Math.round((price < 0 ? -price / (-price + 100) : 100 / (price + 100)) * 1000) / 10;
  }
  return quote.point !== null && quote.point !== undefined ? quote.point : undefined;
}
