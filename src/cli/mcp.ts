import type { Command } from 'commander';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'MCP server on stdin/stdout for a desktop agent or an IDE (docs/mcp.md): the tools over the local store (DATA_DIR or DATABASE_URL), ' +
        'or with --url over a running instance, with the key in ODDS_API_KEY',
    )
    .option('--url <url>', 'base URL of a running instance, e.g. http://localhost:3000; the API key (sk_...) comes from ODDS_API_KEY')
    .action(async (options: { url?: string }) => {
      // Loaded here, not with the CLI: the API is most of what the other commands would load.
      const { serveStdio } = await import('../mcp/stdio.js');
      const { remoteBackend, inProcessBackend, OPERATOR, UNMETERED } = await import('../mcp/backends.js');
      if (options.url) {
        let url: URL;
        try {
          url = new URL(options.url);
          if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
        } catch {
          throw new ConfigError(`--url: expected an http(s) URL such as http://localhost:3000, got ${options.url}`);
        }
        // The key of the instance, from the environment: never an argument, which a model writes and transcripts keep.
        const key = process.env.ODDS_API_KEY;
        if (!key) throw new ConfigError('ODDS_API_KEY: required with --url, the API key (sk_...) of the instance');
        const { buildSchema } = await import('../graphql/index.js');
        await serveStdio(remoteBackend(url.toString(), key), { schema: buildSchema(), onError: (error) => process.stderr.write(`odds mcp: ${(error as Error).stack ?? String(error)}\n`) });
        return;
      }
      const config = loadConfig();
      const { createApp } = await import('../app.js');
      const { openDatabase } = await import('../db/client.js');
      const { seedReferenceData } = await import('../ingest/seed.js');
      const { createLocalBus } = await import('../events/bus.js');
      const { createLogger } = await import('../logger.js');
      // stdout carries the protocol: logs go to stderr.
      const logger = createLogger(config, { command: 'odds mcp' }, pino.destination(2));
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, command: 'odds mcp' });
      const bus = createLocalBus();
      try {
        await seedReferenceData(db.prisma);
        // No response cache: this process hears of no other process's ingest, and one agent asks little.
        const app = createApp({ config: { ...config, restCacheMs: 0 }, db, bus, logger });
        try {
          await serveStdio(inProcessBackend(app.callRoute, OPERATOR, UNMETERED), { schema: app.schema, onError: (error) => logger.error({ err: error }, 'MCP tool failed') });
        } finally {
          await app.close();
        }
      } finally {
        await bus.close();
        await db.close();
      }
    });
}
