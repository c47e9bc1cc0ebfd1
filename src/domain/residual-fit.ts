// Fitting the key-number model's standard deviations from results (docs/value-metrics.md, "Fitted
// standard deviations"): the residuals of final results against closing lines, their spread, and how
// a small sample is combined with the published values. Pure: the database read is src/db's.

/** A final game and its closing lines (each the median of the real books' closing points). */
export interface ClosedGame<L extends string = string> {
  league: L;
  homeScore: number;
  awayScore: number;
  /** Closing home handicap (home -5.5 is -5.5); null when no real book had a closing spread. */
  closingSpread: number | null;
  /** Closing total; null when no real book had a closing total. */
  closingTotal: number | null;
}

/** The fit of one league and market: the residuals' count, mean, standard deviation and its standard error. */
export interface ResidualFit {
  n: number;
  /** Mean residual: how far results sat from the line on average (the model assumes 0). */
  mean: number;
  /** sqrt(mean of squared residuals): the spread around the line itself, which the model centres on. */
  sd: number;
  /** Standard error of `sd` under normality: sd / sqrt(2n). */
  standardError: number;
}

/**
 * How many residuals the published value counts as when combined with a fit: a season of one team's
 * games is roughly 80, and the published values rest on several seasons of all teams, so 100 keeps the
 * prior in charge until the service has stored a comparable number of finals.
 */
export const PRIOR_WEIGHT = 100;

/** Final margin against the closing spread: (home - away) + home handicap; positive when home covered. */
export function spreadResidual(homeScore: number, awayScore: number, homeHandicap: number): number {
  return homeScore - awayScore + homeHandicap;
}

/** Final total against the closing total; positive when the game went over. */
export function totalResidual(homeScore: number, awayScore: number, total: number): number {
  return homeScore + awayScore - total;
}

/**
 * The fit of a set of residuals. The standard deviation is taken around 0 (the line), not around the
 * sample mean: the model centres its distribution on the line, so a bias of the lines is part of the
 * error it must cover.
 * @throws RangeError for an empty set or a non-finite residual
 */
export function fitResidualStdDev(residuals: readonly number[]): ResidualFit {
  if (residuals.length === 0) throw new RangeError('Cannot fit a standard deviation to no residuals');
  for (const r of residuals) if (!Number.isFinite(r)) throw new RangeError(`Invalid residual ${String(r)}: must be a finite number`);
  const n = residuals.length;
  const mean = residuals.reduce((s, r) => s + r, 0) / n;
  const sd = Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / n);
  return { n, mean, sd, standardError: sd / Math.sqrt(2 * n) };
}

/** Fits per league and market (`spread`, `total`) of `games`; a league or market without residuals is absent. */
export function fitStdDevTable<L extends string>(games: readonly ClosedGame<L>[]): Partial<Record<L, { spread?: ResidualFit; total?: ResidualFit }>> {
  const residuals = new Map<L, { spread: number[]; total: number[] }>();
  for (const g of games) {
    const r = residuals.get(g.league) ?? { spread: [], total: [] };
    residuals.set(g.league, r);
    if (g.closingSpread !== null) r.spread.push(spreadResidual(g.homeScore, g.awayScore, g.closingSpread));
    if (g.closingTotal !== null) r.total.push(totalResidual(g.homeScore, g.awayScore, g.closingTotal));
  }
  const table: Partial<Record<L, { spread?: ResidualFit; total?: ResidualFit }>> = {};
  for (const [league, r] of residuals) {
    table[league] = {
      ...(r.spread.length ? { spread: fitResidualStdDev(r.spread) } : {}),
      ...(r.total.length ? { total: fitResidualStdDev(r.total) } : {}),
    };
  }
  return table;
}

/**
 * The standard deviation to use given the published value and a fit: the pooled variance of the two,
 * the published value counting as PRIOR_WEIGHT residuals: sqrt((w * prior^2 + n * sd^2) / (w + n)).
 * A small sample moves it little (9 residuals: under 9 % of the weight); as n grows the fit takes
 * over; with n = w they count equally. Without a fit, the published value.
 */
export function shrinkStdDev(prior: number, fit: Pick<ResidualFit, 'n' | 'sd'> | null | undefined): number {
  if (!fit || fit.n === 0) return prior;
  return Math.sqrt((PRIOR_WEIGHT * prior * prior + fit.n * fit.sd * fit.sd) / (PRIOR_WEIGHT + fit.n));
}
