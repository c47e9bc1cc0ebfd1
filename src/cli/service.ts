import type { Command } from 'commander';
import { withDatabase } from './database';
import { applyMigrations } from '../db/migrate';

export function registerServiceCommands(program: Command): void {
  program
    .command('serve')
    .description('start the API (REST, GraphQL, Socket.IO) on PORT; ingests FEED_URL when set')
    .option('--simulate', 'feed the store from the built-in simulator (demo data, labelled simulated)')
    .action(async (options: { simulate?: boolean }) => {
      // Loaded here, not with the CLI: the API (Apollo, Express, Socket.IO) is most of what the
      // commands would load, and only `serve` runs it (`odds ingest` and the key commands start ~0.2 s sooner).
      const { serve } = await import('../main.js');
      const served = await serve({ simulate: options.simulate ?? false });
      // The demo (what `npm start` runs) says how to try it: a ready key and the URLs.
      if (options.simulate) {
        const { demoBanner, demoKey } = await import('./demo.js');
        process.stdout.write(demoBanner(served.port, served.config.host, await demoKey(served.db, served.config)));
      }
      // The command lasts as long as the server: main() leaves once the shutdown has closed everything.
      process.exitCode = await served.stopped;
    });

  program
    .command('migrate')
    .description('create the store if needed and apply pending migrations (every command also does this)')
    .action(async () => {
      await withDatabase('odds migrate', async (db) => {
        const applied = await applyMigrations(db.adapterFactory);
        process.stdout.write(`${db.kind} at ${db.location}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}\n`);
      });
    });
}
