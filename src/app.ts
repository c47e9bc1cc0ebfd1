import http from 'node:http';
import express from 'express';
import type { Config } from './config';
import type { Database } from './db/client';
import type { EventBus } from './live/pubsub';
import type { Logger } from './logger';

/** What the app is built from; main.ts and tests provide them. */
export interface AppDeps {
  config: Config;
  db: Database;
  bus: EventBus;
  logger: Logger;
  /** Clock, for tests (default: the real one). */
  now?: () => Date;
}

export interface App {
  httpServer: http.Server;
  /** Stops live transports and timers; does not close the database or the bus (main.ts owns them). */
  close(): Promise<void>;
}

/** Wires every module onto one HTTP server. Never listens: main.ts and tests do. */
export function createApp(deps: AppDeps): App {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok', database: deps.db.kind } });
  });
  const httpServer = http.createServer(app);
  return {
    httpServer,
    async close() {},
  };
}
