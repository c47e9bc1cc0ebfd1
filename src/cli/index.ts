import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { ConfigError } from '../config';
import { DataDirLockedError } from '../db/data-dir-lock';
import { leaveProcess } from '../exit';
import { registerAccountCommands } from './accounts';
import { registerClusterCommand } from './cluster';
import { registerFitCommand } from './fit';
import { registerIngestCommand } from './ingest';
import { registerKeyCommands } from './keys';
import { registerMcpCommand } from './mcp';
import { registerServiceCommands } from './service';
import { registerSimulateCommand } from './simulate';

/** The package version (package.json beside src/ and dist/ alike). */
const VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

export function buildProgram(): Command {
  const program = new Command('odds')
    .description('Basketball odds data service: REST and GraphQL API, live pushes, feed ingest.\nEvery command reads the environment variables listed in the README (DATA_DIR, DATABASE_URL, ...).')
    .version(VERSION, '-V, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride();
  registerServiceCommands(program);
  registerIngestCommand(program);
  registerSimulateCommand(program);
  registerKeyCommands(program);
  registerAccountCommands(program);
  registerFitCommand(program);
  registerMcpCommand(program);
  registerClusterCommand(program);
  return program;
}

/**
 * Entry of bin/odds.js: runs one command, then ends the process with its exit code (2 for usage and
 * configuration errors) by leaveProcess, never by the event loop running dry: that end can deadlock
 * in Node.js (src/exit.ts). Every command has closed what it opened when its action resolves.
 */
export function main(argv: string[]): void {
  buildProgram()
    .parseAsync(argv)
    .catch((error: unknown) => {
      const e = error as { code?: string; exitCode?: number; message?: string };
      // Commander has printed its message. Help and --version succeed; every other usage error
      // (unknown command, missing or invalid option) exits 2, as documented.
      if (e.code?.startsWith('commander.')) {
        process.exitCode = e.exitCode === 0 ? 0 : 2;
        return;
      }
      if (error instanceof ConfigError || error instanceof DataDirLockedError) {
        process.stderr.write(`odds: ${(error as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      process.stderr.write(`odds: ${e.message ?? String(error)}\n`);
      process.exitCode = 1;
    })
    .then(() => leaveProcess(Number(process.exitCode ?? 0)));
}
