-- AlterTable
ALTER TABLE "Sportsbook" ALTER COLUMN "name" DROP NOT NULL;
