// The game markets the board shows, as data: the one place the board spells their names. Each row
// says what the rest of the board asks of a market (as src/domain/market-types.ts describes the
// service's): its sides in the grid's column order, what its point is (`none`: moneyline; `handicap`:
// each side's own, shown signed; `total`: one number both sides share), the filter's label, and what
// its line chart plots (which side's number, in which unit). The Market filter's options are built
// from this list, in this order; the first is the one shown at first.

export var MARKETS = [
  { type: 'moneyline', label: 'Moneyline', sides: ['away', 'home'], line: 'none', chart: { side: 'home', unit: 'home win % (implied)' } },
  { type: 'spread', label: 'Spread', sides: ['away', 'home'], line: 'handicap', chart: { side: 'home', unit: 'home spread' } },
  { type: 'total', label: 'Total', sides: ['over', 'under'], line: 'total', chart: { side: 'over', unit: 'total points' } },
];

/** The row of a market type, or undefined for one the board does not show. */
export function marketOf(type) {
  return MARKETS.filter(function (m) { return m.type === type; })[0];
}

/** Whether a market's sides are the two teams (a total's over and under belong to no team). */
export function sidesAreTeams(type) {
  var market = marketOf(type);
  return !(market && market.line === 'total');
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
