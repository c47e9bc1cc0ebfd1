-- AlterTable
ALTER TABLE "Sportsbook" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'sportsbook',
ADD COLUMN     "nameKnown" BOOLEAN NOT NULL DEFAULT true;

-- Books the feed never names get a neutral name and say so (added by hand: the generated
-- migration would fail on the null names stored before).
UPDATE "Sportsbook" SET "name" = 'Sportsbook ' || "id", "nameKnown" = false WHERE "name" IS NULL;
UPDATE "Sportsbook" SET "kind" = 'aggregate' WHERE "isAggregate";
ALTER TABLE "Sportsbook" ALTER COLUMN "name" SET NOT NULL;

-- AlterTable
ALTER TABLE "Quote" ADD COLUMN     "source" TEXT;

-- AlterTable
ALTER TABLE "OddsHistory" ADD COLUMN     "decimal" DOUBLE PRECISION,
ADD COLUMN     "source" TEXT;
