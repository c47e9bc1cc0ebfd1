-- AlterTable
ALTER TABLE "Player" ADD COLUMN     "espnId" TEXT;

-- CreateTable
CREATE TABLE "PlayerBoxscore" (
    "gameId" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "final" BOOLEAN NOT NULL,
    "columns" JSONB NOT NULL,
    "fetchedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PlayerBoxscore_pkey" PRIMARY KEY ("gameId")
);

-- CreateTable
CREATE TABLE "PlayerGameStat" (
    "gameId" INTEGER NOT NULL,
    "athleteId" TEXT NOT NULL,
    "playerId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "starter" BOOLEAN NOT NULL,
    "didNotPlay" BOOLEAN NOT NULL,
    "minutes" INTEGER,
    "points" INTEGER,
    "rebounds" INTEGER,
    "offensiveRebounds" INTEGER,
    "defensiveRebounds" INTEGER,
    "assists" INTEGER,
    "threesMade" INTEGER,
    "threesAttempted" INTEGER,
    "fieldGoalsMade" INTEGER,
    "fieldGoalsAttempted" INTEGER,
    "freeThrowsMade" INTEGER,
    "freeThrowsAttempted" INTEGER,
    "steals" INTEGER,
    "blocks" INTEGER,
    "turnovers" INTEGER,
    "fouls" INTEGER,
    "plusMinus" INTEGER,
    "stats" JSONB NOT NULL,
    "previous" JSONB,
    "correctedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PlayerGameStat_pkey" PRIMARY KEY ("gameId","athleteId")
);

-- CreateIndex
CREATE INDEX "Player_espnId_idx" ON "Player"("espnId");

-- CreateIndex
CREATE INDEX "PlayerGameStat_athleteId_gameId_idx" ON "PlayerGameStat"("athleteId", "gameId");

-- CreateIndex
CREATE INDEX "PlayerGameStat_playerId_idx" ON "PlayerGameStat"("playerId");
