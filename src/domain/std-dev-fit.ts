import type { ResidualFit } from './residual-fit';

// The fit of the key-number model's standard deviations on the real captures, as `odds fit-std-dev
// --json` reports it after ingesting test/fixtures/feeds/nba-2026-01-24.jsonl.gz and
// nba-2026-04-29-playoffs.jsonl.gz (test/integration/std-dev-fit.test.ts recomputes it from them and
// fails when this table differs). Data, not code: refit and replace it when more finals are stored.
// With 9 games it moves MARGIN_STD_DEV only a little from the published values (the published value
// counts as 100 residuals): the sample cannot tell an SD of 12 from one of 9 (standard error about
// 2.3 points), see docs/value-metrics.md, "Fitted standard deviations".

export interface StdDevFitTable {
  /** The games behind the fit: finals stored, those with a closing line, and their start times. */
  sample: { finals: number; withClosingLine: number; from: string; to: string; source: string };
  fits: Partial<Record<'NBA' | 'WNBA', { spread?: ResidualFit; total?: ResidualFit }>>;
}

export const FITTED_STD_DEV: StdDevFitTable = {
  sample: {
    finals: 14,
    withClosingLine: 9,
    from: '2026-01-24T01:00:00.000Z',
    to: '2026-04-29T23:30:00.000Z',
    source: 'real captures: nba-2026-01-24 (128 documents), nba-2026-04-29-playoffs (29 documents)',
  },
  fits: {
    NBA: {
      spread: { n: 9, mean: -6.4722, sd: 9.6253, standardError: 2.2687 },
      total: { n: 9, mean: 4.6944, sd: 12.58, standardError: 2.9651 },
    },
  },
};
