import { Option, type Command } from 'commander';
import { listAccounts, updateAccount } from '../db/account-store';
import type { Plan } from '../auth/viewer';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../domain';
import { withDatabase } from './database';
import { announceKeyChange } from './key-changes';
import { isoDate, planOption } from './options';

export function registerAccountCommands(program: Command): void {
  const accounts = program.command('accounts').description('manage accounts (plan and subscription)');

  accounts
    .command('list')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withDatabase('odds accounts list', async (db) => {
        const rows = (await listAccounts(db.prisma)).map((a) => ({
          id: a.id,
          name: a.name,
          plan: a.plan,
          subscription_status: a.subscriptionStatus,
          subscription_ends_at: a.subscriptionEndsAt?.toISOString() ?? null,
          keys: a._count.apiKeys,
        }));
        if (options.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
        else for (const a of rows) process.stdout.write(`${a.id}  ${a.plan.padEnd(7)}  ${a.subscription_status}  ${a.subscription_ends_at ?? 'no end date'}  ${a.keys} keys  ${a.name}\n`);
      });
    });

  accounts
    .command('update')
    .argument('<id>', 'account id')
    .addOption(planOption())
    .addOption(new Option('--status <status>', 'subscription status').choices(SUBSCRIPTION_STATUSES))
    .option('--ends-at <time>', 'subscription end (ISO 8601)', isoDate)
    .option('--no-end', 'remove the subscription end date')
    .action(async (id: string, options: { plan?: Plan; status?: SubscriptionStatus; endsAt?: Date; end: boolean }) => {
      await withDatabase('odds accounts update', async (db, config) => {
        const updated = await updateAccount(db.prisma, id, {
          plan: options.plan,
          subscriptionStatus: options.status,
          subscriptionEndsAt: options.end === false ? null : options.endsAt,
        });
        if (!updated) throw new Error(`no account with id ${id}`);
        await announceKeyChange(config, { accountId: id });
        process.stdout.write(`account ${id}: plan ${updated.plan}, ${updated.subscriptionStatus}, ends ${updated.subscriptionEndsAt?.toISOString() ?? 'never'}\n`);
      });
    });
}
