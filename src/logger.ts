import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';
import { REDACT_PATHS, REDACTED } from './redact';

export type { Logger };

/**
 * Structured JSON logs on stdout (one line per request and per ingest run), or on `destination`
 * (tests). Credentials are redacted at every path where they can appear (src/redact.ts).
 */
export function createLogger(config: Pick<Config, 'logLevel'>, bindings: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, base: { service: 'odds', ...bindings }, redact: { paths: REDACT_PATHS, censor: REDACTED } };
  return destination ? pino(options, destination) : pino(options);
}
