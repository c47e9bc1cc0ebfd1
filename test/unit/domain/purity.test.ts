import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as domain from '../../../src/domain';

const DOMAIN_DIR = join(__dirname, '../../../src/domain');
const sources = readdirSync(DOMAIN_DIR).filter((f) => f.endsWith('.ts'));

describe('src/domain purity', () => {
  test.each(sources.map((f) => [f]))('when %s is read, then it imports only sibling domain modules', (file) => {
    const text = readFileSync(join(DOMAIN_DIR, file), 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[a-z-]+$/);
  });

  test.each(sources.map((f) => [f]))('when %s is read, then it uses no clock, randomness or process state', (file) => {
    const text = readFileSync(join(DOMAIN_DIR, file), 'utf8');
    expect(text).not.toMatch(/Date\.now|new Date\(\)|Math\.random|process\./);
  });

  test.each([
    ['americanToDecimal'],
    ['decimalToAmerican'],
    ['formatAmerican'],
    ['decimalToFractional'],
    ['impliedProbability'],
    ['probabilityToDecimal'],
    ['americanToImpliedProbability'],
    ['InvalidOddsError'],
    ['devig'],
    ['DEVIG_METHODS'],
    ['DEFAULT_DEVIG_METHOD'],
    ['adjustProbabilityForPoint'],
    ['pushProbability'],
    ['valueMetrics'],
    ['roundTo'],
    ['findArbitrage'],
    ['consensusProbability'],
    ['averageOddsDecimal'],
    ['medianLine'],
    ['consensusAmericanPrices'],
    ['isStale'],
  ])('when the index is imported, then it exports %s', (name) => {
    expect(domain).toHaveProperty(name);
  });
});
