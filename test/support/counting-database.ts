import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient, type Database } from '../../src/db/client';

/**
 * The same database through a Prisma client whose driver adapter counts every SQL statement, except
 * those of the data version's clock (countFreshQuotes), which a timer runs whatever the requests;
 * with `only`, just the statements whose SQL it accepts.
 */
export function countingDatabase(db: Database, only: (sql: string) => boolean = () => true): { db: Database; count: () => number; reset: () => void } {
  const background = (args: unknown[]) => /count\(\*\) AS "n" FROM "Quote"/.test((args[0] as { sql?: string } | undefined)?.sql ?? '');
  let statements = 0;
  const factory = db.adapterFactory;
  const counted: SqlMigrationAwareDriverAdapterFactory = Object.create(factory, {
    connect: {
      value: async () => {
        const adapter = await factory.connect();
        return new Proxy(adapter, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver);
            if (prop === 'queryRaw' || prop === 'executeRaw') {
              return (...args: unknown[]) => {
                if (!background(args) && only((args[0] as { sql?: string } | undefined)?.sql ?? '')) statements++;
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              };
            }
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    },
  });
  const prisma = new PrismaClient({ adapter: counted });
  return { db: { ...db, prisma }, count: () => statements, reset: () => (statements = 0) };
}

/** The first statement of each replay read of the change log (its bounds): one per read (for `only`). */
export const changeLogReplayReads = (sql: string): boolean => /min\("version"\) FROM "ChangeLog"/.test(sql);
