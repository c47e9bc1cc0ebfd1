-- DropIndex: the unique key on (gameId, bookId, ...) already serves lookups by gameId
DROP INDEX "Quote_gameId_idx";

-- AlterTable: when a feed document last carried the game
ALTER TABLE "Game" ADD COLUMN "seenAt" TIMESTAMP(3);
UPDATE "Game" SET "seenAt" = "updatedAt";

-- AlterTable: the opening price of each quote, stored once when the quote is first seen
ALTER TABLE "Quote" ADD COLUMN     "openAmerican" INTEGER,
ADD COLUMN     "openPoint" DOUBLE PRECISION,
ADD COLUMN     "openedAt" TIMESTAMP(3);

-- Backfill from the history: the first row of each quote's outcome and live flag (or its current
-- price where the history has none)
UPDATE "Quote" q SET "openAmerican" = h."american", "openPoint" = h."point", "openedAt" = h."seenAt"
FROM (
  SELECT DISTINCT ON ("gameId", "bookId", "marketType", "period", "side", "isLive")
    "gameId", "bookId", "marketType", "period", "side", "isLive", "american", "point", "seenAt"
  FROM "OddsHistory"
  ORDER BY "gameId", "bookId", "marketType", "period", "side", "isLive", "seenAt", "id"
) h
WHERE h."gameId" = q."gameId" AND h."bookId" = q."bookId" AND h."marketType" = q."marketType"
  AND h."period" = q."period" AND h."side" = q."side" AND h."isLive" = q."isLive";
UPDATE "Quote" SET "openAmerican" = "american", "openPoint" = "point", "openedAt" = "changedAt" WHERE "openAmerican" IS NULL;

ALTER TABLE "Quote" ALTER COLUMN "openAmerican" SET NOT NULL,
ALTER COLUMN "openedAt" SET NOT NULL;

-- CreateTable
CREATE TABLE "IngestState" (
    "id" INTEGER NOT NULL,
    "version" BIGINT NOT NULL,
    "feedTime" TIMESTAMP(3),

    CONSTRAINT "IngestState_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OddsHistory_gameId_bookId_marketType_period_side_isLive_see_idx" ON "OddsHistory"("gameId", "bookId", "marketType", "period", "side", "isLive", "seenAt" DESC, "id" DESC);
