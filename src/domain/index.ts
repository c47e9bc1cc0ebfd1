/** Public API of the pure odds math; see README.md in this folder. */

export * from './odds-format';
export * from './devig';
export * from './key-numbers';
export * from './ev';
export * from './arbitrage';
export * from './consensus';
export * from './stale';
export { ODDS_DECIMAL_DIGITS, PERCENT_DIGITS, PROBABILITY_DIGITS, roundTo } from './rounding';
export { normalCdf } from './normal';
export * from './book-pricing';
export * from './local-day';
export * from './interval';
export * from './market-types';
export * from './vocabulary';
export * from './grading';
export * from './clv';
export * from './closing';
export * from './residual-fit';
export * from './webhook-retry';
export * from './win-probability';
export * from './listing';
export * from './players';
export * from './bettable';
export * from './middles';
export * from './signals';
export * from './signal-tracker';
export * from './signal-labels';
