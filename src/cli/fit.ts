import type { Command } from 'commander';
import { findClosedGames } from '../db/closed-games';
import { fitStdDevTable, POINT_MARKET_TYPES, PUBLISHED_STD_DEV, shrinkStdDev, type PointMarket, type ResidualFit } from '../domain';
import { withDatabase } from './database';

// `odds fit-std-dev`: the key-number model's standard deviations fitted from the stored finals and
// closing lines (docs/value-metrics.md, "Fitted standard deviations"). It reports; the service uses
// the table committed in src/domain/std-dev-fit.ts, which is this command's output on the real captures.

const MARKETS: readonly PointMarket[] = POINT_MARKET_TYPES;
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** One league and market of the report: the fit, the published value and the value the fit would give. */
interface FitLine {
  n: number;
  mean: number;
  sd: number;
  standard_error: number;
  published: number | null;
  used: number | null;
}

export interface FitReport {
  sample: { finals: number; with_closing_line: number; from: string | null; to: string | null };
  fits: Record<string, Partial<Record<PointMarket, FitLine>>>;
}

/** The report of a set of closed games (exported for the command's own output and its tests). */
export function fitReport(games: Awaited<ReturnType<typeof findClosedGames>>): FitReport {
  const closed = games.filter((g) => g.closingSpread !== null || g.closingTotal !== null);
  const table = fitStdDevTable(closed);
  const fits: FitReport['fits'] = {};
  for (const [league, byMarket] of Object.entries(table) as Array<[string, Partial<Record<PointMarket, ResidualFit>>]>) {
    const published = (PUBLISHED_STD_DEV as Record<string, Record<PointMarket, number> | undefined>)[league];
    fits[league] = {};
    for (const market of MARKETS) {
      const fit = byMarket[market];
      if (!fit) continue;
      const prior = published?.[market] ?? null;
      fits[league][market] = {
        n: fit.n,
        mean: round(fit.mean),
        sd: round(fit.sd),
        standard_error: round(fit.standardError),
        published: prior,
        used: prior === null ? null : round(shrinkStdDev(prior, fit)),
      };
    }
  }
  return {
    sample: {
      finals: games.length,
      with_closing_line: closed.length,
      from: closed[0]?.startTime.toISOString() ?? null,
      to: closed.at(-1)?.startTime.toISOString() ?? null,
    },
    fits,
  };
}

function printTable(report: FitReport): void {
  const { sample } = report;
  const lines = [
    `finals: ${sample.finals}, with a closing line: ${sample.with_closing_line}` + (sample.from ? `, starting ${sample.from} .. ${sample.to}` : ''),
    'league  market  n     mean     sd       se       published  used',
  ];
  for (const [league, byMarket] of Object.entries(report.fits)) {
    for (const market of MARKETS) {
      const f = byMarket[market];
      if (!f) continue;
      const cells = [league.padEnd(7), market.padEnd(7), String(f.n).padEnd(5), String(f.mean).padEnd(8), String(f.sd).padEnd(8), String(f.standard_error).padEnd(8), String(f.published ?? '-').padEnd(10), String(f.used ?? '-')];
      lines.push(cells.join(' '));
    }
  }
  if (!Object.keys(report.fits).length) lines.push('(no final game with a closing line is stored)');
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function registerFitCommand(program: Command): void {
  program
    .command('fit-std-dev')
    .description(
      'fit the key-number model\'s standard deviations (final margin - closing spread, final total - closing total) from the stored real finals; ' +
        'prints n, mean, sd, its standard error, the published value and the value the service would use (docs/value-metrics.md)',
    )
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }) => {
      await withDatabase('odds fit-std-dev', async (db) => {
        const report = fitReport(await findClosedGames(db.prisma));
        if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        else printTable(report);
      });
    });
}
