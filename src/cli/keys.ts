import type { Command } from 'commander';
import { createKey, listKeys, revokeKey } from '../db/account-store';
import type { Plan } from '../auth/viewer';
import { withDatabase } from './database';
import { announceKeyChange } from './key-changes';
import { isoDate, planOption } from './options';

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('manage API keys (on a store no server holds; a running server offers the admin GraphQL mutations)');

  keys
    .command('create')
    .description('create an API key (printed once; only its hash is stored)')
    .addOption(planOption('the plan of the new account; with --account, the account moves to it (required without --account)'))
    .option('--expires-at <time>', 'subscription end (ISO 8601); the key stops working after it', isoDate)
    .option('--name <name>', 'a label for the key')
    .option('--account <id>', 'add the key to an existing account instead of creating one')
    .option('--json', 'print {"id","key","account_id","plan","expires_at"} as JSON')
    .action(async (options: { plan?: Plan; expiresAt?: Date; name?: string; account?: string; json?: boolean }, command: Command) => {
      if (!options.plan && !options.account) command.error("error: required option '--plan <plan>' not specified (or give --account <id> to use that account's plan)", { exitCode: 2, code: 'commander.missingMandatoryOptionValue' });
      await withDatabase('odds keys create', async (db) => {
        const created = await createKey(db.prisma, { plan: options.plan, expiresAt: options.expiresAt, name: options.name, accountId: options.account });
        if (options.json) {
          const { id, key, account_id, plan, expires_at } = created;
          process.stdout.write(`${JSON.stringify({ id, key, account_id, plan, expires_at })}\n`);
        } else {
          process.stdout.write(`${created.key}\n`);
          process.stderr.write(`key ${created.id} for account ${created.account_id} (plan ${created.plan}${created.expires_at ? `, until ${created.expires_at}` : ''}); it is shown only now\n`);
        }
      });
    });

  keys
    .command('list')
    .description('list keys (id, prefix, plan, state); never the keys themselves')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withDatabase('odds keys list', async (db) => {
        const rows = await listKeys(db.prisma);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(rows)}\n`);
          return;
        }
        for (const k of rows) {
          process.stdout.write(`${k.id}  ${k.prefix}…  ${k.plan.padEnd(7)}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}  ${k.name ?? ''}\n`);
        }
      });
    });

  keys
    .command('revoke')
    .argument('<id>', 'key id, as `odds keys list` shows it')
    .description('revoke a key; it stops working at once')
    .action(async (id: string) => {
      await withDatabase('odds keys revoke', async (db, config) => {
        if (!(await revokeKey(db.prisma, id))) throw new Error(`no key with id ${id}`);
        await announceKeyChange(config, { keyId: id });
        process.stdout.write(`revoked ${id}\n`);
      });
    });
}
