import { z } from 'zod';
import {
  americanToDecimal,
  decimalToAmerican,
  decimalToFractional,
  DEFAULT_DEVIG_METHOD,
  DEVIG_METHODS,
  devig,
  fractionalToDecimal,
  InvalidOddsError,
  kellyStake,
  overround,
  probabilityToDecimal,
} from '../domain';
import type { JsonSchema } from '../rest/envelope';

// The pure-math tools: odds conversion, de-vig and Kelly staking on numbers the agent gives, computed
// by the domain's own functions (src/domain: the ones the listings use). They read nothing and call
// no route. Arguments are checked with zod and refused with the REST wording, naming the argument.

/** A tool computed in the process from its arguments. */
export interface MathTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  /** JSON Schema of `data`. */
  data: JsonSchema;
  /** The answer's `data` for checked arguments (@throws InvalidOddsError for numbers no bet can have). */
  run(args: any): unknown;
  /** The answer in words. */
  summary(data: any): string;
}

const american = z.number().int().refine((v) => v <= -100 || v >= 100, 'must be American odds: an integer <= -100 or >= 100');
const decimal = z.number().gt(1, 'must be decimal odds greater than 1').lt(10_000);
const probability = z.number().gt(0, 'must be a probability strictly between 0 and 1').lt(1, 'must be a probability strictly between 0 and 1');
const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** One price in every format the service shows. */
function formats(d: number) {
  return { decimal: round(d, 4), american: decimalToAmerican(d), fractional: decimalToFractional(d), implied_probability: round(1 / d, 6) };
}

const FORMATS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['decimal', 'american', 'fractional', 'implied_probability'],
  properties: {
    decimal: { type: 'number', description: 'Decimal odds (stake included), 4 decimals' },
    american: { type: 'integer', description: 'American odds, rounded to a whole number' },
    fractional: { type: 'string', description: 'Fractional odds (profit/stake), reduced, denominator at most 100' },
    implied_probability: { type: 'number', description: '1/decimal: the probability the price implies, margin included' },
  },
};

const priceOf = (p: { american?: number | undefined; decimal?: number | undefined }) => (p.decimal !== undefined ? p.decimal : americanToDecimal(p.american!));

const convertInput = z
  .strictObject({
    american: american.optional(),
    decimal: decimal.optional(),
    fractional: z.string().max(20).optional(),
    probability: probability.optional(),
  })
  .refine((a) => [a.american, a.decimal, a.fractional, a.probability].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of american, decimal, fractional, probability',
    path: ['american'],
  });

const devigInput = z
  .strictObject({
    american: z.array(american).min(2).max(50).optional(),
    decimal: z.array(decimal).min(2).max(50).optional(),
    method: z.enum(DEVIG_METHODS).optional(),
  })
  .refine((a) => (a.american === undefined) !== (a.decimal === undefined), { message: 'give the prices of every outcome of one market in one list: american or decimal', path: ['american'] });

const kellyInput = z
  .strictObject({
    probability,
    american: american.optional(),
    decimal: decimal.optional(),
    fraction: z.number().gt(0, 'must be in (0, 1]: 1 full Kelly, 0.5 half Kelly').max(1, 'must be in (0, 1]: 1 full Kelly, 0.5 half Kelly').optional(),
    bankroll: z.number().positive().max(1e12).optional(),
  })
  .refine((a) => (a.american === undefined) !== (a.decimal === undefined), { message: 'give the price: american or decimal', path: ['american'] });

export const MATH_TOOLS: readonly MathTool[] = [
  {
    name: 'convert_odds',
    title: 'Convert odds',
    description:
      'Converts one price between every format the service shows: American (-110, 150), decimal (1.909), fractional ("10/11", "evens") and implied probability (0.5238; a fair probability gives the fair price). Give exactly one of american, decimal, fractional, probability. Computed here, no data read.',
    input: convertInput,
    data: FORMATS_SCHEMA,
    run(a: z.infer<typeof convertInput>) {
      const d = a.decimal ?? (a.american !== undefined ? americanToDecimal(a.american) : a.fractional !== undefined ? fractionalToDecimal(a.fractional) : probabilityToDecimal(a.probability!));
      return formats(d);
    },
    summary: (d) => `${d.american > 0 ? '+' : ''}${d.american} = ${d.decimal} decimal = ${d.fractional} = ${(d.implied_probability * 100).toFixed(2)}% implied.`,
  },
  {
    name: 'devig',
    title: 'De-vig a market',
    description:
      `Removes the bookmaker's margin from the prices of every outcome of one market (both sides of a spread, the two or three outcomes of a moneyline), giving fair probabilities and fair prices. ` +
      `method: ${DEVIG_METHODS.join(', ')} (the listings' methods; default: all of them, to compare; the listings default to ${DEFAULT_DEVIG_METHOD}). worst_case is each outcome's lowest probability of the other methods, not summing to 1. Computed here, no data read.`,
    input: devigInput,
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['method', 'overround', 'outcomes'],
        properties: {
          method: { type: 'string', enum: [...DEVIG_METHODS] },
          overround: { type: 'number', description: "The book's margin: sum of the implied probabilities minus 1 (negative: an arbitrage)" },
          outcomes: {
            type: 'array',
            description: 'One per price given, in the same order',
            items: { type: 'object', required: ['fair_probability', 'fair'], properties: { fair_probability: { type: 'number' }, fair: FORMATS_SCHEMA } },
          },
        },
      },
    },
    run(a: z.infer<typeof devigInput>) {
      const prices = a.decimal ?? a.american!.map(americanToDecimal);
      const margin = round(overround(prices), 6);
      return (a.method ? [a.method] : DEVIG_METHODS).map((method) => ({
        method,
        overround: margin,
        outcomes: devig(prices, method).map((p) => ({ fair_probability: round(p, 6), fair: formats(1 / p) })),
      }));
    },
    summary: (d) => `Margin ${(d[0].overround * 100).toFixed(2)}%; fair probabilities ${d.map((m: any) => `${m.method} ${m.outcomes.map((o: any) => o.fair_probability.toFixed(4)).join('/')}`).join(', ')}.`,
  },
  {
    name: 'kelly_stake',
    title: 'Kelly stake',
    description:
      'The Kelly criterion: the share of a bankroll to stake on a bet at a price (american or decimal) that wins with probability (your estimate, e.g. the fair probability of find_value). fraction scales it (0.5 half Kelly, the usual hedge; default 1); with bankroll, the amount too. Stake 0 when the bet has no edge. Computed here, no data read.',
    input: kellyInput,
    data: {
      type: 'object',
      required: ['full_kelly', 'stake_fraction', 'edge_percentage', 'decimal'],
      properties: {
        full_kelly: { type: 'number', description: '(p*d - 1)/(d - 1): the full Kelly share of the bankroll (negative: no edge)' },
        stake_fraction: { type: 'number', description: 'fraction x full_kelly, 0 without an edge' },
        edge_percentage: { type: 'number', description: 'Expected profit per 100 staked' },
        decimal: { type: 'number', description: 'The price, decimal' },
        stake: { type: 'number', description: 'stake_fraction x bankroll, when a bankroll was given' },
      },
    },
    run(a: z.infer<typeof kellyInput>) {
      const d = priceOf(a);
      const k = kellyStake(a.probability, d, a.fraction ?? 1);
      return {
        full_kelly: round(k.full_kelly, 6),
        stake_fraction: round(k.stake_fraction, 6),
        edge_percentage: round(k.edge_percentage, 4),
        decimal: round(d, 4),
        ...(a.bankroll !== undefined && { stake: round(k.stake_fraction * a.bankroll, 2) }),
      };
    },
    summary: (d) => (d.stake_fraction > 0 ? `Stake ${(d.stake_fraction * 100).toFixed(2)}% of the bankroll${d.stake !== undefined ? ` (${d.stake})` : ''}; edge ${d.edge_percentage.toFixed(2)}%.` : `No edge (${d.edge_percentage.toFixed(2)}%): stake nothing.`),
  },
];

/** Runs a math tool: its data, or the refusal naming the argument. */
export function runMathTool(tool: MathTool, args: unknown): { data: unknown } | { error: string } {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys.join(', ') : issue.path.map(String).join('.') || 'arguments';
    const message = issue.code === 'unrecognized_keys' ? `unknown argument; ${tool.name} takes ${Object.keys((tool.input as unknown as { shape?: object }).shape ?? {}).join(', ')}` : issue.message;
    return { error: `invalid parameter ${name}: ${message}` };
  }
  try {
    return { data: tool.run(parsed.data) };
  } catch (error) {
    if (error instanceof InvalidOddsError || error instanceof RangeError) return { error: `invalid parameter: ${error.message}` };
    throw error;
  }
}

/** The input JSON Schema of a math tool (from its zod schema, as given). */
export const mathInputSchema = (tool: MathTool): JsonSchema => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema;
};
