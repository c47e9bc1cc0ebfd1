import { openTestDatabase } from '../support/database';

test('when a throwaway database opens, then it is migrated', async () => {
  const db = await openTestDatabase();
  const rows = await db.prisma.$queryRawUnsafe<Array<{ migration_name: string }>>('select migration_name from _prisma_migrations');
  expect(rows.length).toBeGreaterThan(0);
  await db.close();
});
