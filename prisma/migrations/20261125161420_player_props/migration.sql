-- DropIndex
DROP INDEX "Quote_gameId_bookId_marketType_period_side_isLive_key";

-- DropIndex
DROP INDEX "OddsHistory_gameId_bookId_marketType_period_side_isLive_see_idx";

-- AlterTable
ALTER TABLE "Quote" ADD COLUMN     "lineKey" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "playerId" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "OddsHistory" ADD COLUMN     "lineKey" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "playerId" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Player" (
    "id" SERIAL NOT NULL,
    "leagueId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "teamId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Player_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlayerAlias" (
    "leagueId" INTEGER NOT NULL,
    "alias" TEXT NOT NULL,
    "playerId" INTEGER NOT NULL,

    CONSTRAINT "PlayerAlias_pkey" PRIMARY KEY ("leagueId","alias")
);

-- CreateIndex
CREATE INDEX "Player_leagueId_name_idx" ON "Player"("leagueId", "name");

-- CreateIndex
CREATE INDEX "PlayerAlias_playerId_idx" ON "PlayerAlias"("playerId");

-- CreateIndex
CREATE UNIQUE INDEX "Quote_gameId_bookId_marketType_period_side_isLive_playerId__key" ON "Quote"("gameId", "bookId", "marketType", "period", "side", "isLive", "playerId", "lineKey");

-- CreateIndex
CREATE INDEX "OddsHistory_gameId_bookId_marketType_period_side_isLive_pla_idx" ON "OddsHistory"("gameId", "bookId", "marketType", "period", "side", "isLive", "playerId", "lineKey", "seenAt" DESC, "id" DESC);
