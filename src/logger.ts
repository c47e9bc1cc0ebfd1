import pino, { type Logger } from 'pino';
import type { Config } from './config';

export type { Logger };

/** Structured JSON logs on stdout (one line per request and per ingest run). */
export function createLogger(config: Pick<Config, 'logLevel'>, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level: config.logLevel, base: { service: 'odds', ...bindings } });
}
