import { InvalidArgumentError, Option } from 'commander';
import { PLANS } from '../domain';

/** Parses an ISO 8601 timestamp option. */
export function isoDate(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError('expected an ISO 8601 date or timestamp, e.g. 2027-01-31 or 2027-01-31T12:00:00Z');
  return date;
}

/** Parses a non-negative integer option. */
export function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
}

export const planOption = (description = 'subscription plan') => new Option('--plan <plan>', description).choices(PLANS);
