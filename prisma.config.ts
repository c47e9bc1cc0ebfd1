// Used only by the Prisma CLI (`prisma migrate deploy` against a PostgreSQL server, if an operator
// prefers it to `odds migrate`). The service itself never reads this file.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/postgres' },
});
